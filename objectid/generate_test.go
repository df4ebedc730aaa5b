package objectid_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/sortid/sortid/objectid"
)

func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

// TestGeneratorOverflow runs a generator to the end of a second's counter
// values: the last IDs are distinct, then New refuses with ErrExhausted
// rather than repeat one, and the next second has values again.
func TestGeneratorOverflow(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := at
	g := objectid.NewGenerator(objectid.WithClock(func() time.Time { return now }))
	first, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	next := objectid.LeaveCounterValues(g, uint32(at.Unix()), 3)
	seen := map[objectid.ObjectID]bool{first: true}
	for i := range uint32(3) {
		id, err := g.New()
		if err != nil {
			t.Fatalf("value %d of the last 3: %v", i, err)
		}
		if seen[id] || id.Counter() != (next+i)%(1<<24) || id.Random() != first.Random() || !id.Time().Equal(at) {
			t.Fatalf("ID %v (counter %x, want %x)", id, id.Counter(), (next+i)%(1<<24))
		}
		seen[id] = true
	}
	for range 2 {
		id, err := g.New()
		if !errors.Is(err, objectid.ErrExhausted) || !id.IsZero() {
			t.Fatalf("past the last counter value: %v, %v; want ErrExhausted and no ID", id, err)
		}
		if want := "objectid: the 2^24 counter values of second 2026-01-02T03:04:05Z (1767323045) are used up"; err.Error() != want {
			t.Errorf("message %q, want %q", err, want)
		}
	}
	now = at.Add(time.Second)
	id, err := g.New()
	if err != nil || !id.Time().Equal(now) || id.Random() != first.Random() {
		t.Fatalf("next second: %v, %v", id, err)
	}
}

// TestGeneratorClockStepsBack checks that a clock behind the latest second
// dates IDs by the latest second, so no second's values are used twice.
func TestGeneratorClockStepsBack(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	now := t0
	g := objectid.NewGenerator(objectid.WithClock(func() time.Time { return now }))
	a, _ := g.New()
	now = t0.Add(-time.Hour)
	b, err := g.New()
	if err != nil || !b.Time().Equal(t0) || b.Random() != a.Random() || b.Counter() != (a.Counter()+1)&0xFFFFFF {
		t.Fatalf("clock an hour back: %v (time %v), %v; want the next ID of %v", b, b.Time(), err, t0)
	}
	// When the latest second is used up while the clock is still behind,
	// the generator dates IDs by the clock again, with a new random value.
	objectid.LeaveCounterValues(g, uint32(t0.Unix()), 0)
	c, err := g.New()
	if err != nil || !c.Time().Equal(now) || c.Random() == a.Random() {
		t.Fatalf("latest second used up, clock behind: %v (time %v, random %x), %v", c, c.Time(), c.Random(), err)
	}
}

func TestGeneratorClockOutOfRange(t *testing.T) {
	for _, at := range []time.Time{time.Unix(-1, 0), time.Date(2106, 2, 7, 6, 28, 16, 0, time.UTC)} {
		id, err := objectid.NewGenerator(objectid.WithClock(fixedClock(at))).New()
		if !errors.Is(err, objectid.ErrTimeRange) || !id.IsZero() {
			t.Errorf("clock %v: %v, %v; want ErrTimeRange", at, id, err)
		}
	}
}

