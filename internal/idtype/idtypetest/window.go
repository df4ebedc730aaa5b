// Package idtypetest holds checks the ID packages' tests share: each
// package's test calls them with its own functions, so that the three ID
// types are held to the same rules by one piece of test code.
package idtypetest

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// ID is what the checks need of an ID type.
type ID interface {
	comparable
	Bytes() []byte
	String() string
}

// Funcs are an ID package's functions of time.
type Funcs[T ID] struct {
	Unit                time.Duration // what the timestamp holds: a second, a millisecond
	Window              func(since, until time.Time) (lo, hi T, err error)
	NewAt, MinAt, MaxAt func(time.Time) (T, error)
	ErrTimeRange        error
	Pkg                 string // the prefix of the package's errors, "ksuid"
}

// WindowTiles checks that adjacent windows [a, b) and [b, c), b mid-unit,
// hold every ID of a's unit up to c's exactly once: IDs made at quarter
// units from two units before a to two after c, and the smallest and
// largest ID of each of those times. It also checks the reason the docs
// give for half-open windows: with BETWEEN MinAt and MaxAt, an ID of b's
// unit is in both.
func WindowTiles[T ID](t *testing.T, f Funcs[T]) {
	t.Helper()
	unit := f.Unit
	a := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	b := a.Add(3*unit + unit/2)
	c := b.Add(2 * unit)
	lo1, hi1, err := f.Window(a, b)
	if err != nil {
		t.Fatal(err)
	}
	lo2, hi2, err := f.Window(b, c)
	if err != nil {
		t.Fatal(err)
	}
	if hi1 != lo2 {
		t.Fatalf("the first window ends at %v, the second starts at %v", hi1, lo2)
	}
	cmp := func(x, y T) int { return bytes.Compare(x.Bytes(), y.Bytes()) }
	in := func(id, lo, hi T) bool { return cmp(id, lo) >= 0 && cmp(id, hi) < 0 }
	startB, startC := b.Truncate(unit), c.Truncate(unit)
	for at := a.Add(-2 * unit); at.Before(c.Add(2 * unit)); at = at.Add(unit / 4) {
		ids := make([]T, 0, 3)
		for _, mk := range []func(time.Time) (T, error){f.NewAt, f.MinAt, f.MaxAt} {
			id, err := mk(at)
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
		}
		unitOf := at.Truncate(unit)
		want1 := !unitOf.Before(a) && unitOf.Before(startB)
		want2 := !unitOf.Before(startB) && unitOf.Before(startC)
		for _, id := range ids {
			if in(id, lo1, hi1) != want1 || in(id, lo2, hi2) != want2 {
				t.Errorf("%v (made at %v): in [a, b) %v, in [b, c) %v; want %v, %v",
					id, at.Format(time.RFC3339Nano), in(id, lo1, hi1), in(id, lo2, hi2), want1, want2)
			}
		}
	}
	atB, _ := f.NewAt(b)
	maxB, _ := f.MaxAt(b)
	maxC, _ := f.MaxAt(c)
	between := func(id, lo, hi T) bool { return cmp(id, lo) >= 0 && cmp(id, hi) <= 0 }
	if !between(atB, lo1, maxB) || !between(atB, lo2, maxC) {
		t.Errorf("%v is not in both closed windows; the doc's reason for Window is wrong", atB)
	}
}

// WindowErrors checks Window's empty window and its errors.
func WindowErrors[T ID](t *testing.T, f Funcs[T]) {
	t.Helper()
	a := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	lo, hi, err := f.Window(a, a.Add(f.Unit/2))
	if err != nil || lo != hi {
		t.Errorf("a window inside one unit: %v, %v, %v; want empty (lo == hi)", lo, hi, err)
	}
	_, _, err = f.Window(a, a.Add(-time.Nanosecond))
	if !errors.Is(err, f.ErrTimeRange) || !strings.Contains(err.Error(), "before since") || !strings.HasPrefix(err.Error(), f.Pkg+": ") {
		t.Errorf("until before since: %v, want an error wrapping ErrTimeRange", err)
	}
	_, _, err = f.Window(time.Date(1960, 1, 1, 0, 0, 0, 0, time.UTC), a)
	if !errors.Is(err, f.ErrTimeRange) {
		t.Errorf("since out of range: %v, want ErrTimeRange", err)
	}
}
