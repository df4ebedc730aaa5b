package ksuid_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/sortid/sortid/ksuid"
)

func Example() {
	id := ksuid.New()
	back, err := ksuid.Parse(id.String())
	fmt.Println(len(id.String()), back == id, err)
	// Output: 27 true <nil>
}

func ExampleParse() {
	id, err := ksuid.Parse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	if err != nil {
		panic(err)
	}
	fmt.Println(id.Time())
	fmt.Printf("%x\n", id.Payload())
	// Output:
	// 2017-07-14 02:40:00 +0000 UTC
	// 0102030405060708090a0b0c0d0e0f10
}

func ExampleParse_errors() {
	_, err := ksuid.Parse("0qjBBlJIfbVLK-nJn4xpLGDr00e")
	fmt.Println(err)
	fmt.Println(errors.Is(err, ksuid.ErrInvalidCharacter))
	// Output:
	// ksuid: parsing "0qjBBlJIfbVLK-nJn4xpLGDr00e": invalid character '-' at offset 13
	// true
}

func ExampleFromParts() {
	at := time.Date(2017, 7, 14, 2, 40, 0, 0, time.UTC)
	payload := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	id, err := ksuid.FromParts(at, payload)
	fmt.Println(id, err)
	// Output: 0qjBBlJIfbVLKwnJn4xpLGDr00e <nil>
}

// The bounds of a time window, for a query such as
// SELECT ... WHERE id BETWEEN $1 AND $2.
func ExampleMinAt() {
	from := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	to := from.Add(24*time.Hour - time.Second)
	lo, _ := ksuid.MinAt(from)
	hi, _ := ksuid.MaxAt(to)
	fmt.Println(lo)
	fmt.Println(hi)
	// Output:
	// 3Mnqhiv0Q0UYFGD3D9qkgA030zI
	// 3MqfpNUxdljkx0pIXdFzqLnabdf
}

func ExampleNewGenerator() {
	// A generator with a fixed clock and random source, as in a test.
	// The payload starts with the fraction of the second (here 0), then
	// 13 bytes from the source.
	at := time.Date(2017, 7, 14, 2, 40, 0, 0, time.UTC)
	random := []byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13}
	g := ksuid.NewGenerator(
		ksuid.WithClock(func() time.Time { return at }),
		ksuid.WithRand(bytes.NewReader(random)),
	)
	id, err := g.New()
	fmt.Println(id, err)
	// Output: 0qjBBlHOl4uGkbI8Hmo0lZWE5nh <nil>
}

// A monotonic generator makes IDs that sort in the order they were made,
// even within one second, and that are still hard to guess.
func ExampleWithMonotonic() {
	g := ksuid.NewGenerator(ksuid.WithMonotonic())
	ids := make([]ksuid.KSUID, 1000)
	for i := range ids {
		id, err := g.New()
		if err != nil {
			panic(err)
		}
		ids[i] = id
	}
	fmt.Println(ksuid.IsSorted(ids))
	// Output: true
}

func ExampleKSUID_MarshalText() {
	row := struct {
		ID ksuid.KSUID `json:"id"`
	}{ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")}
	out, _ := json.Marshal(row)
	fmt.Println(string(out))
	// Output: {"id":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}
}

func ExampleSort() {
	ids := []ksuid.KSUID{
		ksuid.MustParse("aWgEPTl1tmebfsQzFP4bxwgy80V"),
		ksuid.MustParse("000000000000000000000000000"),
		ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e"),
	}
	ksuid.Sort(ids)
	fmt.Println(ids)
	// Output: [000000000000000000000000000 0qjBBlJIfbVLKwnJn4xpLGDr00e aWgEPTl1tmebfsQzFP4bxwgy80V]
}

// The IDs made on 2026-12-01, half-open, for WHERE id >= $1 AND id < $2:
// the next day's window starts where this one ends, so no ID is in both.
// Both bounds are truncated to the second.
func ExampleWindow() {
	day := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	lo, hi, _ := ksuid.Window(day, day.AddDate(0, 0, 1))
	fmt.Println(lo)
	fmt.Println(hi)
	// Output:
	// 3MqfpNUxdljkx0pIXdFzqLnabdg
	// 3MtUx24urWyxelRXs6fF0Xb8CI4
}