// TestNewAtOverflow is the repeat that sortid -t objectid --time T
// -n 16777217 used to print: NewAt refuses the 2^24+1st ID of a second.
func TestNewAtOverflow(t *testing.T) {
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	first, err := objectid.NewAt(at)
	if err != nil {
		t.Fatal(err)
	}
	objectid.LeaveCounterValues(objectid.BackfillGenerator(), uint32(at.Unix()), 1)
	last, err := objectid.NewAt(at)
	if err != nil || last == first || last.Random() != first.Random() {
		t.Fatalf("last counter value: %v, %v", last, err)
	}
	if id, err := objectid.NewAt(at); !errors.Is(err, objectid.ErrExhausted) || !id.IsZero() {
		t.Fatalf("one more: %v, %v; want ErrExhausted", id, err)
	}
	// Another second has its own counter values; an earlier one than
	// the latest gets a new random value, as the generator does not
	// remember what it used for it.
	later, err := objectid.NewAt(at.Add(time.Second))
	if err != nil || later.Random() != first.Random() {
		t.Fatalf("next second: %v, %v", later, err)
	}
	again, err := objectid.NewAt(at)
	if err != nil || again.Random() == first.Random() || !again.Time().Equal(at) {
		t.Fatalf("back to the used-up second: %v, %v; want a new random value", again, err)
	}
}

// TestNewWaitsForNextSecond uses up the current second of New's generator:
// New must return an ID of a later second, not repeat one.
func TestNewWaitsForNextSecond(t *testing.T) {
	first := objectid.New()
	objectid.LeaveCounterValues(objectid.ProcessGenerator(), first.Timestamp(), 0)
	start := time.Now()
	id := objectid.New()
	if id.Timestamp() <= first.Timestamp() || id.Random() != first.Random() {
		t.Fatalf("after second %d was used up, New() = %v (second %d)", first.Timestamp(), id, id.Timestamp())
	}
	if waited := time.Since(start); waited > 1500*time.Millisecond {
		t.Errorf("New waited %v for the next second", waited)
	}
}

// TestNewInSynctestBubble checks that New reads the real clock inside a
// synctest bubble, the same on every platform, and does not panic.
func TestNewInSynctestBubble(t *testing.T) {
	real := time.Now()
	synctest.Test(t, func(t *testing.T) {
		if time.Now().Year() != 2000 {
			t.Fatalf("time.Now() = %v in the bubble; the test expects synctest's fake clock", time.Now())
		}
		g, err := objectid.NewGenerator().New()
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range []objectid.ObjectID{objectid.New(), g} {
			if d := id.Time().Sub(real); d < -2*time.Second || d > 2*time.Second {
				t.Errorf("ID made in the bubble is dated %v, %v from the real time", id.Time(), d)
			}
		}
	})
}

// TestGeneratorConcurrentUnique has 8 goroutines make IDs while the clock
// moves on, and now and then reads a second behind: no ID repeats.
func TestGeneratorConcurrentUnique(t *testing.T) {
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var calls atomic.Int64
	clock := func() time.Time {
		n := calls.Add(1)
		if n%7 == 0 {
			return base // behind
		}
		return base.Add(time.Duration(n/5000) * time.Second)
	}
	g := objectid.NewGenerator(objectid.WithClock(clock))
	checkConcurrentUnique(t, func(int) (objectid.ObjectID, error) { return g.New() })
}

// TestNewAtConcurrentUnique has 8 goroutines call NewAt for seconds in no
// order, which moves its generator back and forth: no ID repeats.
func TestNewAtConcurrentUnique(t *testing.T) {
	base := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	checkConcurrentUnique(t, func(i int) (objectid.ObjectID, error) {
		return objectid.NewAt(base.Add(time.Duration(i*7919%5) * time.Second))
	})
}

func checkConcurrentUnique(t *testing.T, newID func(i int) (objectid.ObjectID, error)) {
	const workers, each = 8, 20_000
	results := make([][]objectid.ObjectID, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				id, err := newID(w*each + i)
				if err != nil {
					t.Error(err)
					return
				}
				results[w] = append(results[w], id)
			}
		})
	}
	wg.Wait()
	seen := make(map[objectid.ObjectID]bool, workers*each)
	for _, ids := range results {
		for _, id := range ids {
			if seen[id] {
				t.Fatalf("duplicate %v", id)
			}
			seen[id] = true
		}
	}
	if len(seen) != workers*each {
		t.Fatalf("%d IDs, want %d", len(seen), workers*each)
	}
}
