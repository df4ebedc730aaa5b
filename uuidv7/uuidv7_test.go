package uuidv7_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/sortid/sortid/uuidv7"
)

// The example UUIDv7 of RFC 9562, appendix A.6: 2022-02-22T19:22:22Z.
const rfcExample = "017F22E2-79B0-7CC3-98C4-DC0C0C07398F"

func TestRFCExample(t *testing.T) {
	id, err := uuidv7.Parse(rfcExample)
	if err != nil {
		t.Fatal(err)
	}
	if got := id.String(); got != strings.ToLower(rfcExample) {
		t.Errorf("String = %s, want %s", got, strings.ToLower(rfcExample))
	}
	if want := time.Date(2022, 2, 22, 19, 22, 22, 0, time.UTC); !id.Time().Equal(want) || id.UnixMilli() != 0x017F22E279B0 {
		t.Errorf("Time = %v (%d ms), want %v", id.Time(), id.UnixMilli(), want)
	}
	want := []byte{0x01, 0x7F, 0x22, 0xE2, 0x79, 0xB0, 0x7C, 0xC3, 0x98, 0xC4, 0xDC, 0x0C, 0x0C, 0x07, 0x39, 0x8F}
	if !bytes.Equal(id.Bytes(), want) || id.Version() != 7 {
		t.Errorf("bytes %x, version %d", id.Bytes(), id.Version())
	}
	back, err := uuidv7.FromBytes(want)
	if err != nil || back != id {
		t.Errorf("FromBytes = %v, %v", back, err)
	}
}

func TestParseRejects(t *testing.T) {
	for _, tc := range []struct {
		in     string
		err    error
		offset int
		msg    string
	}{
		{"", uuidv7.ErrInvalidLength, -1, `uuidv7: parsing "": invalid length 0, want 36`},
		{"017f22e279b07cc398c4dc0c0c07398f", uuidv7.ErrInvalidLength, -1, `uuidv7: parsing "017f22e279b07cc398c4dc0c0c07398f": invalid length 32, want 36`},
		{"017f22e2_79b0-7cc3-98c4-dc0c0c07398f", uuidv7.ErrInvalidCharacter, 8, `uuidv7: parsing "017f22e2_79b0-7cc3-98c4-dc0c0c07398f": invalid character '_' at offset 8`},
		{"017f22e2-79b0-7cc3-98c4-dc0c0c07398g", uuidv7.ErrInvalidCharacter, 35, `uuidv7: parsing "017f22e2-79b0-7cc3-98c4-dc0c0c07398g": invalid character 'g' at offset 35`},
		{"{17f22e2-79b0-7cc3-98c4-dc0c0c07398f", uuidv7.ErrInvalidCharacter, 0, `uuidv7: parsing "{17f22e2-79b0-7cc3-98c4-dc0c0c07398f": invalid character '{' at offset 0`},
		// Version 4, the nil UUID, the max UUID, version 7 with the
		// Microsoft variant.
		{"017f22e2-79b0-4cc3-98c4-dc0c0c07398f", uuidv7.ErrVersion, -1, `uuidv7: parsing "017f22e2-79b0-4cc3-98c4-dc0c0c07398f": version 4, want a version 7 UUID with the RFC 9562 variant`},
		{"00000000-0000-0000-0000-000000000000", uuidv7.ErrVersion, -1, ""},
		{"ffffffff-ffff-ffff-ffff-ffffffffffff", uuidv7.ErrVersion, -1, ""},
		{"017f22e2-79b0-7cc3-c8c4-dc0c0c07398f", uuidv7.ErrVersion, -1, ""},
	} {
		id, err := uuidv7.Parse(tc.in)
		var pe *uuidv7.ParseError
		if !errors.Is(err, tc.err) || !errors.As(err, &pe) || pe.Offset != tc.offset || !id.IsZero() {
			t.Errorf("Parse(%q) = %v, %v; want %v at offset %d", tc.in, id, err, tc.err, tc.offset)
			continue
		}
		if tc.msg != "" && err.Error() != tc.msg {
			t.Errorf("Parse(%q) error\n got %s\nwant %s", tc.in, err, tc.msg)
		}
		keep := uuidv7.MustParse(rfcExample)
		if keep.UnmarshalText([]byte(tc.in)) == nil || keep != uuidv7.MustParse(rfcExample) {
			t.Errorf("UnmarshalText(%q) did not fail, or changed its receiver to %v", tc.in, keep)
		}
	}
	long := strings.Repeat("a", 100)
	if _, err := uuidv7.Parse(long); err == nil || !strings.Contains(err.Error(), "invalid length 100, want 36") || strings.Contains(err.Error(), long) {
		t.Errorf("a 100-character input: %v; want its whole length named and at most 64 bytes quoted", err)
	}
	if _, err := uuidv7.FromBytes(make([]byte, 15)); !errors.Is(err, uuidv7.ErrInvalidLength) || err.Error() != "uuidv7: invalid UUID length: 15 bytes 0x"+strings.Repeat("00", 15)+", want 16 bytes" {
		t.Errorf("FromBytes of 15 bytes: %v", err)
	}
	if _, err := uuidv7.FromBytes(make([]byte, 16)); !errors.Is(err, uuidv7.ErrVersion) {
		t.Errorf("FromBytes of the nil UUID: %v, want ErrVersion", err)
	}
}

