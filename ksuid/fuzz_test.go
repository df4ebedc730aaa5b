package ksuid_test

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sortid/sortid/internal/errcontract"
	"github.com/sortid/sortid/ksuid"
)

func addTextSeeds(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.text)
	}
	for _, s := range []string{"", "0", "aWgEPTl1tmebfsQzFP4bxwgy80W", "zzzzzzzzzzzzzzzzzzzzzzzzzzz",
		"0qjBBlJIfbVLK-nJn4xpLGDr00e", "0qjBBlJIfbVLKwnJn4xpLGDr0é", "0qjBBlJIfbVLKwnJn4xpLGDr00e0"} {
		f.Add(s)
	}
}

// checkText asserts what must hold for any input: accepted text
// re-encodes to itself and agrees with the reference decoder; rejected
// text gets one of the documented errors.
func checkText(t *testing.T, s string, id ksuid.KSUID, err error) {
	want, ok := refDecode(s)
	if ok != (err == nil) {
		t.Fatalf("%q: error = %v, reference valid = %v", s, err, ok)
	}
	if err != nil {
		if !errors.Is(err, ksuid.ErrInvalidLength) && !errors.Is(err, ksuid.ErrInvalidCharacter) && !errors.Is(err, ksuid.ErrOverflow) {
			t.Fatalf("%q: undocumented error %v", s, err)
		}
		return
	}
	if got := id.String(); got != s {
		t.Fatalf("%q parsed to %v, which encodes as %q", s, id, got)
	}
	if !bytes.Equal(id[:], want) {
		t.Fatalf("%q = %x, reference %x", s, id[:], want)
	}
}

func FuzzParse(f *testing.F) {
	addTextSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ksuid.Parse(s)
		checkText(t, s, id, err)
	})
}

func FuzzUnmarshalText(f *testing.F) {
	addTextSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		var id ksuid.KSUID
		err := id.UnmarshalText([]byte(s))
		checkText(t, s, id, err)
		if err != nil && !id.IsZero() {
			t.Fatalf("%q: receiver changed on error", s)
		}
	})
}

func FuzzUnmarshalBinary(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.raw)
	}
	f.Add([]byte{})
	f.Add(make([]byte, 21))
	f.Fuzz(func(t *testing.T, b []byte) {
		var id ksuid.KSUID
		err := id.UnmarshalBinary(b)
		if (len(b) == 20) != (err == nil) {
			t.Fatalf("%d bytes: error = %v", len(b), err)
		}
		if err != nil {
			if !errors.Is(err, ksuid.ErrInvalidLength) {
				t.Fatalf("undocumented error %v", err)
			}
			return
		}
		out, _ := id.MarshalBinary()
		if !bytes.Equal(out, b) {
			t.Fatalf("%x came back as %x", b, out)
		}
		back, err := ksuid.Parse(id.String())
		if err != nil || back != id {
			t.Fatalf("text round trip of %x: %v, %v", b, back, err)
		}
	})
}

// FuzzParseErrorMessage checks that ParseError.Error never panics,
// whatever a caller puts in its exported fields.
func FuzzParseErrorMessage(f *testing.F) {
	f.Add("0qjBBlJIfbVLK-nJn4xpLGDr00e", 13, byte(1))
	f.Add("", -1, byte(0))
	f.Add("abc", 99, byte(1))
	f.Fuzz(func(t *testing.T, input string, offset int, cause byte) {
		errs := []error{nil, ksuid.ErrInvalidCharacter, ksuid.ErrInvalidLength, ksuid.ErrOverflow, errors.New("other")}
		e := &ksuid.ParseError{Input: input, Offset: offset, Err: errs[int(cause)%len(errs)]}
		// The input is quoted to 64 bytes, at most 4 characters each.
		if msg := e.Error(); len(msg) > errcontract.MaxMessage {
			t.Fatalf("message of %d bytes", len(msg))
		}
	})
}

func FuzzUnmarshalJSON(f *testing.F) {
	for _, v := range vectors {
		f.Add([]byte(`"` + v.text + `"`))
	}
	for _, s := range []string{`null`, `5`, `"`, `""`, `{}`, ` "0qjBBlJIfbVLKwnJn4xpLGDr00e" `, `"\u0030qjBBlJIfbVLKwnJn4xpLGDr00e"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		keep := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
		id := keep
		err := id.UnmarshalJSON(data)
		var s *string
		stdErr := json.Unmarshal(data, &s)
		switch {
		case stdErr != nil || s == nil: // not JSON, or null
			if err == nil && id != keep {
				t.Fatalf("%q: accepted as %v", data, id)
			}
			if stdErr == nil && s == nil && err != nil {
				t.Fatalf("%q: null refused: %v", data, err)
			}
		default:
			want, perr := ksuid.Parse(*s)
			if (perr == nil) != (err == nil) || (err == nil && id != want) {
				t.Fatalf("%q: got %v, %v; Parse(%q) = %v, %v", data, id, err, *s, want, perr)
			}
		}
		if err != nil && id != keep {
			t.Fatalf("%q: receiver changed on error", data)
		}
	})
}

func FuzzScan(f *testing.F) {
	for _, v := range vectors {
		f.Add(v.raw)
		f.Add([]byte(v.text))
	}
	f.Add([]byte{})
	f.Add([]byte(`\x05f5e1000102030405060708090a0b0c0d0e0f10`))
	f.Add([]byte(`\x05F5E1000102030405060708090A0B0C0D0E0F1G`))
	f.Fuzz(func(t *testing.T, b []byte) {
		keep := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
		id := keep
		err := id.Scan(b)
		switch {
		case err != nil:
			if id != keep {
				t.Fatalf("%q: receiver changed on error", b)
			}
		case len(b) == ksuid.Size:
			if !bytes.Equal(id[:], b) {
				t.Fatalf("%x scanned as %v", b, id)
			}
		case len(b) == 2+2*ksuid.Size && bytes.HasPrefix(b, []byte(`\x`)):
			// PostgreSQL's hex form of a bytea, either case.
			if !strings.EqualFold(`\x`+hex.EncodeToString(id[:]), string(b)) {
				t.Fatalf("%q scanned as %x", b, id[:])
			}
		default:
			if id.String() != string(b) {
				t.Fatalf("%q scanned as %v", b, id)
			}
		}
	})
}
