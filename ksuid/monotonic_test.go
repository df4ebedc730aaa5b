package ksuid_test

import (
	"bytes"
	"errors"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sortid/sortid/ksuid"
)

// bigOf reads a KSUID as a 160-bit number.
func bigOf(id ksuid.KSUID) *big.Int { return new(big.Int).SetBytes(id[:]) }

// stepBetween returns b - a as a number.
func stepBetween(a, b ksuid.KSUID) *big.Int { return new(big.Int).Sub(bigOf(b), bigOf(a)) }

var maxStep = new(big.Int).Lsh(big.NewInt(1), 72) // 2^72

func TestMonotonicStrictlyIncreases(t *testing.T) {
	g := ksuid.NewGenerator(ksuid.WithMonotonic())
	before := time.Now().Truncate(time.Second)
	prev, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	for range 1_000_000 {
		id, err := g.New()
		if err != nil {
			t.Fatal(err)
		}
		if id.Compare(prev) <= 0 {
			t.Fatalf("%v after %v", id, prev)
		}
		prev = id
	}
	if after := time.Now(); prev.Time().Before(before) || prev.Time().After(after) {
		t.Errorf("last ID dated %v, outside [%v, %v]", prev.Time(), before, after)
	}
}

// TestMonotonicLayout pins the byte layout: timestamp, then the fraction
// of the second in units of 2^-24 s, then random bytes.
func TestMonotonicLayout(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 500_000_000, time.UTC)
	g := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(fixedClock(at)), ksuid.WithRand(&counterReader{next: 1}))
	id, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	ts := uint32(at.Unix() - 1_400_000_000)
	want := []byte{byte(ts >> 24), byte(ts >> 16), byte(ts >> 8), byte(ts), 0x80, 0x00, 0x00}
	want = append(want, seq(1, 13)...)
	if !bytes.Equal(id[:], want) {
		t.Fatalf("New() = %x, want %x", id[:], want)
	}
	if !id.Time().Equal(at.Truncate(time.Second)) {
		t.Errorf("Time() = %v, want %v", id.Time(), at.Truncate(time.Second))
	}

	// One microsecond is 16.78 units of 2^-24 s: IDs a microsecond apart
	// have different, increasing fractions.
	for _, tc := range []struct {
		nsec int
		frac []byte
	}{
		{0, []byte{0, 0, 0}},
		{1_000, []byte{0, 0, 0x10}},
		{2_000, []byte{0, 0, 0x21}},
		{250_000_000, []byte{0x40, 0, 0}},
		{999_999_999, []byte{0xFF, 0xFF, 0xFF}},
	} {
		at := time.Date(2026, 1, 2, 3, 4, 5, tc.nsec, time.UTC)
		id, err := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(fixedClock(at))).New()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(id[4:7], tc.frac) {
			t.Errorf("fraction at %d ns = %x, want %x", tc.nsec, id[4:7], tc.frac)
		}
	}
}

// TestMonotonicSameTickSteps makes 100,000 IDs in one tick of a fixed
// clock: each is its predecessor plus a random step of 1 to 2^72, the
// steps do not repeat, and almost none is small enough to guess.
func TestMonotonicSameTickSteps(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(fixedClock(at)))
	prev, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	const n = 100_000
	steps := make(map[string]bool, n)
	small := 0
	limit := big.NewInt(1 << 32)
	for range n {
		id, err := g.New()
		if err != nil {
			t.Fatal(err)
		}
		step := stepBetween(prev, id)
		if step.Sign() <= 0 || step.Cmp(maxStep) > 0 {
			t.Fatalf("step from %v to %v is %v, want 1 to 2^72", prev, id, step)
		}
		if steps[step.String()] {
			t.Fatalf("step %v repeats", step)
		}
		steps[step.String()] = true
		if step.Cmp(limit) < 0 {
			small++
		}
		if !id.Time().Equal(at) {
			t.Fatalf("%v dated %v, want %v", id, id.Time(), at)
		}
		prev = id
	}
	if small >= n/1000 {
		t.Errorf("%d of %d steps below 2^32, want fewer than 0.1%%", small, n)
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
	// Clock back an hour, then back to t0: both go on from the first ID
	// by a step, dated by the latest second seen.
	for i := 1; i <= 2; i++ {
		if step := stepBetween(ids[i-1], ids[i]); step.Sign() <= 0 || step.Cmp(maxStep) > 0 {
			t.Errorf("after the clock stepped back: %v then %v (step %v)", ids[i-1], ids[i], step)
		}
		if !ids[i].Time().Equal(t0) {
			t.Errorf("ID made while the clock was behind is dated %v, want %v", ids[i].Time(), t0)
		}
	}
	if !ids[3].Time().Equal(t0.Add(time.Second)) || ids[3].Compare(ids[2]) <= 0 {
		t.Errorf("next second: %v at %v", ids[3], ids[3].Time())
	}
}

