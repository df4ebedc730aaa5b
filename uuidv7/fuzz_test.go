package uuidv7_test

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/sortid/sortid/internal/errcontract"
	"github.com/sortid/sortid/uuidv7"
)

// refParse is a reference decoder written apart from the package: a
// UUIDv7 is 36 characters with hyphens at 8, 13, 18 and 23 and hex
// digits elsewhere, version 7 and variant 10.
func refParse(s string) ([]byte, bool) {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return nil, false
	}
	b, err := hex.DecodeString(s[:8] + s[9:13] + s[14:18] + s[19:23] + s[24:])
	if err != nil || b[6]>>4 != 7 || b[8]>>6 != 2 {
		return nil, false
	}
	return b, true
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"", rfcExample, strings.ToLower(rfcExample), "017f22e2-79b0-4cc3-98c4-dc0c0c07398f",
		"017f22e2-79b0-7cc3-98c4-dc0c0c07398g", "017f22e2+79b0-7cc3-98c4-dc0c0c07398f", "017f22e279b07cc398c4dc0c0c07398f",
		"017f22e2-79b0-7cc3-98c4-dc0c0c07398é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := uuidv7.Parse(s)
		want, ok := refParse(s)
		if ok != (err == nil) {
			t.Fatalf("%q: error %v, reference valid %v", s, err, ok)
		}
		if err != nil {
			errcontract.Check(t, "uuidv7: ", sentinels, "Parse", err, !id.IsZero())
			return
		}
		if string(id[:]) != string(want) || id.String() != strings.ToLower(s) {
			t.Fatalf("%q parsed to %v, reference %x", s, id, want)
		}
		// Scan of the same text, and of its bytes, agrees.
		var scanned, raw uuidv7.UUID
		if err := scanned.Scan(s); err != nil || scanned != id {
			t.Fatalf("Scan(%q) = %v, %v", s, scanned, err)
		}
		if err := raw.Scan(want); err != nil || raw != id {
			t.Fatalf("Scan(%x) = %v, %v", want, raw, err)
		}
	})
}

// FuzzUnmarshalBSONValue: any BSON value is a UUIDv7 it holds, or an
// error by the package's contract with the receiver unchanged; never a
// panic.
func FuzzUnmarshalBSONValue(f *testing.F) {
	f.Add(byte(0x05), bsonBinary(4, rfcBytes))
	f.Add(byte(0x05), bsonBinary(0, rfcBytes))
	f.Add(byte(0x02), []byte("\x25\x00\x00\x00017f22e2-79b0-7cc3-98c4-dc0c0c07398f\x00"))
	f.Add(byte(0x0A), []byte{})
	f.Fuzz(func(t *testing.T, typ byte, data []byte) {
		before := uuidv7.MustParse("01900000-0000-7000-8000-000000000001")
		id := before
		if err := id.UnmarshalBSONValue(typ, data); err != nil {
			errcontract.Check(t, "uuidv7: ", sentinels, "UnmarshalBSONValue", err, id != before)
			return
		}
		if id.Version() != 7 {
			t.Fatalf("accepted %x of type %#x as %v", data, typ, id)
		}
	})
}
