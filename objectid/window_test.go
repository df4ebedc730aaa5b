package objectid

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// Adjacent windows [a, b) and [b, c) hold every ID of a's unit through
// the one before c's exactly once; b falls mid-unit.
func TestWindowTiles(t *testing.T) {
	const unit = time.Second
	a := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	b := a.Add(3*unit + unit/2)
	c := b.Add(2 * unit)
	lo1, hi1, err := Window(a, b)
	if err != nil {
		t.Fatal(err)
	}
	lo2, hi2, err := Window(b, c)
	if err != nil {
		t.Fatal(err)
	}
	if hi1 != lo2 {
		t.Fatalf("the first window ends at %v, the second starts at %v", hi1, lo2)
	}
	in := func(id, lo, hi ObjectID) bool {
		return bytes.Compare(id[:], lo[:]) >= 0 && bytes.Compare(id[:], hi[:]) < 0
	}
	startB, startC := b.Truncate(unit), c.Truncate(unit)
	for at := a.Add(-2 * unit); at.Before(c.Add(2 * unit)); at = at.Add(unit / 4) {
		made, err := NewAt(at)
		if err != nil {
			t.Fatal(err)
		}
		least, _ := MinAt(at)
		most, _ := MaxAt(at)
		unitOf := at.Truncate(unit)
		want1 := !unitOf.Before(a) && unitOf.Before(startB)
		want2 := !unitOf.Before(startB) && unitOf.Before(startC)
		for _, id := range []ObjectID{made, least, most} {
			if in(id, lo1, hi1) != want1 || in(id, lo2, hi2) != want2 {
				t.Errorf("%v (made at %v): in [a, b) %v, in [b, c) %v; want %v, %v",
					id, at.Format(time.RFC3339Nano), in(id, lo1, hi1), in(id, lo2, hi2), want1, want2)
			}
		}
	}
	// Why half-open: with BETWEEN MinAt and MaxAt, an ID of b's unit is
	// in both windows.
	atB, _ := NewAt(b)
	maxB, _ := MaxAt(b)
	maxC, _ := MaxAt(c)
	between := func(id, lo, hi ObjectID) bool {
		return bytes.Compare(id[:], lo[:]) >= 0 && bytes.Compare(id[:], hi[:]) <= 0
	}
	if !between(atB, lo1, maxB) || !between(atB, lo2, maxC) {
		t.Errorf("%v is not in both closed windows; the doc's reason for Window is wrong", atB)
	}
}

func TestWindowErrors(t *testing.T) {
	a := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	lo, hi, err := Window(a, a.Add(time.Second/2))
	if err != nil || lo != hi {
		t.Errorf("a window inside one unit: %v, %v, %v; want empty (lo == hi)", lo, hi, err)
	}
	_, _, err = Window(a, a.Add(-time.Nanosecond))
	if !errors.Is(err, ErrTimeRange) || !strings.Contains(err.Error(), "before since") || !strings.HasPrefix(err.Error(), "objectid: ") {
		t.Errorf("until before since: %v, want an error wrapping ErrTimeRange", err)
	}
	_, _, err = Window(time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC), a)
	if !errors.Is(err, ErrTimeRange) {
		t.Errorf("since out of range: %v, want ErrTimeRange", err)
	}
}
