package ksuid_test

import (
	"errors"
	"io"
	"sync"
	"testing"
	"testing/synctest"
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
		if id.Payload() == [16]byte{} {
			t.Errorf("New() payload is all zero")
		}
	}
}

// TestConcurrentUnique makes 8 x 50,000 IDs at once, crossing thousands
// of refills of the random buffers, and checks that none repeats: the
// lock-free path must not hand out random bytes twice.
func TestConcurrentUnique(t *testing.T) {
	const workers, each = 8, 50_000
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
	// Half a second past: the fraction is 0x800000 in units of 2^-24 s.
	at := time.Date(2017, 7, 14, 2, 40, 0, 500_000_000, time.UTC)
	g := ksuid.NewGenerator(ksuid.WithClock(fixedClock(at)), ksuid.WithRand(&counterReader{next: 1}))
	id, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	// 05f5e100 800000 0102…0d, encoded by a reference base62 encoder.
	if id.String() != "0qjBBpAvmBXRnL819rhaA14qwbl" {
		t.Errorf("New() = %s, want 0qjBBpAvmBXRnL819rhaA14qwbl", id)
	}
	id2, _ := g.New()
	if want := [16]byte{0x80, 0, 0, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26}; id2.Payload() != want {
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

// negativeReader breaks the io.Reader contract with a negative count.
type negativeReader struct{}

func (negativeReader) Read([]byte) (int, error) { return -1, nil }

// tooLongReader claims to have read more than it was asked for.
type tooLongReader struct{}

func (tooLongReader) Read(p []byte) (int, error) { return len(p) + 1, nil }

// emptyReader returns nothing and no error, forever.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

func TestGeneratorRandBrokenReader(t *testing.T) {
	for name, r := range map[string]io.Reader{
		"negative count": negativeReader{}, "count too large": tooLongReader{}, "no progress": emptyReader{},
	} {
		for _, mono := range []bool{false, true} {
			opts := []ksuid.Option{ksuid.WithRand(r)}
			if mono {
				opts = append(opts, ksuid.WithMonotonic())
			}
			id, err := ksuid.NewGenerator(opts...).New()
			if err == nil || !id.IsZero() {
				t.Errorf("%s (monotonic %v): New() = %v, %v; want an error and no ID", name, mono, id, err)
			}
		}
	}
}

// TestNewInSynctestBubble checks that New and a default Generator date IDs
// by the real clock inside a synctest bubble, whose fake clock (2000-01-01)
// lies before the KSUID epoch, and that WithClock(time.Now) follows the
// fake clock and reports it out of range rather than panic.
func TestNewInSynctestBubble(t *testing.T) {
	real := time.Now()
	synctest.Test(t, func(t *testing.T) {
		if time.Now().Year() != 2000 {
			t.Fatalf("time.Now() = %v in the bubble; the test expects synctest's fake clock", time.Now())
		}
		ids := []ksuid.KSUID{ksuid.New()}
		for _, g := range []*ksuid.Generator{ksuid.NewGenerator(), ksuid.NewGenerator(ksuid.WithMonotonic())} {
			id, err := g.New()
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		for _, id := range ids {
			if d := id.Time().Sub(real); d < -2*time.Second || d > 2*time.Second {
				t.Errorf("ID made in the bubble is dated %v, %v from the real time", id.Time(), d)
			}
		}
		if _, err := ksuid.NewGenerator(ksuid.WithClock(time.Now)).New(); !errors.Is(err, ksuid.ErrTimeRange) {
			t.Errorf("WithClock(time.Now) in the bubble: error = %v, want ErrTimeRange", err)
		}
	})
}
