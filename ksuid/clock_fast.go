//go:build linux && amd64

package ksuid

import (
	"syscall"
	"time"
)

// unixNow returns the current Unix time in whole seconds. On linux/amd64
// syscall.Gettimeofday goes through the vDSO and costs half of time.Now,
// which also reads the monotonic clock that an ID has no use for.
func unixNow() int64 {
	var tv syscall.Timeval
	if syscall.Gettimeofday(&tv) != nil {
		return time.Now().Unix()
	}
	return tv.Sec
}