func TestMonotonicCarryAndOverflow(t *testing.T) {
	// The last tick of a second, and a random source of 0xFF bytes: the
	// first ID fills the tick, the next carries into the next second.
	ones := bytes.NewReader(bytes.Repeat([]byte{0xFF}, 64))
	at := time.Date(2026, 1, 2, 3, 4, 5, 999_999_999, time.UTC)
	g := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(fixedClock(at)), ksuid.WithRand(ones))
	first, err := g.New()
	if err != nil || !bytes.Equal(first[4:], repeat(0xFF, 16)) {
		t.Fatalf("first ID %x, %v; want a payload of 0xFF", first[:], err)
	}
	second, err := g.New()
	if err != nil {
		t.Fatal(err)
	}
	// first + 2^72: the 0xFF bytes above the step's 9 wrap to zero.
	wantPayload := append(make([]byte, 7), repeat(0xFF, 9)...)
	if !second.Time().Equal(at.Truncate(time.Second).Add(time.Second)) || !bytes.Equal(second[4:], wantPayload) {
		t.Errorf("after %v came %x (time %v); want a carry into the next second", first, second[:], second.Time())
	}

	last := time.Date(2150, 6, 19, 23, 21, 35, 999_999_999, time.UTC)
	g = ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(fixedClock(last)),
		ksuid.WithRand(bytes.NewReader(bytes.Repeat([]byte{0xFF}, 64))))
	max, err := g.New()
	if err != nil || max.String() != "aWgEPTl1tmebfsQzFP4bxwgy80V" {
		t.Fatalf("New() = %v, %v; want the largest KSUID", max, err)
	}
	if id, err := g.New(); !errors.Is(err, ksuid.ErrExhausted) || errors.Is(err, ksuid.ErrOverflow) || !id.IsZero() {
		t.Errorf("past the largest KSUID: %v, %v; want ErrExhausted", id, err)
	}
}

// TestMonotonicGeneratorsMergeInClockOrder runs 8 generators at once, as
// 8 writers would, whose clocks are 1 ms apart and tick in steps of 1 µs:
// all their IDs, sorted, are in the order of the clock readings.
func TestMonotonicGeneratorsMergeInClockOrder(t *testing.T) {
	const writers, each = 8, 5_000
	base := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	type made struct {
		id ksuid.KSUID
		at time.Time
	}
	results := make([][]made, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			var now time.Time
			tick := 0
			clock := func() time.Time {
				now = base.Add(time.Duration(w)*time.Millisecond + time.Duration(tick)*time.Microsecond)
				tick++
				return now
			}
			g := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(clock))
			for range each {
				id, err := g.New()
				if err != nil {
					t.Error(err)
					return
				}
				results[w] = append(results[w], made{id, now})
			}
		})
	}
	wg.Wait()
	all := slices.Concat(results...)
	if len(all) != writers*each {
		t.Fatalf("%d IDs, want %d", len(all), writers*each)
	}
	slices.SortFunc(all, func(a, b made) int { return a.id.Compare(b.id) })
	for i := 1; i < len(all); i++ {
		if all[i].id == all[i-1].id {
			t.Fatalf("duplicate %v", all[i].id)
		}
		if all[i].at.Before(all[i-1].at) {
			t.Fatalf("ID %v made at %v sorts after %v made at %v",
				all[i].id, all[i].at.Format(time.RFC3339Nano), all[i-1].id, all[i-1].at.Format(time.RFC3339Nano))
		}
	}
}
