package containers

import (
	"crypto/rand"
	mathrand "math/rand/v2"
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

// ksuidsOverTime returns KSUIDs with random payloads made over
// spanSeconds seconds, plus sameSecond more in one second, shuffled.
func ksuidsOverTime(t *testing.T) []ksuid.KSUID {
	t.Helper()
	var ids []ksuid.KSUID
	add := func(at time.Time) {
		payload := make([]byte, ksuid.PayloadSize)
		rand.Read(payload)
		id, err := ksuid.FromParts(at, payload)
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

// objectIDsOverTime is ksuidsOverTime for ObjectIDs.
func objectIDsOverTime(t *testing.T) []objectid.ObjectID {
	t.Helper()
	var ids []objectid.ObjectID
	add := func(at time.Time) {
		id, err := objectid.NewAt(at)
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

// window is the time window the range tests select: 100 seconds that
// include the crowded one.
var windowFrom, windowTo = base.Add(250 * time.Second), base.Add(349 * time.Second)

func inWindow(at time.Time) bool { return !at.Before(windowFrom) && !at.After(windowTo) }

// assertKSUIDOrder checks that got is want sorted by bytes, and that the
// times in it never go back.
func assertKSUIDOrder(t *testing.T, got, want []ksuid.KSUID) {
	t.Helper()
	sorted := append([]ksuid.KSUID(nil), want...)
	ksuid.Sort(sorted)
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

func assertObjectIDOrder(t *testing.T, got, want []objectid.ObjectID) {
	t.Helper()
	sorted := append([]objectid.ObjectID(nil), want...)
	objectid.Sort(sorted)
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
