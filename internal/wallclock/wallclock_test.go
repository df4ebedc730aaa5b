package wallclock_test

import (
	"testing"
	"testing/synctest"
	"time"

	"github.com/sortid/sortid/internal/wallclock"
)

func TestNowAgreesWithTimeNow(t *testing.T) {
	before := time.Now()
	sec, nsec := wallclock.Now()
	after := time.Now()
	got := time.Unix(sec, int64(nsec))
	// time.Now and the wall clock read the same clock; allow for a
	// step of the clock between the reads.
	if got.Before(before.Add(-time.Second)) || got.After(after.Add(time.Second)) {
		t.Fatalf("wallclock.Now() = %v, time.Now() from %v to %v", got, before, after)
	}
	if nsec < 0 || nsec >= 1e9 {
		t.Fatalf("nanoseconds %d outside [0, 1e9)", nsec)
	}
}

// TestNowIgnoresSynctestClock checks the reason the package exists: in a
// synctest bubble time.Now is fake (2000-01-01), the wall clock is not.
func TestNowIgnoresSynctestClock(t *testing.T) {
	real := time.Now()
	synctest.Test(t, func(t *testing.T) {
		fake := time.Now()
		if fake.Year() != 2000 {
			t.Fatalf("time.Now() in the bubble = %v; the test expects synctest's fake clock at 2000-01-01", fake)
		}
		sec, _ := wallclock.Now()
		if d := time.Unix(sec, 0).Sub(real); d < -2*time.Second || d > 2*time.Second {
			t.Fatalf("wallclock.Now() in the bubble = %v, %v from the real time", time.Unix(sec, 0), d)
		}
	})
}
