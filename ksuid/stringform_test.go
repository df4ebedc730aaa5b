package ksuid_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/sortid/sortid/ksuid"
)

func TestStringKSUIDMarshalBSONValue(t *testing.T) {
	s := ksuid.StringKSUID(ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e"))
	typ, data, err := s.MarshalBSONValue()
	// String (0x02): int32 length 28 (the text and its NUL), text, NUL.
	want := append(append([]byte{28, 0, 0, 0}, "0qjBBlJIfbVLKwnJn4xpLGDr00e"...), 0)
	if err != nil || typ != 0x02 || !bytes.Equal(data, want) {
		t.Errorf("MarshalBSONValue = %#x, %q, %v; want 0x02, %q", typ, data, err, want)
	}
}

func TestStringKSUIDReadsBothForms(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	for _, tc := range []struct {
		name string
		typ  byte
		data []byte
	}{
		{"binary", 0x05, append([]byte{20, 0, 0, 0, 0}, id[:]...)},
		{"string", 0x02, append(append([]byte{28, 0, 0, 0}, id.String()...), 0)},
	} {
		var got ksuid.StringKSUID
		if err := got.UnmarshalBSONValue(tc.typ, tc.data); err != nil || ksuid.KSUID(got) != id {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, id)
		}
	}
	keep := ksuid.StringKSUID(id)
	err := keep.UnmarshalBSONValue(0x02, append(append([]byte{28, 0, 0, 0}, "0qjBBlJIfbVLK-nJn4xpLGDr00e"...), 0))
	if !errors.Is(err, ksuid.ErrInvalidCharacter) || ksuid.KSUID(keep) != id {
		t.Errorf("bad string: %v, %v; want ErrInvalidCharacter and the value unchanged", keep, err)
	}
	if err := keep.UnmarshalBSONValue(0x0A, nil); !errors.Is(err, ksuid.ErrNull) {
		t.Errorf("null: %v, want ErrNull", err)
	}
}

func TestStringKSUIDText(t *testing.T) {
	s := ksuid.StringKSUID(ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e"))
	b, err := json.Marshal(struct{ ID ksuid.StringKSUID }{s})
	if want := `{"ID":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}`; err != nil || string(b) != want {
		t.Errorf("json.Marshal = %s, %v; want %s", b, err, want)
	}
	var back struct{ ID ksuid.StringKSUID }
	if err := json.Unmarshal(b, &back); err != nil || back.ID != s {
		t.Errorf("json.Unmarshal = %v, %v", back.ID, err)
	}
	if err := json.Unmarshal([]byte(`{"ID":7}`), &back); !errors.Is(err, ksuid.ErrInvalidJSON) {
		t.Errorf("a JSON number: %v, want ErrInvalidJSON", err)
	}
	if s.String() != "0qjBBlJIfbVLKwnJn4xpLGDr00e" || s.IsZero() || !(ksuid.StringKSUID{}).IsZero() {
		t.Errorf("String %q, IsZero %v", s.String(), s.IsZero())
	}
}
