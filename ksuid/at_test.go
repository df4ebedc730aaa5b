package ksuid_test

import (
	"errors"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/sortid/sortid/ksuid"
)

func TestNilAndMax(t *testing.T) {
	if ksuid.Nil.String() != "000000000000000000000000000" || !ksuid.Nil.IsZero() {
		t.Errorf("Nil = %v", ksuid.Nil)
	}
	if ksuid.Max.String() != "aWgEPTl1tmebfsQzFP4bxwgy80V" {
		t.Errorf("Max = %v", ksuid.Max)
	}
	if _, ok := ksuid.Max.Next(); ok {
		t.Error("Max has a next KSUID")
	}
}

func TestNewAt(t *testing.T) {
	at := time.Date(2020, 2, 2, 2, 2, 2, 500, time.UTC)
	a, err := ksuid.NewAt(at)
	if err != nil || !a.Time().Equal(at.Truncate(time.Second)) {
		t.Fatalf("NewAt(%v) = %v (%v), %v", at, a, a.Time(), err)
	}
	b, _ := ksuid.NewAt(at)
	lo, _ := ksuid.MinAt(at)
	hi, _ := ksuid.MaxAt(at)
	if a == b || a.Compare(lo) <= 0 || a.Compare(hi) >= 0 {
		t.Errorf("NewAt gave %v and %v: want distinct random payloads inside the second", a, b)
	}
	if _, err := ksuid.NewAt(time.Unix(ksuid.EpochUnix-1, 0)); !errors.Is(err, ksuid.ErrTimeRange) {
		t.Errorf("NewAt before the epoch: %v, want ErrTimeRange", err)
	}
}

func TestMinMaxAt(t *testing.T) {
	at := time.Unix(ksuid.EpochUnix+100000000, 0)
	// Timestamp 100000000 is 0x05f5e100.
	wantMin := ksuid.KSUID{0x05, 0xf5, 0xe1, 0x00}
	wantMax := wantMin
	for i := 4; i < ksuid.Size; i++ {
		wantMax[i] = 0xFF
	}
	lo, errLo := ksuid.MinAt(at)
	hi, errHi := ksuid.MaxAt(at)
	if lo != wantMin || hi != wantMax || errLo != nil || errHi != nil {
		t.Errorf("MinAt, MaxAt = %x (%v), %x (%v); want %x, %x", lo, errLo, hi, errHi, wantMin, wantMax)
	}
	if id, err := ksuid.MaxAt(time.Unix(0, 0)); !errors.Is(err, ksuid.ErrTimeRange) || !id.IsZero() {
		t.Errorf("MaxAt(1970) = %v, %v; want the zero KSUID and ErrTimeRange", id, err)
	}
}

// A backfill: IDs made by NewAt from times in random order sort as the
// times do, to the tick of 2^-24 s (the times here are 1 µs apart).
func TestNewAtOrdersBySubsecond(t *testing.T) {
	base := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	const n = 10000
	times := make([]time.Time, n)
	for i := range times {
		times[i] = base.Add(time.Duration(i) * time.Microsecond)
	}
	order := rand.Perm(n)
	ids := make([]ksuid.KSUID, n)
	for _, i := range order {
		id, err := ksuid.NewAt(times[i])
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id
	}
	for i := 1; i < n; i++ {
		if ids[i-1].Compare(ids[i]) >= 0 {
			t.Fatalf("NewAt(%v) = %v sorts after NewAt(%v) = %v", times[i-1], ids[i-1], times[i], ids[i])
		}
	}
	// The fraction is the time's: 0.75 s is 0xC00000 in units of 2^-24 s.
	id, _ := ksuid.NewAt(base.Add(750 * time.Millisecond))
	if p := id.Payload(); p[0] != 0xC0 || p[1] != 0 || p[2] != 0 {
		t.Errorf("NewAt at .75 s: payload starts %x, want c00000", p[:3])
	}
}

// IDs from New carry the clock's fraction of the second: made one after
// another, their first 7 bytes never go down, and they fall between the
// clock readings taken around them.
func TestNewOrdersBySubsecond(t *testing.T) {
	tick := func(id ksuid.KSUID) uint64 {
		return uint64(id[0])<<48 | uint64(id[1])<<40 | uint64(id[2])<<32 | uint64(id[3])<<24 |
			uint64(id[4])<<16 | uint64(id[5])<<8 | uint64(id[6])
	}
	tickOf := func(tm time.Time) uint64 {
		return uint64(tm.Unix()-ksuid.EpochUnix)<<24 | uint64(tm.Nanosecond())<<24/1e9
	}
	before := time.Now()
	prev := ksuid.New()
	for range 10000 {
		id := ksuid.New()
		if tick(id) < tick(prev) {
			t.Fatalf("New() = %v after %v: its time went back", id, prev)
		}
		prev = id
	}
	after := time.Now()
	if got := tick(prev); got < tickOf(before) || got > tickOf(after) {
		t.Errorf("the last ID's tick %x is outside the clock readings %x to %x", got, tickOf(before), tickOf(after))
	}
}
