package objectid_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

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
