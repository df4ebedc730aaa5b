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
//
// On linux/amd64 it reads the clock with gettimeofday, which the kernel
// answers in user space (vDSO) in half the time of time.Now; elsewhere it
// uses the runtime's wall clock without the bubble's fake time.
package wallclock

// Now returns the current Unix time as whole seconds and nanoseconds
// within the second. Its resolution is a microsecond on linux/amd64 and a
// nanosecond elsewhere.
func Now() (sec int64, nsec int32) {
	return now()
}
