package uuidv7_test

import (
	"fmt"
	"time"

	"github.com/sortid/sortid/uuidv7"
)

func ExampleNew() {
	a, b := uuidv7.New(), uuidv7.New()
	fmt.Println(a.Version(), a.Compare(b))
	// Output: 7 -1
}

// The bounds of a closed window of IDs, for WHERE id BETWEEN $1 AND $2
// (Window gives half-open bounds, which tile). (The
// milliseconds 0x01a22ee6b000 and 0x01a2340d0bff are 2026-12-01 and its
// last millisecond.)
func ExampleMinAt() {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	lo, _ := uuidv7.MinAt(day)
	hi, _ := uuidv7.MaxAt(day.Add(24*time.Hour - time.Millisecond))
	fmt.Println(lo)
	fmt.Println(hi)
	// Output:
	// 01a22ee6-b000-7000-8000-000000000000
	// 01a2340d-0bff-7fff-bfff-ffffffffffff
}

// An ID for a time in the past, for a backfill: it sorts among the IDs
// made at that time.
func ExampleNewAt() {
	created := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	id, _ := uuidv7.NewAt(created)
	fmt.Println(id.Time())
	// Output: 2024-03-01 12:00:00 +0000 UTC
}

// A UUID of Go 1.27's uuid package or of github.com/google/uuid is a
// [16]byte too: convert it, uuidv7.UUID(u), and back, uuid.UUID(id).
func ExampleUUID_conversion() {
	var u [16]byte = uuidv7.New() // stands in for uuid.UUID or google's uuid.UUID
	id := uuidv7.UUID(u)
	fmt.Println(id.Version())
	// Output: 7
}

func ExampleParse() {
	id, err := uuidv7.Parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
	fmt.Println(id.Time(), err)
	_, err = uuidv7.Parse("017f22e2-79b0-4cc3-98c4-dc0c0c07398f")
	fmt.Println(err)
	// Output:
	// 2022-02-22 19:22:22 +0000 UTC <nil>
	// uuidv7: parsing "017f22e2-79b0-4cc3-98c4-dc0c0c07398f": version 4, want a version 7 UUID with the RFC 9562 variant
}

// The IDs made on 2026-12-01, half-open, for WHERE id >= $1 AND id < $2:
// the next day's window starts where this one ends, so no ID is in both.
// Both bounds are truncated to the millisecond.
func ExampleWindow() {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	lo, hi, _ := uuidv7.Window(day, day.AddDate(0, 0, 1))
	fmt.Println(lo)
	fmt.Println(hi)
	// Output:
	// 01a22ee6-b000-7000-8000-000000000000
	// 01a2340d-0c00-7000-8000-000000000000
}
