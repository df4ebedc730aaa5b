package ksuid_test

import (
	"bytes"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/sortid/sortid/ksuid"
)

func TestNew(t *testing.T) {
	before := time.Now().Truncate(time.Second)
	a, b := ksuid.New(), ksuid.New()
	after := time.Now()
	if a == b {
		t.Fatalf("two calls to New returned %v", a)
	}
	for _, id := range []ksuid.KSUID{a, b} {
		if id.Time().Before(before) || id.Time().After(after) {
			t.Errorf("New() time %v outside [%v, %v]", id.Time(), before, after)
		}
		if bytes.Equal(id.Payload(), make([]byte, 16)) {
			t.Errorf("New() payload is all zero")
		}
	}
}

// TestConcurrentUnique makes 8 x 250,000 IDs at once and checks that
// none repeats: the lock-free path must not hand out random bytes twice.
func TestConcurrentUnique(t *testing.T) {
	const workers, each = 8, 250_000
	for _, tc := range []struct {
		name string
		new  func() (ksuid.KSUID, error)
	}{
		{"New", func() (ksuid.KSUID, error) { return ksuid.New(), nil }},
		{"Generator", ksuid.NewGenerator().New},
		{"Monotonic", ksuid.NewGenerator(ksuid.WithMonotonic()).New},
	} {
		t.Run(tc.name, func(t *testing.T) {
			results := make([][]ksuid.KSUID, workers)
			var wg sync.WaitGroup
			for w := range workers {
				wg.Go(func() {
					ids := make([]ksuid.KSUID, each)
					for i := range ids {
						id, err := tc.new()
						if err != nil {
							t.Error(err)
							return
						}
						ids[i] = id
					}
					results[w] = ids
				})
			}
			wg.Wait()
			seen := make(map[ksuid.KSUID]struct{}, workers*each)
			for w, ids := range results {
				for i, id := range ids {
					if _, dup := seen[id]; dup {
						t.Fatalf("duplicate %v", id)
					}
					seen[id] = struct{}{}
					// One goroutine's calls are ordered, so a monotonic
					// generator must give it increasing IDs.
					if tc.name == "Monotonic" && i > 0 && ids[i-1].Compare(id) >= 0 {
						t.Fatalf("worker %d: %v then %v", w, ids[i-1], id)
					}
				}
			}
			if len(seen) != workers*each {
				t.Fatalf("got %d IDs, want %d", len(seen), workers*each)
			}
		})
	}
}

func fixedClock(t time.Time) func() time.Time { return func() time.Time { return t } }

// counterReader returns bytes 0, 1, 2, ... so payloads are predictable.
type counterReader struct{ next byte }

func (r *counterReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = r.next
		r.next++
	}
	return len(p), nil
}

func TestGeneratorClockAndRand(t *testing.T) {
	at := time.Date(2017, 7, 14, 2, 40, 0, 0, time.UTC)
	g := ksuid.NewGenerator(ksuid.WithClock(fixedClock(at)), ksuid.WithRand(&counterReader{next: 1}))
	id, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	if id.String() != "0qjBBlJIfbVLKwnJn4xpLGDr00e" {
		t.Errorf("New() = %s, want 0qjBBlJIfbVLKwnJn4xpLGDr00e", id)
	}
	id2, _ := g.New()
	if want := []byte{17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32}; !bytes.Equal(id2.Payload(), want) {
		t.Errorf("second payload = %v, want %v", id2.Payload(), want)
	}
}

type failingReader struct{ err error }

func (r failingReader) Read([]byte) (int, error) { return 0, r.err }

