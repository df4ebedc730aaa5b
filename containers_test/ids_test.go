package containers

import (
	"crypto/rand"
	mathrand "math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// base is the first second of the generated IDs.
var base = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

const (
	spanSeconds  = 600 // IDs spread over ten minutes, one a second...
	sameSecond   = 400 // ...and this many more within one second
	crowdedAfter = 300 // the second that holds them
)

// idsOverTime returns IDs made by newAt over spanSeconds seconds, plus
// sameSecond more in one second, shuffled.
func idsOverTime[T any](t *testing.T, newAt func(time.Time) (T, error)) []T {
	t.Helper()
	var ids []T
	add := func(at time.Time) {
		id, err := newAt(at)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	for s := range spanSeconds {
		add(base.Add(time.Duration(s) * time.Second))
	}
	for range sameSecond {
		add(base.Add(crowdedAfter * time.Second))
	}
	mathrand.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	return ids
}

// ksuidsOverTime returns KSUIDs with random payloads; see idsOverTime.
func ksuidsOverTime(t *testing.T) []ksuid.KSUID {
	return idsOverTime(t, func(at time.Time) (ksuid.KSUID, error) {
		payload := make([]byte, ksuid.PayloadSize)
		rand.Read(payload)
		return ksuid.FromParts(at, payload)
	})
}

// objectIDsOverTime returns ObjectIDs; see idsOverTime.
func objectIDsOverTime(t *testing.T) []objectid.ObjectID {
	return idsOverTime(t, objectid.NewAt)
}

// window is the time window the range tests select: 100 seconds that
// include the crowded one.
var windowFrom, windowTo = base.Add(250 * time.Second), base.Add(349 * time.Second)

func inWindow(at time.Time) bool { return !at.Before(windowFrom) && !at.After(windowTo) }

// idsInWindow returns the IDs of ids made within the window.
func idsInWindow[T sortableID[T]](ids []T) []T {
	var inside []T
	for _, id := range ids {
		if inWindow(id.Time()) {
			inside = append(inside, id)
		}
	}
	return inside
}

// sortableID is what both ID types offer the order checks.
type sortableID[T any] interface {
	comparable
	Compare(T) int
	Time() time.Time
}

// assertOrder checks that got is want sorted by bytes, and that the
// times in it never go back.
func assertOrder[T sortableID[T]](t *testing.T, got, want []T) {
	t.Helper()
	sorted := slices.Clone(want)
	slices.SortFunc(sorted, T.Compare)
	if len(got) != len(sorted) {
		t.Fatalf("read back %d IDs, inserted %d", len(got), len(sorted))
	}
	for i := range got {
		if got[i] != sorted[i] {
			t.Fatalf("row %d: %v, want %v (byte order)", i, got[i], sorted[i])
		}
		if i > 0 && got[i].Time().Before(got[i-1].Time()) {
			t.Fatalf("row %d made at %v comes after one made at %v", i, got[i].Time(), got[i-1].Time())
		}
	}
}
