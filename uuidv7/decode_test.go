package uuidv7_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"testing"

	"github.com/sortid/sortid/internal/errcontract"
	"github.com/sortid/sortid/uuidv7"
)

var sentinels = []error{uuidv7.ErrInvalidLength, uuidv7.ErrInvalidCharacter, uuidv7.ErrVersion,
	uuidv7.ErrInvalidJSON, uuidv7.ErrInvalidBSON, uuidv7.ErrNull, uuidv7.ErrUnsupportedType}

func checkErr(t *testing.T, what string, err error, changed bool) {
	t.Helper()
	errcontract.Check(t, "uuidv7: ", sentinels, what, err, changed)
}

// The RFC example's bytes, written out by hand, not by the package.
var rfcBytes = []byte{0x01, 0x7F, 0x22, 0xE2, 0x79, 0xB0, 0x7C, 0xC3, 0x98, 0xC4, 0xDC, 0x0C, 0x0C, 0x07, 0x39, 0x8F}

func TestScanAccepts(t *testing.T) {
	want := uuidv7.UUID(rfcBytes)
	for _, src := range []any{
		"017f22e2-79b0-7cc3-98c4-dc0c0c07398f",
		"017F22E2-79B0-7CC3-98C4-DC0C0C07398F",
		[]byte("017f22e2-79b0-7cc3-98c4-dc0c0c07398f"),
		rfcBytes,
		`\x017f22e279b07cc398c4dc0c0c07398f`,
		[]byte(`\x017F22E279B07CC398C4DC0C0C07398F`),
	} {
		var id uuidv7.UUID
		if err := id.Scan(src); err != nil || id != want {
			t.Errorf("Scan(%#v) = %v, %v; want %v", src, id, err, want)
		}
	}
}

func TestScanRejects(t *testing.T) {
	v4 := bytes.Clone(rfcBytes)
	v4[6] = 0x4C
	for _, tc := range []struct {
		src any
		err error
	}{
		{nil, uuidv7.ErrNull},
		{42, uuidv7.ErrUnsupportedType},
		{"017f22e2-79b0-4cc3-98c4-dc0c0c07398f", uuidv7.ErrVersion},
		{v4, uuidv7.ErrVersion},
		{make([]byte, 16), uuidv7.ErrVersion},
		{rfcBytes[:15], uuidv7.ErrInvalidLength},
		{"017f22e279b07cc398c4dc0c0c07398f", uuidv7.ErrInvalidLength},
		{`\x017f22e279b07cc398c4dc0c0c07398g`, uuidv7.ErrInvalidCharacter},
		{"017f22e2-79b0-7cc3-98c4-dc0c0c07398\xff", uuidv7.ErrInvalidCharacter},
	} {
		before := uuidv7.MustParse("01900000-0000-7000-8000-000000000001")
		id := before
		err := id.Scan(tc.src)
		checkErr(t, "Scan", err, id != before)
		if !errors.Is(err, tc.err) {
			t.Errorf("Scan(%#v) = %v, want %v", tc.src, err, tc.err)
		}
	}
}

func TestValue(t *testing.T) {
	id := uuidv7.UUID(rfcBytes)
	if v, err := id.Value(); v != "017f22e2-79b0-7cc3-98c4-dc0c0c07398f" || err != nil {
		t.Errorf("Value = %#v, %v", v, err)
	}
	if v, err := (uuidv7.NullUUID{}).Value(); v != nil || err != nil {
		t.Errorf("NullUUID{}.Value = %#v, %v", v, err)
	}
	var n uuidv7.NullUUID
	if err := n.Scan(nil); err != nil || n.Valid {
		t.Errorf("NullUUID.Scan(nil) = %v, %v", n, err)
	}
	if err := n.Scan(rfcBytes); err != nil || !n.Valid || n.UUID != id {
		t.Errorf("NullUUID.Scan = %v, %v", n, err)
	}
}

func TestJSON(t *testing.T) {
	type doc struct {
		ID  uuidv7.UUID     `json:"id"`
		Opt uuidv7.NullUUID `json:"opt"`
	}
	in := doc{ID: uuidv7.UUID(rfcBytes)}
	b, err := json.Marshal(in)
	if want := `{"id":"017f22e2-79b0-7cc3-98c4-dc0c0c07398f","opt":null}`; err != nil || string(b) != want {
		t.Fatalf("Marshal = %s, %v; want %s", b, err, want)
	}
	var out doc
	if err := json.Unmarshal(b, &out); err != nil || out != in {
		t.Errorf("Unmarshal = %+v, %v", out, err)
	}
	for _, bad := range []string{`42`, `""`, `"017f22e2-79b0-4cc3-98c4-dc0c0c07398f"`, `{}`} {
		id := uuidv7.UUID(rfcBytes)
		err := id.UnmarshalJSON([]byte(bad))
		checkErr(t, "UnmarshalJSON "+bad, err, id != uuidv7.UUID(rfcBytes))
	}
}

// bsonBinary frames a BSON binary value by hand: int32 length, subtype,
// bytes.
func bsonBinary(subtype byte, b []byte) []byte {
	out := binary.LittleEndian.AppendUint32(nil, uint32(len(b)))
	return append(append(out, subtype), b...)
}

func TestBSON(t *testing.T) {
	id := uuidv7.UUID(rfcBytes)
	typ, data, err := id.MarshalBSONValue()
	if err != nil || typ != 0x05 || !bytes.Equal(data, bsonBinary(4, rfcBytes)) {
		t.Fatalf("MarshalBSONValue = %#x, %x, %v", typ, data, err)
	}
	var back uuidv7.UUID
	if err := back.UnmarshalBSONValue(0x05, data); err != nil || back != id {
		t.Errorf("UnmarshalBSONValue = %v, %v", back, err)
	}
	text := "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
	str := append(binary.LittleEndian.AppendUint32(nil, uint32(len(text)+1)), text+"\x00"...)
	back = uuidv7.UUID{}
	if err := back.UnmarshalBSONValue(0x02, str); err != nil || back != id {
		t.Errorf("UnmarshalBSONValue(string) = %v, %v", back, err)
	}
	v4 := bytes.Clone(rfcBytes)
	v4[6] = 0x4C
	for _, tc := range []struct {
		name string
		typ  byte
		data []byte
		err  error
	}{
		{"subtype 3", 0x05, bsonBinary(3, rfcBytes), uuidv7.ErrUnsupportedType},
		{"subtype 0", 0x05, bsonBinary(0, rfcBytes), uuidv7.ErrUnsupportedType},
		{"version 4", 0x05, bsonBinary(4, v4), uuidv7.ErrVersion},
		{"15 bytes", 0x05, bsonBinary(4, rfcBytes[:15]), uuidv7.ErrInvalidLength},
		{"lying length", 0x05, bsonBinary(4, rfcBytes)[:20], uuidv7.ErrInvalidBSON},
		{"null", 0x0A, nil, uuidv7.ErrNull},
		{"int32", 0x10, []byte{1, 0, 0, 0}, uuidv7.ErrUnsupportedType},
		{"string without NUL", 0x02, str[:len(str)-1], uuidv7.ErrInvalidBSON},
	} {
		got := id
		err := got.UnmarshalBSONValue(tc.typ, tc.data)
		checkErr(t, "UnmarshalBSONValue "+tc.name, err, got != id)
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
		}
	}
	var n uuidv7.NullUUID
	if typ, data, err := n.MarshalBSONValue(); typ != 0x0A || len(data) != 0 || err != nil {
		t.Errorf("NullUUID{}.MarshalBSONValue = %#x, %x, %v", typ, data, err)
	}
}