func TestMinMaxAt(t *testing.T) {
	at := time.Date(2022, 2, 22, 19, 22, 22, 0, time.UTC)
	lo, err1 := uuidv7.MinAt(at)
	hi, err2 := uuidv7.MaxAt(at.Add(999 * time.Microsecond))
	if err1 != nil || err2 != nil || lo.String() != "017f22e2-79b0-7000-8000-000000000000" || hi.String() != "017f22e2-79b0-7fff-bfff-ffffffffffff" {
		t.Fatalf("MinAt, MaxAt = %v (%v), %v (%v)", lo, err1, hi, err2)
	}
	for range 100 {
		id, err := uuidv7.NewAt(at.Add(500 * time.Microsecond))
		if err != nil || id.Compare(lo) <= 0 || id.Compare(hi) >= 0 || !id.Time().Equal(at) {
			t.Fatalf("NewAt in the millisecond = %v, %v; want inside [%v, %v]", id, err, lo, hi)
		}
	}
	for _, bad := range []time.Time{time.Unix(-1, 0), time.UnixMilli(uuidv7.MaxUnixMilli + 1)} {
		if _, err := uuidv7.MinAt(bad); !errors.Is(err, uuidv7.ErrTimeRange) {
			t.Errorf("MinAt(%v) = %v, want ErrTimeRange", bad, err)
		}
		if _, err := uuidv7.NewAt(bad); !errors.Is(err, uuidv7.ErrTimeRange) {
			t.Errorf("NewAt(%v) = %v, want ErrTimeRange", bad, err)
		}
	}
}

// NewAt orders times 1 µs apart: the fraction of the millisecond is in
// rand_a, 2^-12 ms (244 ns) a step.
func TestNewAtOrdersBySubmillisecond(t *testing.T) {
	base := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	prev, _ := uuidv7.NewAt(base)
	for i := 1; i < 5000; i++ {
		id, err := uuidv7.NewAt(base.Add(time.Duration(i) * time.Microsecond))
		if err != nil || id.Compare(prev) <= 0 {
			t.Fatalf("NewAt(base + %d µs) = %v, not after %v (%v)", i, id, prev, err)
		}
		prev = id
	}
}

func TestGeneratorStrictlyIncreasing(t *testing.T) {
	at := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	clock := at
	g := uuidv7.NewGenerator(uuidv7.WithClock(func() time.Time { return clock }))
	var prev uuidv7.UUID
	for i := range 20000 {
		if i == 10000 {
			clock = at.Add(-time.Hour) // the clock steps back
		}
		id, err := g.New()
		if err != nil {
			t.Fatal(err)
		}
		if id.Compare(prev) <= 0 || id.Version() != 7 {
			t.Fatalf("ID %d, %v, is not after %v", i, id, prev)
		}
		if !id.Time().Equal(at) {
			t.Fatalf("ID %d is dated %v, want the latest time seen, %v", i, id.Time(), at)
		}
		prev = id
	}
}

// Two generators, as in two processes: the one whose clock reads 1 µs
// later makes the later ID, whatever came before in each.
func TestGeneratorsOrderByClock(t *testing.T) {
	at := time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC)
	for i := range 1000 {
		a := uuidv7.NewGenerator(uuidv7.WithClock(func() time.Time { return at.Add(time.Duration(i) * time.Microsecond) }))
		b := uuidv7.NewGenerator(uuidv7.WithClock(func() time.Time { return at.Add(time.Duration(i+1) * time.Microsecond) }))
		for range 3 { // a's later IDs of its tick still sort before b's
			a.New()
		}
		x, _ := a.New()
		y, _ := b.New()
		if x.Compare(y) >= 0 {
			t.Fatalf("%d µs: %v from the earlier clock sorts after %v", i, x, y)
		}
	}
}

func TestGeneratorExhausted(t *testing.T) {
	g := uuidv7.NewGenerator(uuidv7.WithClock(func() time.Time { return time.UnixMilli(uuidv7.MaxUnixMilli) }))
	g.SetState(uuidv7.MaxTick, 1<<62-1)
	id, err := g.New()
	if !errors.Is(err, uuidv7.ErrExhausted) || !id.IsZero() {
		t.Fatalf("past the largest UUIDv7: %v, %v; want ErrExhausted", id, err)
	}
	if _, err := g.New(); !errors.Is(err, uuidv7.ErrExhausted) {
		t.Errorf("again: %v, want ErrExhausted again", err)
	}
}

func TestGeneratorRandError(t *testing.T) {
	g := uuidv7.NewGenerator(uuidv7.WithRand(io.LimitReader(bytes.NewReader(make([]byte, 8)), 3)))
	if id, err := g.New(); !errors.Is(err, io.ErrUnexpectedEOF) || !id.IsZero() {
		t.Errorf("a short random source: %v, %v; want io.ErrUnexpectedEOF and no ID", id, err)
	}
}

func TestNewIsV7AndIncreasing(t *testing.T) {
	prev := uuidv7.New()
	for range 10000 {
		id := uuidv7.New()
		if id.Compare(prev) <= 0 || id.Version() != 7 || time.Since(id.Time()) > time.Minute {
			t.Fatalf("New = %v after %v", id, prev)
		}
		back, err := uuidv7.Parse(id.String())
		if err != nil || back != id {
			t.Fatalf("Parse(String()) = %v, %v", back, err)
		}
		prev = id
	}
}
