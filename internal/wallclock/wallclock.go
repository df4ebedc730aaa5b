// Package wallclock reads the system's real-time clock for the ID
// generators of this module, the same way on every platform.
//
// It does not call time.Now, because inside a testing/synctest bubble
// time.Now reports the bubble's fake clock, which starts at
// 2000-01-01T00:00:00Z: before the KSUID epoch, so a KSUID could not be
// made at all. IDs outlive the test that made them and are compared with
// IDs made elsewhere, so they are dated by the real clock everywhere.
// Code that wants IDs dated by another clock, the fake one included,
// passes it to a generator's WithClock option.
package wallclock

import (
	_ "unsafe" // for go:linkname
)

// now is the runtime's wall clock without the synctest bubble's fake
// time: time.now, which the Go project keeps for outside callers
// (go.dev/issue/67401: "Do not remove or change the type signature").
// Unlike syscall.Gettimeofday, it goes through the vDSO on every Linux
// architecture and has nanosecond resolution.
//
//go:linkname now time.now
func now() (sec int64, nsec int32, mono int64)

// Now returns the current Unix time as whole seconds and nanoseconds
// within the second.
func Now() (sec int64, nsec int32) {
	sec, nsec, _ = now()
	return sec, nsec
}
