package objectid_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/sortid/sortid/internal/errcontract"
	"github.com/sortid/sortid/objectid"
)

func addTextSeeds(f *testing.F) {
	for _, s := range []string{"60c468e6101bf215dc9fa835", "60C468E6101BF215DC9FA835", "", "0",
		"60c468e6101bf215dc9fa83g", "60c468e6101bf215dc9faé5", "60c468e6101bf215dc9fa8350"} {
		f.Add(s)
	}
}

// checkText compares with encoding/hex as the reference: accepted input
// is exactly 24 hex digits, re-encodes to itself up to case, and decodes
// to the reference bytes.
func checkText(t *testing.T, s string, id objectid.ObjectID, err error) {
	ref, refErr := hex.DecodeString(s)
	valid := len(s) == 24 && refErr == nil
	if valid != (err == nil) {
		t.Fatalf("%q: error = %v, reference valid = %v", s, err, valid)
	}
	if err != nil {
		if !errors.Is(err, objectid.ErrInvalidLength) && !errors.Is(err, objectid.ErrInvalidCharacter) {
			t.Fatalf("%q: undocumented error %v", s, err)
		}
		return
	}
	if !bytes.Equal(id[:], ref) || id.String() != strings.ToLower(s) {
		t.Fatalf("%q parsed to %v", s, id)
	}
}

func FuzzParse(f *testing.F) {
	addTextSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		id, err := objectid.Parse(s)
		checkText(t, s, id, err)
	})
}

func FuzzUnmarshalText(f *testing.F) {
	addTextSeeds(f)
	f.Fuzz(func(t *testing.T, s string) {
		var id objectid.ObjectID
		err := id.UnmarshalText([]byte(s))
		checkText(t, s, id, err)
		if err != nil && !id.IsZero() {
			t.Fatalf("%q: receiver changed on error", s)
		}
	})
}

func FuzzUnmarshalBinary(f *testing.F) {
	f.Add([]byte{})
	f.Add(make([]byte, 12))
	f.Add(bytes.Repeat([]byte{0xFF}, 13))
	f.Fuzz(func(t *testing.T, b []byte) {
		var id objectid.ObjectID
		err := id.UnmarshalBinary(b)
		if (len(b) == 12) != (err == nil) {
			t.Fatalf("%d bytes: error = %v", len(b), err)
		}
		if err != nil {
			if !errors.Is(err, objectid.ErrInvalidLength) {
				t.Fatalf("undocumented error %v", err)
			}
			return
		}
		if out, _ := id.MarshalBinary(); !bytes.Equal(out, b) {
			t.Fatalf("%x came back as %x", b, out)
		}
		if back, err := objectid.Parse(id.String()); err != nil || back != id {
			t.Fatalf("text round trip of %x: %v, %v", b, back, err)
		}
	})
}

func FuzzUnmarshalJSON(f *testing.F) {
	for _, s := range []string{`"60c468e6101bf215dc9fa835"`, `{"$oid":"60c468e6101bf215dc9fa835"}`, `null`,
		`{"$id":"60c468e6101bf215dc9fa835"}`, `"\u00360c468e6101bf215dc9fa835"`, `{`, `"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id := objectid.MustParse("60c468e6101bf215dc9fa835")
		err := id.UnmarshalJSON([]byte(s))
		if err != nil {
			if id.String() != "60c468e6101bf215dc9fa835" {
				t.Fatalf("%q: receiver changed on error", s)
			}
			if !errors.Is(err, objectid.ErrInvalidJSON) && !errors.Is(err, objectid.ErrInvalidLength) && !errors.Is(err, objectid.ErrInvalidCharacter) {
				t.Fatalf("%q: undocumented error %v", s, err)
			}
		}
	})
}

// FuzzParseErrorMessage checks that ParseError.Error never panics,
// whatever a caller puts in its exported fields.
func FuzzParseErrorMessage(f *testing.F) {
	f.Add("60c468e6101bf215dc9fa83g", 23, byte(1))
	f.Add("", -1, byte(0))
	f.Add("abc", 99, byte(1))
	f.Fuzz(func(t *testing.T, input string, offset int, cause byte) {
		errs := []error{nil, objectid.ErrInvalidCharacter, objectid.ErrInvalidLength, errors.New("other")}
		e := &objectid.ParseError{Input: input, Offset: offset, Err: errs[int(cause)%len(errs)]}
		// The input is quoted to 64 bytes, at most 4 characters each.
		if msg := e.Error(); len(msg) > errcontract.MaxMessage {
			t.Fatalf("message of %d bytes", len(msg))
		}
	})
}

func FuzzScan(f *testing.F) {
	f.Add([]byte("60c468e6101bf215dc9fa835"))
	f.Add([]byte("60C468E6101BF215DC9FA835"))
	f.Add(make([]byte, 12))
	f.Add([]byte{})
	f.Add([]byte(`\x60c468e6101bf215dc9fa835`))
	f.Add([]byte(`\x60C468E6101BF215DC9FA8-5`))
	f.Fuzz(func(t *testing.T, b []byte) {
		keep := objectid.MustParse("60c468e6101bf215dc9fa835")
		id := keep
		err := id.Scan(b)
		switch {
		case err != nil:
			if id != keep {
				t.Fatalf("%q: receiver changed on error", b)
			}
		case len(b) == objectid.Size:
			if !bytes.Equal(id[:], b) {
				t.Fatalf("%x scanned as %v", b, id)
			}
		case len(b) == 2+2*objectid.Size && bytes.HasPrefix(b, []byte(`\x`)):
			// PostgreSQL's hex form of a bytea, either case.
			if !strings.EqualFold(`\x`+hex.EncodeToString(id[:]), string(b)) {
				t.Fatalf("%q scanned as %x", b, id[:])
			}
		default:
			if !strings.EqualFold(id.String(), string(b)) {
				t.Fatalf("%q scanned as %v", b, id)
			}
		}
	})
}