func TestGeneratorRandFailure(t *testing.T) {
	boom := errors.New("entropy pool on fire")
	for _, tc := range []struct {
		name string
		r    func() io.Reader
		want error
	}{
		{"error", func() io.Reader { return failingReader{boom} }, boom},
		{"short", func() io.Reader { return io.LimitReader(&counterReader{}, 10) }, io.ErrUnexpectedEOF},
		{"empty", func() io.Reader { return failingReader{io.EOF} }, io.EOF},
	} {
		for _, mono := range []bool{false, true} {
			opts := []ksuid.Option{ksuid.WithRand(tc.r())}
			if mono {
				opts = append(opts, ksuid.WithMonotonic())
			}
			id, err := ksuid.NewGenerator(opts...).New()
			if !errors.Is(err, tc.want) {
				t.Errorf("%s (monotonic %v): error = %v, want %v", tc.name, mono, err, tc.want)
			}
			if !id.IsZero() {
				t.Errorf("%s (monotonic %v): returned %v with the error", tc.name, mono, id)
			}
		}
	}
}

func TestGeneratorClockOutOfRange(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(2014, 5, 13, 16, 53, 19, 0, time.UTC),
		time.Date(2150, 6, 19, 23, 21, 36, 0, time.UTC),
	} {
		for _, mono := range []bool{false, true} {
			opts := []ksuid.Option{ksuid.WithClock(fixedClock(at))}
			if mono {
				opts = append(opts, ksuid.WithMonotonic())
			}
			if _, err := ksuid.NewGenerator(opts...).New(); !errors.Is(err, ksuid.ErrTimeRange) {
				t.Errorf("clock %v (monotonic %v): error = %v, want ErrTimeRange", at, mono, err)
			}
		}
	}
}

func TestMonotonicWithinSecond(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(fixedClock(at)))
	prev, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	for range 100_000 {
		id, err := g.New()
		if err != nil {
			t.Fatal(err)
		}
		if id.Compare(prev) <= 0 {
			t.Fatalf("%v after %v", id, prev)
		}
		if !id.Time().Equal(at) {
			t.Fatalf("time %v, want %v", id.Time(), at)
		}
		prev = id
	}
}

// steppingClock returns the times it holds, one per call.
type steppingClock struct {
	times []time.Time
}

func (c *steppingClock) now() time.Time {
	t := c.times[0]
	if len(c.times) > 1 {
		c.times = c.times[1:]
	}
	return t
}

func TestMonotonicClockSteps(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := &steppingClock{times: []time.Time{t0, t0.Add(-time.Hour), t0, t0.Add(time.Second)}}
	g := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(clock.now))
	var ids []ksuid.KSUID
	for range 4 {
		id, err := g.New()
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	// Clock back an hour, then back to t0: both continue from the first.
	if ids[1] != ids[0].Next() || ids[2] != ids[1].Next() {
		t.Errorf("after the clock stepped back: %v %v %v, want consecutive", ids[0], ids[1], ids[2])
	}
	if !ids[1].Time().Equal(t0) {
		t.Errorf("ID made while the clock was behind is dated %v, want %v", ids[1].Time(), t0)
	}
	if !ids[3].Time().Equal(t0.Add(time.Second)) || ids[3].Compare(ids[2]) <= 0 {
		t.Errorf("next second: %v at %v", ids[3], ids[3].Time())
	}
}

func TestMonotonicCarryAndOverflow(t *testing.T) {
	ones := bytes.NewReader(bytes.Repeat([]byte{0xFF}, 64))
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(fixedClock(at)), ksuid.WithRand(ones))
	first, _ := g.New()
	second, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	if !second.Time().Equal(at.Add(time.Second)) || !bytes.Equal(second.Payload(), make([]byte, 16)) {
		t.Errorf("after %v came %v (time %v); want a carry into the next second", first, second, second.Time())
	}

	last := time.Date(2150, 6, 19, 23, 21, 35, 0, time.UTC)
	g = ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(fixedClock(last)),
		ksuid.WithRand(bytes.NewReader(bytes.Repeat([]byte{0xFF}, 16))))
	max, err := g.New()
	if err != nil || max.String() != "aWgEPTl1tmebfsQzFP4bxwgy80V" {
		t.Fatalf("New() = %v, %v; want the largest KSUID", max, err)
	}
	if id, err := g.New(); !errors.Is(err, ksuid.ErrOverflow) || !id.IsZero() {
		t.Errorf("past the largest KSUID: %v, %v; want ErrOverflow", id, err)
	}
}
