package objectid_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sortid/sortid/objectid"
)

// The legacy example comes from a real database; its fields are read off
// the hex by hand.
func TestLegacyExample(t *testing.T) {
	id, err := objectid.Parse("60c468e6101bf215dc9fa835")
	if err != nil {
		t.Fatal(err)
	}
	if id.Timestamp() != 1623484646 {
		t.Errorf("Timestamp() = %d, want 1623484646", id.Timestamp())
	}
	if got := id.Time(); got.Format(time.RFC3339) != "2021-06-12T07:57:26Z" || got.Location() != time.UTC {
		t.Errorf("Time() = %v, want 2021-06-12T07:57:26Z in UTC", got)
	}
	want := objectid.LegacyFields{Machine: 0x101bf2, PID: 0x15dc, Counter: 0x9fa835}
	if got := id.Legacy(); got != want {
		t.Errorf("Legacy() = %+v, want %+v", got, want)
	}
	if got := id.Random(); got != [5]byte{0x10, 0x1b, 0xf2, 0x15, 0xdc} {
		t.Errorf("Random() = %x", got)
	}
	if id.Counter() != 0x9fa835 {
		t.Errorf("Counter() = %x", id.Counter())
	}
}

func TestTextForms(t *testing.T) {
	for _, tc := range []struct{ in, out string }{
		{"60c468e6101bf215dc9fa835", "60c468e6101bf215dc9fa835"},
		{"60C468E6101BF215DC9FA835", "60c468e6101bf215dc9fa835"},
		{"000000000000000000000000", "000000000000000000000000"},
		{"ffffffffffffffffffffffff", "ffffffffffffffffffffffff"},
	} {
		id, err := objectid.Parse(tc.in)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.in, err)
		}
		raw, _ := hex.DecodeString(tc.in)
		if !bytes.Equal(id[:], raw) {
			t.Errorf("Parse(%q) = %x", tc.in, id[:])
		}
		if id.String() != tc.out {
			t.Errorf("String() = %q, want %q", id.String(), tc.out)
		}
		text, _ := id.MarshalText()
		app, _ := id.AppendText([]byte("x"))
		if string(text) != tc.out || string(app) != "x"+tc.out {
			t.Errorf("MarshalText = %q, AppendText = %q", text, app)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		err      error
		offset   int
		msg      string
	}{
		{"empty", "", objectid.ErrInvalidLength, -1, `objectid: parsing "": invalid length 0, want 24`},
		{"23", "60c468e6101bf215dc9fa83", objectid.ErrInvalidLength, -1, `objectid: parsing "60c468e6101bf215dc9fa83": invalid length 23, want 24`},
		{"odd 25", "60c468e6101bf215dc9fa8350", objectid.ErrInvalidLength, -1, `objectid: parsing "60c468e6101bf215dc9fa8350": invalid length 25, want 24`},
		{"non-hex g", "60c468e6101bf215dc9fa83g", objectid.ErrInvalidCharacter, 23, `objectid: parsing "60c468e6101bf215dc9fa83g": invalid character 'g' at offset 23`},
		{"non-hex high nibble", "z0c468e6101bf215dc9fa835", objectid.ErrInvalidCharacter, 0, `objectid: parsing "z0c468e6101bf215dc9fa835": invalid character 'z' at offset 0`},
		{"dash", "60c468e6-01bf215dc9fa835", objectid.ErrInvalidCharacter, 8, `objectid: parsing "60c468e6-01bf215dc9fa835": invalid character '-' at offset 8`},
		{"space", "60c468e6101bf215dc9fa83 ", objectid.ErrInvalidCharacter, 23, `objectid: parsing "60c468e6101bf215dc9fa83 ": invalid character ' ' at offset 23`},
		{"non-ASCII", "60c468e6101bf215dc9faé5", objectid.ErrInvalidCharacter, 21, `objectid: parsing "60c468e6101bf215dc9faé5": invalid character 'é' at offset 21`},
		{"0x prefix", "0x60c468e6101bf215dc9fa8", objectid.ErrInvalidCharacter, 1, `objectid: parsing "0x60c468e6101bf215dc9fa8": invalid character 'x' at offset 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id, err := objectid.Parse(tt.in)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Parse(%q) = %v, %v; want %v", tt.in, id, err, tt.err)
			}
			var pe *objectid.ParseError
			if !errors.As(err, &pe) || pe.Input != tt.in || pe.Offset != tt.offset {
				t.Errorf("error %#v, want Input %q Offset %d", err, tt.in, tt.offset)
			}
			if err.Error() != tt.msg {
				t.Errorf("message\n got %s\nwant %s", err, tt.msg)
			}
			dst := objectid.MustParse("60c468e6101bf215dc9fa835")
			if err := dst.UnmarshalText([]byte(tt.in)); !errors.Is(err, tt.err) || dst.String() != "60c468e6101bf215dc9fa835" {
				t.Errorf("UnmarshalText: %v, receiver now %v", err, dst)
			}
		})
	}
}

func TestFromBytes(t *testing.T) {
	raw := []byte{0x60, 0xc4, 0x68, 0xe6, 0x10, 0x1b, 0xf2, 0x15, 0xdc, 0x9f, 0xa8, 0x35}
	id, err := objectid.FromBytes(raw)
	if err != nil || id.String() != "60c468e6101bf215dc9fa835" {
		t.Errorf("FromBytes = %v, %v", id, err)
	}
	bin, _ := id.MarshalBinary()
	app, _ := id.AppendBinary([]byte{1})
	if !bytes.Equal(bin, raw) || !bytes.Equal(app, append([]byte{1}, raw...)) || !bytes.Equal(id.Bytes(), raw) {
		t.Errorf("MarshalBinary = %x, AppendBinary = %x", bin, app)
	}
	for _, n := range []int{0, 11, 13, 24} {
		if _, err := objectid.FromBytes(make([]byte, n)); !errors.Is(err, objectid.ErrInvalidLength) {
			t.Errorf("FromBytes(%d bytes) error = %v", n, err)
		}
		if err := id.UnmarshalBinary(make([]byte, n)); !errors.Is(err, objectid.ErrInvalidLength) || id.String() != "60c468e6101bf215dc9fa835" {
			t.Errorf("UnmarshalBinary(%d bytes): %v, receiver now %v", n, err, id)
		}
	}
	_, err = objectid.FromBytes(make([]byte, 11))
	if err.Error() != "objectid: invalid ObjectID length: 11 bytes 0x0000000000000000000000, want 12 bytes" {
		t.Errorf("message %q", err)
	}
}

func TestTimeRange(t *testing.T) {
	for _, tc := range []struct {
		t  time.Time
		ok bool
	}{
		{time.Unix(0, 0), true},
		{time.Unix(-1, 0), false},
		{time.Unix(0, -1), false},
		{time.Date(2106, 2, 7, 6, 28, 15, 0, time.UTC), true},
		{time.Date(2106, 2, 7, 6, 28, 16, 0, time.UTC), false},
	} {
		for name, f := range map[string]func(time.Time) (objectid.ObjectID, error){
			"MinAt": objectid.MinAt, "MaxAt": objectid.MaxAt, "NewAt": objectid.NewAt,
		} {
			id, err := f(tc.t)
			if tc.ok && (err != nil || !id.Time().Equal(tc.t)) {
				t.Errorf("%s(%v) = %v (time %v), %v", name, tc.t, id, id.Time(), err)
			}
			if !tc.ok && !errors.Is(err, objectid.ErrTimeRange) {
				t.Errorf("%s(%v) error = %v, want ErrTimeRange", name, tc.t, err)
			}
		}
	}
	_, err := objectid.NewAt(time.Date(2106, 2, 7, 6, 28, 16, 0, time.UTC))
	if want := "objectid: time 2106-02-07T06:28:16Z outside 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z"; err == nil || err.Error() != want {
		t.Errorf("message %v, want %s", err, want)
	}
}

func TestTimeWindow(t *testing.T) {
	at := time.Date(2026, 11, 30, 12, 0, 0, 700_000_000, time.UTC)
	lo, _ := objectid.MinAt(at)
	hi, _ := objectid.MaxAt(at)
	// 2026-11-30T12:00:00Z is Unix 1796040000, hex 6b0d6540.
	if lo.String() != "6b0d65400000000000000000" {
		t.Errorf("MinAt = %v", lo)
	}
	if hi.String() != "6b0d6540ffffffffffffffff" {
		t.Errorf("MaxAt = %v", hi)
	}
	for range 100 {
		id, _ := objectid.NewAt(at)
		if id.Compare(lo) < 0 || id.Compare(hi) > 0 {
			t.Fatalf("%v outside [%v, %v]", id, lo, hi)
		}
	}
	next, _ := objectid.MinAt(at.Add(time.Second))
	after, _ := hi.Next()
	before, _ := next.Prev()
	if after != next || before != hi {
		t.Errorf("MaxAt(t).Next() = %v, MinAt(t+1s).Prev() = %v; want %v, %v", after, before, next, hi)
	}
}

// TestNextPrev checks the 96-bit successor and predecessor, and that
// neither wraps around at the ends of the range.
func TestNextPrev(t *testing.T) {
	max := objectid.MustParse("ffffffffffffffffffffffff")
	if got, ok := max.Next(); ok || got != max {
		t.Errorf("max.Next() = %v, %v; want max, false", got, ok)
	}
	if got, ok := (objectid.ObjectID{}).Prev(); ok || !got.IsZero() {
		t.Errorf("zero.Prev() = %v, %v; want zero, false", got, ok)
	}
	id := objectid.MustParse("60c468e6101bf215dcffffff")
	next, ok := id.Next()
	if !ok || next.String() != "60c468e6101bf215dd000000" {
		t.Errorf("carry: %v, %v", next, ok)
	}
	if prev, ok := next.Prev(); !ok || prev != id {
		t.Errorf("borrow: %v, %v", prev, ok)
	}
	if prev, ok := max.Prev(); !ok || prev.String() != "fffffffffffffffffffffffe" {
		t.Errorf("max.Prev() = %v, %v", prev, ok)
	}
}

func TestNewLayout(t *testing.T) {
	before := time.Now().Truncate(time.Second)
	a, b := objectid.New(), objectid.New()
	after := time.Now()
	for _, id := range []objectid.ObjectID{a, b} {
		if id.Time().Before(before) || id.Time().After(after) {
			t.Errorf("New() time %v outside [%v, %v]", id.Time(), before, after)
		}
	}
	if a.Random() != b.Random() {
		t.Errorf("random value changed within a process: %x, %x", a.Random(), b.Random())
	}
	if b.Counter() != (a.Counter()+1)&0xFFFFFF {
		t.Errorf("counter %x then %x, want consecutive", a.Counter(), b.Counter())
	}
}

// TestConcurrentUnique makes IDs from 8 goroutines at once: none repeats.
func TestConcurrentUnique(t *testing.T) {
	const workers, each = 8, 50_000
	results := make([][]objectid.ObjectID, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			ids := make([]objectid.ObjectID, each)
			for i := range ids {
				ids[i] = objectid.New()
			}
			results[w] = ids
		})
	}
	wg.Wait()
	seen := make(map[objectid.ObjectID]struct{}, workers*each)
	for _, ids := range results {
		for _, id := range ids {
			if _, dup := seen[id]; dup {
				t.Fatalf("duplicate %v", id)
			}
			seen[id] = struct{}{}
		}
	}
	if len(seen) != workers*each {
		t.Fatalf("%d IDs, want %d", len(seen), workers*each)
	}
}

func TestOrderAndSort(t *testing.T) {
	var ids []objectid.ObjectID
	for i := range 3000 {
		id, _ := objectid.NewAt(time.Unix(int64(1_700_000_000+(i*7919)%1000), 0))
		ids = append(ids, id)
	}
	objectid.Sort(ids)
	if !objectid.IsSorted(ids) {
		t.Fatal("not sorted")
	}
	for i := 1; i < len(ids); i++ {
		if ids[i-1].Time().After(ids[i].Time()) {
			t.Fatalf("time order broken at %d", i)
		}
		if strings.Compare(ids[i-1].String(), ids[i].String()) != ids[i-1].Compare(ids[i]) {
			t.Fatalf("text order disagrees at %d", i)
		}
	}
}

func TestJSON(t *testing.T) {
	type doc struct {
		ID   objectid.ObjectID  `json:"id"`
		Ptr  *objectid.ObjectID `json:"ptr"`
		Keep objectid.ObjectID  `json:"keep"`
	}
	id := objectid.MustParse("60c468e6101bf215dc9fa835")
	out, err := json.Marshal(doc{ID: id})
	want := `{"id":"60c468e6101bf215dc9fa835","ptr":null,"keep":"000000000000000000000000"}`
	if err != nil || string(out) != want {
		t.Errorf("json.Marshal = %s, %v; want %s", out, err, want)
	}
	for _, in := range []string{
		`{"id":"60c468e6101bf215dc9fa835","ptr":{"$oid":"60C468E6101BF215DC9FA835"},"keep":null}`,
		`{"id":{"$oid":"60c468e6101bf215dc9fa835"},"ptr":"60c468e6101bf215dc9fa835","keep":null}`,
		`{"id": { "$oid" : "60c468e6101bf215dc9fa835" } ,"ptr":"60c468e6101bf215dc9fa835","keep":null}`,
	} {
		got := doc{Keep: id}
		if err := json.Unmarshal([]byte(in), &got); err != nil {
			t.Fatalf("json.Unmarshal(%s): %v", in, err)
		}
		if got.ID != id || got.Ptr == nil || *got.Ptr != id || got.Keep != id {
			t.Errorf("json.Unmarshal(%s) = %+v", in, got)
		}
	}
	for _, tc := range []struct {
		in   string
		want error
	}{
		{`{"$id":"60c468e6101bf215dc9fa835"}`, objectid.ErrInvalidJSON},
		{`{"$OID":"60c468e6101bf215dc9fa835"}`, objectid.ErrInvalidJSON},
		{`{"$oid":"60c468e6101bf215dc9fa835","x":1}`, objectid.ErrInvalidJSON},
		{`{"$oid":1}`, objectid.ErrInvalidJSON},
		{`{}`, objectid.ErrInvalidJSON},
		{`12`, objectid.ErrInvalidJSON},
		{`true`, objectid.ErrInvalidJSON},
		{`["60c468e6101bf215dc9fa835"]`, objectid.ErrInvalidJSON},
		{`{"$oid":"60c468e6101bf215dc9fa83"}`, objectid.ErrInvalidLength},
		{`"60c468e6101bf215dc9fa83x"`, objectid.ErrInvalidCharacter},
		{`""`, objectid.ErrInvalidLength},
	} {
		got := id
		err := got.UnmarshalJSON([]byte(tc.in))
		if !errors.Is(err, tc.want) {
			t.Errorf("UnmarshalJSON(%s) error = %v, want %v", tc.in, err, tc.want)
		}
		if got != id {
			t.Errorf("UnmarshalJSON(%s) changed the receiver to %v", tc.in, got)
		}
	}
	err = (&objectid.ObjectID{}).UnmarshalJSON([]byte(`{"$id":"60c468e6101bf215dc9fa835"}`))
	if want := `objectid: cannot unmarshal JSON "{\"$id\":\"60c468e6101bf215dc9fa835\"}" into ObjectID: want a string of 24 hex digits, {"$oid": "<24 hex digits>"} or null`; err.Error() != want {
		t.Errorf("message\n got %s\nwant %s", err, want)
	}
}
