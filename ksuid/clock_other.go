//go:build !(linux && amd64)

package ksuid

import "time"

// unixNow returns the current Unix time in whole seconds.
func unixNow() int64 {
	return time.Now().Unix()
}
