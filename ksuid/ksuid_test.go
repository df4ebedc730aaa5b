package ksuid_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/sortid/sortid/ksuid"
)

func seq(from byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = from + byte(i)
	}
	return b
}

func repeat(v byte, n int) []byte { return bytes.Repeat([]byte{v}, n) }

// The vectors are written down by hand from the KSUID format, not computed
// by this package.
var vectors = []struct {
	name string
	raw  []byte // all 20 bytes
	text string
	unix int64
}{
	{"example", append([]byte{0x05, 0xF5, 0xE1, 0x00}, seq(1, 16)...), "0qjBBlJIfbVLKwnJn4xpLGDr00e", 1500000000},
	{"zero", make([]byte, 20), "000000000000000000000000000", 1400000000},
	{"max", repeat(0xFF, 20), "aWgEPTl1tmebfsQzFP4bxwgy80V", 1400000000 + 1<<32 - 1},
	{"one", append(make([]byte, 19), 1), "000000000000000000000000001", 1400000000},
	{"sixty-two", append(make([]byte, 19), 62), "000000000000000000000000010", 1400000000},
}

func TestVectors(t *testing.T) {
	for _, v := range vectors {
		t.Run(v.name, func(t *testing.T) {
			id, err := ksuid.FromBytes(v.raw)
			if err != nil {
				t.Fatalf("FromBytes: %v", err)
			}
			if got := id.String(); got != v.text {
				t.Errorf("String() = %q, want %q", got, v.text)
			}
			parsed, err := ksuid.Parse(v.text)
			if err != nil {
				t.Fatalf("Parse(%q): %v", v.text, err)
			}
			if parsed != id {
				t.Errorf("Parse(%q) = %x, want %x", v.text, parsed[:], v.raw)
			}
			if got, want := id.Time(), time.Unix(v.unix, 0).UTC(); !got.Equal(want) || got.Location() != time.UTC {
				t.Errorf("Time() = %v, want %v in UTC", got, want)
			}
			if got, want := int64(id.Timestamp()), v.unix-1400000000; got != want {
				t.Errorf("Timestamp() = %d, want %d", got, want)
			}
			if got := id.Payload(); !bytes.Equal(got[:], v.raw[4:]) {
				t.Errorf("Payload() = %x, want %x", got, v.raw[4:])
			}
			if got := id.Bytes(); !bytes.Equal(got, v.raw) {
				t.Errorf("Bytes() = %x, want %x", got, v.raw)
			}
			built, err := ksuid.FromParts(time.Unix(v.unix, 999_999_999), v.raw[4:])
			if err != nil || built != id {
				t.Errorf("FromParts = %v, %v; want %v", built, err, id)
			}
			if got := id.IsZero(); got != (v.name == "zero") {
				t.Errorf("IsZero() = %v", got)
			}
		})
	}
}

func TestExampleVectorTime(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	if got := id.Time().Format(time.RFC3339); got != "2017-07-14T02:40:00Z" {
		t.Errorf("Time() = %s, want 2017-07-14T02:40:00Z", got)
	}
	if got := id.Timestamp(); got != 100000000 {
		t.Errorf("Timestamp() = %d, want 100000000", got)
	}
}

