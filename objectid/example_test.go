package objectid_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/sortid/sortid/objectid"
)

func Example() {
	id := objectid.New()
	back, err := objectid.Parse(id.String())
	fmt.Println(len(id.String()), back == id, err)
	// Output: 24 true <nil>
}

// A generator with a fixed clock, as for a backfill: it refuses, rather
// than repeat an ID, once a second's 2^24 counter values are used up.
func ExampleNewGenerator() {
	at := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	g := objectid.NewGenerator(objectid.WithClock(func() time.Time { return at }))
	a, _ := g.New()
	b, _ := g.New()
	fmt.Println(a.Time(), a.Random() == b.Random(), (b.Counter()-a.Counter())&0xFFFFFF)
	// Output: 2024-01-01 00:00:00 +0000 UTC true 1
}

func ExampleObjectID_Legacy() {
	id := objectid.MustParse("60c468e6101bf215dc9fa835")
	f := id.Legacy()
	fmt.Println(id.Time())
	fmt.Printf("machine %06x pid %04x counter %06x\n", f.Machine, f.PID, f.Counter)
	// Output:
	// 2021-06-12 07:57:26 +0000 UTC
	// machine 101bf2 pid 15dc counter 9fa835
}

// The bounds of a time window, for a filter such as
// {"_id": {"$gte": lo, "$lte": hi}}.
func ExampleMinAt() {
	day := time.Date(2021, 6, 12, 0, 0, 0, 0, time.UTC)
	lo, _ := objectid.MinAt(day)
	hi, _ := objectid.MaxAt(day.Add(24*time.Hour - time.Second))
	fmt.Println(lo)
	fmt.Println(hi)
	// Output:
	// 60c3f9000000000000000000
	// 60c54a7fffffffffffffffff
}

func ExampleObjectID_UnmarshalJSON() {
	var doc struct {
		ID objectid.ObjectID `json:"_id"`
	}
	err := json.Unmarshal([]byte(`{"_id": {"$oid": "60c468e6101bf215dc9fa835"}}`), &doc)
	fmt.Println(doc.ID, err)
	out, _ := json.Marshal(doc)
	fmt.Println(string(out))
	// Output:
	// 60c468e6101bf215dc9fa835 <nil>
	// {"_id":"60c468e6101bf215dc9fa835"}
}

// The IDs made on 2026-12-01, half-open, for the filter
// {_id: {$gte: lo, $lt: hi}}: the next day's window starts where this one
// ends, so no ID is in both. Both bounds are truncated to the second.
func ExampleWindow() {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	lo, hi, _ := objectid.Window(day, day.AddDate(0, 0, 1))
	fmt.Println(lo)
	fmt.Println(hi)
	// Output:
	// 6b0e0e000000000000000000
	// 6b0f5f800000000000000000
}
