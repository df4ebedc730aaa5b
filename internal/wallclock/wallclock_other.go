//go:build !(linux && amd64)

package wallclock

import (
	_ "unsafe" // for go:linkname
)

// runtimeNow is the runtime's wall clock without the synctest bubble's
// fake time: time.now, which the Go project keeps for outside callers
// (go.dev/issue/67401: "Do not remove or change the type signature").
// Unlike syscall.Gettimeofday, it goes through the vDSO on every Linux
// architecture, and it has nanosecond resolution.
//
//go:linkname runtimeNow time.now
func runtimeNow() (sec int64, nsec int32, mono int64)

func now() (sec int64, nsec int32) {
	sec, nsec, _ = runtimeNow()
	return sec, nsec
}