func TestParseErrors(t *testing.T) {
	valid := "0qjBBlJIfbVLKwnJn4xpLGDr00e"
	tests := []struct {
		name   string
		in     string
		err    error
		offset int
		msg    string
	}{
		{"empty", "", ksuid.ErrInvalidLength, -1, `ksuid: parsing "": invalid length 0, want 27`},
		{"26 chars", valid[:26], ksuid.ErrInvalidLength, -1, `ksuid: parsing "0qjBBlJIfbVLKwnJn4xpLGDr00": invalid length 26, want 27`},
		{"28 chars", valid + "0", ksuid.ErrInvalidLength, -1, `ksuid: parsing "0qjBBlJIfbVLKwnJn4xpLGDr00e0": invalid length 28, want 27`},
		{"dash", "0qjBBlJIfbVLK-nJn4xpLGDr00e", ksuid.ErrInvalidCharacter, 13, `ksuid: parsing "0qjBBlJIfbVLK-nJn4xpLGDr00e": invalid character '-' at offset 13`},
		{"bang first", "!qjBBlJIfbVLKwnJn4xpLGDr00e", ksuid.ErrInvalidCharacter, 0, `ksuid: parsing "!qjBBlJIfbVLKwnJn4xpLGDr00e": invalid character '!' at offset 0`},
		{"space last", "0qjBBlJIfbVLKwnJn4xpLGDr00 ", ksuid.ErrInvalidCharacter, 26, `ksuid: parsing "0qjBBlJIfbVLKwnJn4xpLGDr00 ": invalid character ' ' at offset 26`},
		{"leading space", " qjBBlJIfbVLKwnJn4xpLGDr00e", ksuid.ErrInvalidCharacter, 0, `ksuid: parsing " qjBBlJIfbVLKwnJn4xpLGDr00e": invalid character ' ' at offset 0`},
		{"non-ASCII", "0qjBBlJIfbVLKwnJn4xpLGDr0é", ksuid.ErrInvalidCharacter, 25, `ksuid: parsing "0qjBBlJIfbVLKwnJn4xpLGDr0é": invalid character 'é' at offset 25`},
		{"invalid UTF-8", "0qjBBlJIfbVLKwnJn4xpLGDr0\xff0", ksuid.ErrInvalidCharacter, 25, `ksuid: parsing "0qjBBlJIfbVLKwnJn4xpLGDr0\xff0": invalid character byte 0xff at offset 25`},
		{"NUL", "0qjBBlJIfbVLKwnJn4xpLGDr00\x00", ksuid.ErrInvalidCharacter, 26, `ksuid: parsing "0qjBBlJIfbVLKwnJn4xpLGDr00\x00": invalid character '\x00' at offset 26`},
		{"one above max", "aWgEPTl1tmebfsQzFP4bxwgy80W", ksuid.ErrOverflow, -1, `ksuid: parsing "aWgEPTl1tmebfsQzFP4bxwgy80W": value above the largest KSUID aWgEPTl1tmebfsQzFP4bxwgy80V`},
		{"all z", strings.Repeat("z", 27), ksuid.ErrOverflow, -1, `ksuid: parsing "zzzzzzzzzzzzzzzzzzzzzzzzzzz": value above the largest KSUID aWgEPTl1tmebfsQzFP4bxwgy80V`},
		{"first digit b", "b00000000000000000000000000", ksuid.ErrOverflow, -1, `ksuid: parsing "b00000000000000000000000000": value above the largest KSUID aWgEPTl1tmebfsQzFP4bxwgy80V`},
		{"long input quoted short", strings.Repeat("x", 100), ksuid.ErrInvalidLength, -1, `ksuid: parsing "` + strings.Repeat("x", 64) + `"...: invalid length 100, want 27`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := ksuid.Parse(tt.in)
			if err == nil {
				t.Fatalf("Parse(%q) = %v, want error", tt.in, id)
			}
			if !errors.Is(err, tt.err) {
				t.Errorf("Parse(%q) error %v does not wrap %v", tt.in, err, tt.err)
			}
			var pe *ksuid.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) error %T is not a *ParseError", tt.in, err)
			}
			if pe.Input != tt.in || pe.Offset != tt.offset {
				t.Errorf("ParseError{Input: %q, Offset: %d}, want {%q, %d}", pe.Input, pe.Offset, tt.in, tt.offset)
			}
			if err.Error() != tt.msg {
				t.Errorf("message\n got %s\nwant %s", err.Error(), tt.msg)
			}
			if !id.IsZero() {
				t.Errorf("Parse returned %v with its error, want the zero KSUID", id)
			}
			var dst ksuid.KSUID = ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
			before := dst
			if err := dst.UnmarshalText([]byte(tt.in)); !errors.Is(err, tt.err) {
				t.Errorf("UnmarshalText error = %v, want %v", err, tt.err)
			}
			if dst != before {
				t.Errorf("UnmarshalText changed its receiver on error")
			}
		})
	}
}

func TestMaxTextIsLargest(t *testing.T) {
	max := ksuid.MustParse("aWgEPTl1tmebfsQzFP4bxwgy80V")
	if !bytes.Equal(max[:], repeat(0xFF, 20)) {
		t.Fatalf("max parses to %x", max[:])
	}
	if prev, ok := max.Prev(); !ok || prev.String() != "aWgEPTl1tmebfsQzFP4bxwgy80U" {
		t.Errorf("max.Prev() = %s, %v; want aWgEPTl1tmebfsQzFP4bxwgy80U, true", prev, ok)
	}
}

