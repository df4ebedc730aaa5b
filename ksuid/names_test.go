package ksuid_test

import (
	"errors"
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
	if a == b || a.Compare(ksuid.MustMinAt(at)) <= 0 || a.Compare(ksuid.MustMaxAt(at)) >= 0 {
		t.Errorf("NewAt gave %v and %v: want distinct random payloads inside the second", a, b)
	}
	if _, err := ksuid.NewAt(time.Unix(ksuid.EpochUnix-1, 0)); !errors.Is(err, ksuid.ErrTimeRange) {
		t.Errorf("NewAt before the epoch: %v, want ErrTimeRange", err)
	}
}

func TestMustMinMaxAt(t *testing.T) {
	at := time.Unix(ksuid.EpochUnix+100000000, 0)
	// Timestamp 100000000 is 0x05f5e100.
	wantMin := ksuid.KSUID{0x05, 0xf5, 0xe1, 0x00}
	wantMax := wantMin
	for i := 4; i < ksuid.Size; i++ {
		wantMax[i] = 0xFF
	}
	if ksuid.MustMinAt(at) != wantMin || ksuid.MustMaxAt(at) != wantMax {
		t.Errorf("MustMinAt, MustMaxAt = %x, %x", ksuid.MustMinAt(at), ksuid.MustMaxAt(at))
	}
	defer func() {
		if r := recover(); r == nil {
			t.Error("MustMaxAt of a time out of range did not panic")
		}
	}()
	ksuid.MustMaxAt(time.Unix(0, 0))
}
