package wallclock

import (
	"syscall"
	"time"
)

// now reads the clock with one vDSO call. time.Now makes two, one for the
// wall clock and one for the monotonic clock, which an ID has no use for.
func now() (sec int64, nsec int32) {
	var tv syscall.Timeval
	if syscall.Gettimeofday(&tv) != nil {
		t := time.Now() // not reached on Linux; kept so that a failure is not a zero time
		return t.Unix(), int32(t.Nanosecond())
	}
	return tv.Sec, int32(tv.Usec) * 1000
}