func TestFromBytesLength(t *testing.T) {
	for _, n := range []int{0, 1, 12, 19, 21, 27} {
		_, err := ksuid.FromBytes(make([]byte, n))
		if !errors.Is(err, ksuid.ErrInvalidLength) {
			t.Errorf("FromBytes(%d bytes) error = %v, want ErrInvalidLength", n, err)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "ksuid: ") {
			t.Errorf("message %q lacks the ksuid: prefix", err)
		}
		var id ksuid.KSUID
		if err := id.UnmarshalBinary(make([]byte, n)); !errors.Is(err, ksuid.ErrInvalidLength) {
			t.Errorf("UnmarshalBinary(%d bytes) error = %v, want ErrInvalidLength", n, err)
		}
	}
	if _, err := ksuid.FromBytes(make([]byte, 19)); err.Error() != "ksuid: invalid KSUID length: 19 bytes 0x"+strings.Repeat("00", 19)+", want 20 bytes" {
		t.Errorf("message = %q", err)
	}
}

func TestFromPartsTimeRange(t *testing.T) {
	payload := seq(1, 16)
	epoch := time.Date(2014, 5, 13, 16, 53, 20, 0, time.UTC)
	last := time.Date(2150, 6, 19, 23, 21, 35, 0, time.UTC)
	tests := []struct {
		t    time.Time
		ok   bool
		ts   uint32
		name string
	}{
		{epoch, true, 0, "epoch"},
		{epoch.Add(-time.Nanosecond), false, 0, "just before epoch"},
		{epoch.Add(-time.Second), false, 0, "second before epoch"},
		{time.Unix(0, 0), false, 0, "unix zero"},
		{last, true, 1<<32 - 1, "last second"},
		{last.Add(999 * time.Millisecond), true, 1<<32 - 1, "inside last second"},
		{last.Add(time.Second), false, 0, "after last second"},
		{time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), false, 0, "far future"},
		{epoch.Add(1500 * time.Millisecond), true, 1, "fraction dropped"},
	}
	for _, tt := range tests {
		id, err := ksuid.FromParts(tt.t, payload)
		if !tt.ok {
			if !errors.Is(err, ksuid.ErrTimeRange) {
				t.Errorf("%s: FromParts error = %v, want ErrTimeRange", tt.name, err)
			}
			for _, f := range []func(time.Time) (ksuid.KSUID, error){ksuid.MinAt, ksuid.MaxAt} {
				if _, err := f(tt.t); !errors.Is(err, ksuid.ErrTimeRange) {
					t.Errorf("%s: window bound error = %v, want ErrTimeRange", tt.name, err)
				}
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: FromParts: %v", tt.name, err)
			continue
		}
		if id.Timestamp() != tt.ts {
			t.Errorf("%s: Timestamp() = %d, want %d", tt.name, id.Timestamp(), tt.ts)
		}
	}
	_, err := ksuid.FromParts(last.Add(time.Second), payload)
	want := "ksuid: time 2150-06-19T23:21:36Z outside 2014-05-13T16:53:20Z to 2150-06-19T23:21:35Z"
	if err == nil || err.Error() != want {
		t.Errorf("message = %v, want %s", err, want)
	}
	for _, n := range []int{0, 15, 17} {
		if _, err := ksuid.FromParts(epoch, make([]byte, n)); !errors.Is(err, ksuid.ErrInvalidLength) {
			t.Errorf("FromParts with %d-byte payload: error = %v, want ErrInvalidLength", n, err)
		}
	}
}

func TestTimeWindow(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 500_000_000, time.UTC)
	lo, err := ksuid.MinAt(at)
	if err != nil {
		t.Fatal(err)
	}
	hi, err := ksuid.MaxAt(at)
	if err != nil {
		t.Fatal(err)
	}
	loP, hiP := lo.Payload(), hi.Payload()
	if !bytes.Equal(loP[:], make([]byte, 16)) || !bytes.Equal(hiP[:], repeat(0xFF, 16)) {
		t.Errorf("payloads: MinAt %x, MaxAt %x", lo.Payload(), hi.Payload())
	}
	second := at.Truncate(time.Second)
	if !lo.Time().Equal(second) || !hi.Time().Equal(second) {
		t.Errorf("times: MinAt %v, MaxAt %v, want %v", lo.Time(), hi.Time(), second)
	}
	// Every ID of that second lies inside, and the neighbours of the
	// window belong to the seconds around it.
	for range 1000 {
		id, err := ksuid.FromParts(at, randomPayload(t))
		if err != nil {
			t.Fatal(err)
		}
		if id.Compare(lo) < 0 || id.Compare(hi) > 0 {
			t.Fatalf("%v outside [%v, %v]", id, lo, hi)
		}
	}
	if before, _ := lo.Prev(); !before.Time().Equal(second.Add(-time.Second)) {
		t.Errorf("MinAt(t).Prev() is at %v", before.Time())
	}
	nextLo, _ := ksuid.MinAt(at.Add(time.Second))
	if after, _ := hi.Next(); after != nextLo {
		t.Errorf("MaxAt(t).Next() = %v, want MinAt(t+1s) = %v", after, nextLo)
	}
}

