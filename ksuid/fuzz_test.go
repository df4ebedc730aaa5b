package ksuid_test

import (
	"bytes"
	"errors"
	"testing"

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
