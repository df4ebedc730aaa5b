package ksuid_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/sortid/sortid/ksuid"
)

func TestMarshalBSONValue(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	typ, data, err := id.MarshalBSONValue()
	// String (0x02): int32 length 28 (27 characters and the NUL), the
	// text, NUL.
	want := []byte("\x1c\x00\x00\x000qjBBlJIfbVLKwnJn4xpLGDr00e\x00")
	if err != nil || typ != 0x02 || !bytes.Equal(data, want) {
		t.Errorf("MarshalBSONValue = %#x, %q, %v; want 0x02, %q", typ, data, err, want)
	}
	if typ, data, _ := (ksuid.NullKSUID{}).MarshalBSONValue(); typ != 0x0A || data != nil {
		t.Errorf("invalid NullKSUID = %#x, %x; want null", typ, data)
	}
}

func TestUnmarshalBSONValue(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	text := append(append([]byte{28, 0, 0, 0}, id.String()...), 0)
	binary := append([]byte{20, 0, 0, 0, 0}, id[:]...)
	for _, tc := range []struct {
		name string
		typ  byte
		data []byte
		want error
	}{
		{"binary", 0x05, binary, nil},
		{"string", 0x02, text, nil},
		{"binary of 19", 0x05, append([]byte{19, 0, 0, 0, 0}, id[:19]...), ksuid.ErrInvalidLength},
		{"binary subtype 4", 0x05, append([]byte{20, 0, 0, 0, 4}, id[:]...), ksuid.ErrUnsupportedType},
		{"binary length lies", 0x05, append([]byte{21, 0, 0, 0, 0}, id[:]...), ksuid.ErrInvalidBSON},
		{"truncated binary", 0x05, []byte{20, 0}, ksuid.ErrInvalidBSON},
		{"string without NUL", 0x02, text[:len(text)-1], ksuid.ErrInvalidBSON},
		{"bad string", 0x02, append(append([]byte{28, 0, 0, 0}, "0qjBBlJIfbVLK-nJn4xpLGDr00e"...), 0), ksuid.ErrInvalidCharacter},
		{"null", 0x0A, nil, ksuid.ErrNull},
		{"int32", 0x10, []byte{1, 0, 0, 0}, ksuid.ErrUnsupportedType},
	} {
		var got ksuid.KSUID
		err := got.UnmarshalBSONValue(tc.typ, tc.data)
		if !errors.Is(err, tc.want) || (tc.want == nil && got != id) || (tc.want != nil && !got.IsZero()) {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	n := ksuid.NullKSUID{KSUID: id, Valid: true}
	if err := n.UnmarshalBSONValue(0x0A, nil); err != nil || n.Valid {
		t.Errorf("null into NullKSUID: %+v, %v", n, err)
	}
	if err := n.UnmarshalBSONValue(0x05, binary); err != nil || !n.Valid || n.KSUID != id {
		t.Errorf("binary into NullKSUID: %+v, %v", n, err)
	}
	var got ksuid.KSUID
	err := got.UnmarshalBSONValue(0x10, []byte{1, 0, 0, 0})
	if want := "ksuid: cannot decode BSON 32-bit integer value of 4 bytes 0x01000000 into KSUID: want binary or string"; err == nil || err.Error() != want {
		t.Errorf("message %v, want %s", err, want)
	}
}