func randomPayload(t testing.TB) []byte {
	p := make([]byte, 16)
	if _, err := rand.Read(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestNextPrev checks the 160-bit successor and predecessor, and that
// neither wraps around at the ends of the range.
func TestNextPrev(t *testing.T) {
	var zero ksuid.KSUID
	max := ksuid.MustParse("aWgEPTl1tmebfsQzFP4bxwgy80V")
	if got, ok := max.Next(); ok || got != max {
		t.Errorf("max.Next() = %v, %v; want max, false", got, ok)
	}
	if got, ok := zero.Prev(); ok || !got.IsZero() {
		t.Errorf("zero.Prev() = %v, %v; want zero, false", got, ok)
	}
	if got, ok := zero.Next(); !ok || got.String() != "000000000000000000000000001" {
		t.Errorf("zero.Next() = %s, %v", got, ok)
	}
	carry, _ := ksuid.FromBytes(append([]byte{0, 0, 0, 1}, repeat(0xFF, 16)...))
	want, _ := ksuid.FromBytes(append([]byte{0, 0, 0, 2}, make([]byte, 16)...))
	next, ok1 := carry.Next()
	prev, ok2 := want.Prev()
	if next != want || prev != carry || !ok1 || !ok2 {
		t.Errorf("carry: %v.Next() = %v, %v; %v.Prev() = %v, %v", carry, next, ok1, want, prev, ok2)
	}
	for range 1000 {
		id := ksuid.New()
		next, _ := id.Next()
		prev, _ := id.Prev()
		if back, _ := next.Prev(); back != id {
			t.Fatalf("Next then Prev of %v gave %v", id, back)
		}
		if back, _ := prev.Next(); back != id {
			t.Fatalf("Prev then Next of %v gave %v", id, back)
		}
		if next.Compare(id) != 1 || prev.Compare(id) != -1 {
			t.Fatalf("Next/Prev out of order at %v", id)
		}
	}
}

// TestOrderAgrees checks that byte order, text order and time order agree.
func TestOrderAgrees(t *testing.T) {
	ids := make([]ksuid.KSUID, 2000)
	for i := range ids {
		var raw [20]byte
		rand.Read(raw[:])
		if i%2 == 0 { // plenty of equal timestamps as well
			copy(raw[:4], []byte{0x10, 0x20, 0x30, 0x40})
		}
		ids[i] = ksuid.KSUID(raw)
	}
	for i := 1; i < len(ids); i++ {
		a, b := ids[i-1], ids[i]
		byBytes := bytes.Compare(a[:], b[:])
		if got := a.Compare(b); got != byBytes {
			t.Fatalf("Compare(%v, %v) = %d, bytes.Compare = %d", a, b, got, byBytes)
		}
		if got := strings.Compare(a.String(), b.String()); got != byBytes {
			t.Fatalf("text order %d != byte order %d for %v, %v", got, byBytes, a, b)
		}
		if a.Time().Before(b.Time()) && byBytes != -1 {
			t.Fatalf("%v made before %v sorts after it", a, b)
		}
	}
}

// TestSort checks the wiring of Sort and IsSorted to byte order; the
// sorting itself is the standard library's.
func TestSort(t *testing.T) {
	a := ksuid.MustParse("0ujtsYcgvSTl8PAuAdqWYSMnLOv") // 0669f7ef...
	b := ksuid.MustParse("1B0000000000000000000000000")
	c := ksuid.MustParse("1a0000000000000000000000000")
	ids := []ksuid.KSUID{c, a, b, a}
	if ksuid.IsSorted(ids) {
		t.Errorf("IsSorted(%v) = true", ids)
	}
	ksuid.Sort(ids)
	if want := []ksuid.KSUID{a, a, b, c}; !slices.Equal(ids, want) || !ksuid.IsSorted(ids) {
		t.Errorf("Sort gave %v, want %v", ids, want)
	}
}

// counts summarizes a multiset of IDs independently of order.
func counts(ids []ksuid.KSUID) [20]uint64 {
	var sum [20]uint64
	for _, id := range ids {
		for i, b := range id {
			sum[i] += uint64(b) * uint64(b+1)
		}
	}
	return sum
}

func TestEncodings(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	text, err := id.MarshalText()
	if err != nil || string(text) != "0qjBBlJIfbVLKwnJn4xpLGDr00e" {
		t.Errorf("MarshalText = %q, %v", text, err)
	}
	appended, _ := id.AppendText([]byte("id="))
	if string(appended) != "id=0qjBBlJIfbVLKwnJn4xpLGDr00e" {
		t.Errorf("AppendText = %q", appended)
	}
	bin, _ := id.MarshalBinary()
	want := append([]byte{0x05, 0xF5, 0xE1, 0x00}, seq(1, 16)...)
	if !bytes.Equal(bin, want) {
		t.Errorf("MarshalBinary = %x, want %x", bin, want)
	}
	appendedBin, _ := id.AppendBinary([]byte{0xAA})
	if !bytes.Equal(appendedBin, append([]byte{0xAA}, want...)) {
		t.Errorf("AppendBinary = %x", appendedBin)
	}
	var back ksuid.KSUID
	if err := back.UnmarshalBinary(bin); err != nil || back != id {
		t.Errorf("UnmarshalBinary = %v, %v", back, err)
	}
	if err := back.UnmarshalText(text); err != nil || back != id {
		t.Errorf("UnmarshalText = %v, %v", back, err)
	}
}

func TestJSON(t *testing.T) {
	type row struct {
		ID    ksuid.KSUID  `json:"id"`
		Zero  ksuid.KSUID  `json:"zero"`
		Ptr   *ksuid.KSUID `json:"ptr"`
		Other ksuid.KSUID  `json:"other"`
	}
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	out, err := json.Marshal(row{ID: id, Other: id})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"0qjBBlJIfbVLKwnJn4xpLGDr00e","zero":"000000000000000000000000000","ptr":null,"other":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}`
	if string(out) != want {
		t.Errorf("json.Marshal =\n %s\nwant\n %s", out, want)
	}
	var back row
	back.Other = ksuid.MustParse("aWgEPTl1tmebfsQzFP4bxwgy80V")
	in := `{"id":"0qjBBlJIfbVLKwnJn4xpLGDr00e","zero":"000000000000000000000000000","ptr":"0qjBBlJIfbVLKwnJn4xpLGDr00e","other":null}`
	if err := json.Unmarshal([]byte(in), &back); err != nil {
		t.Fatal(err)
	}
	if back.ID != id || !back.Zero.IsZero() || back.Ptr == nil || *back.Ptr != id {
		t.Errorf("json.Unmarshal = %+v", back)
	}
	if back.Other.String() != "aWgEPTl1tmebfsQzFP4bxwgy80V" {
		t.Errorf("JSON null changed a KSUID to %v; it must leave it unchanged", back.Other)
	}
	for _, bad := range []string{`{"id":"0qjBBlJIfbVLKwnJn4xpLGDr00-"}`, `{"id":""}`} {
		err := json.Unmarshal([]byte(bad), &back)
		if !errors.Is(err, ksuid.ErrInvalidCharacter) && !errors.Is(err, ksuid.ErrInvalidLength) {
			t.Errorf("json.Unmarshal(%s) error = %v", bad, err)
		}
	}
	if err := json.Unmarshal([]byte(`{"id":12}`), &back); !errors.Is(err, ksuid.ErrInvalidJSON) {
		t.Errorf("json.Unmarshal of a number: error = %v, want ErrInvalidJSON", err)
	}
	// Map keys use the text form too.
	m, err := json.Marshal(map[ksuid.KSUID]int{id: 1})
	if err != nil || string(m) != `{"0qjBBlJIfbVLKwnJn4xpLGDr00e":1}` {
		t.Errorf("map key: %s, %v", m, err)
	}
}
