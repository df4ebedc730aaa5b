package ksuid_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sortid/sortid/internal/errcontract"
	"github.com/sortid/sortid/ksuid"
)

// sentinels are the errors the package documents; every decoding error
// must wrap one of them (see internal/errcontract).
var sentinels = []error{
	ksuid.ErrInvalidLength, ksuid.ErrInvalidCharacter, ksuid.ErrOverflow, ksuid.ErrTimeRange,
	ksuid.ErrInvalidJSON, ksuid.ErrNull, ksuid.ErrUnsupportedType, ksuid.ErrInvalidBSON,
}

func checkDecodeError(t *testing.T, what string, err error, changed bool) {
	t.Helper()
	errcontract.Check(t, "ksuid: ", sentinels, what, err, changed)
}

func TestDecodersErrorContract(t *testing.T) {
	keep := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	huge := bytes.Repeat([]byte("!"), 1<<20)
	texts := [][]byte{nil, []byte("0qjBB"), []byte("0qjBBlJIfbVLK-nJn4xpLGDr00e"), []byte("zzzzzzzzzzzzzzzzzzzzzzzzzzz"), huge}
	binaries := [][]byte{nil, make([]byte, 19), make([]byte, 21), make([]byte, 27), huge}
	jsons := []string{`5`, `true`, `{}`, `[]`, `{"$oid":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}`, `"0qjBB"`, `"0qjBBlJIfbVLK-nJn4xpLGDr00e"`,
		`"\u00zz"`, ``, `"` + string(huge) + `"`, string(huge)}

	for _, in := range texts {
		_, err := ksuid.Parse(string(in))
		checkDecodeError(t, "Parse", err, false)
		id := keep
		checkDecodeError(t, "UnmarshalText", id.UnmarshalText(in), id != keep)
		id = keep
		checkDecodeError(t, "Scan(string)", id.Scan(string(in)), id != keep)
		n := ksuid.NullKSUID{KSUID: keep, Valid: true}
		checkDecodeError(t, "NullKSUID.Scan(string)", n.Scan(string(in)), n != ksuid.NullKSUID{KSUID: keep, Valid: true})
	}
	for _, in := range binaries {
		id := keep
		checkDecodeError(t, "UnmarshalBinary", id.UnmarshalBinary(in), id != keep)
		id = keep
		checkDecodeError(t, "Scan([]byte)", id.Scan(in), id != keep)
		n := ksuid.NullKSUID{KSUID: keep, Valid: true}
		checkDecodeError(t, "NullKSUID.Scan([]byte)", n.Scan(in), n != ksuid.NullKSUID{KSUID: keep, Valid: true})
	}
	for _, src := range []any{int64(5), 1.5, true, struct{}{}, string(huge)} {
		id := keep
		checkDecodeError(t, "Scan(other)", id.Scan(src), id != keep)
	}
	for _, in := range jsons {
		id := keep
		checkDecodeError(t, "UnmarshalJSON "+in[:min(len(in), 20)], id.UnmarshalJSON([]byte(in)), id != keep)
		n := ksuid.NullKSUID{KSUID: keep, Valid: true}
		checkDecodeError(t, "NullKSUID.UnmarshalJSON "+in[:min(len(in), 20)], n.UnmarshalJSON([]byte(in)), n != ksuid.NullKSUID{KSUID: keep, Valid: true})
	}
	bsons := []struct {
		typ  byte
		data []byte
	}{
		{0x05, []byte{1, 2}}, {0x05, append([]byte{19, 0, 0, 0, 0}, make([]byte, 19)...)},
		{0x05, append([]byte{20, 0, 0, 0, 4}, make([]byte, 20)...)}, {0x02, []byte{3, 0, 0, 0, 'a', 'b', 0}},
		{0x10, []byte{1, 0, 0, 0}}, {0x07, make([]byte, 12)}, {0x0A, nil}, {0x02, huge}, {0x05, huge},
	}
	for _, b := range bsons {
		id := keep
		checkDecodeError(t, "UnmarshalBSONValue", id.UnmarshalBSONValue(b.typ, b.data), id != keep)
		if b.typ == 0x0A {
			continue // null is a valid NullKSUID
		}
		n := ksuid.NullKSUID{KSUID: keep, Valid: true}
		checkDecodeError(t, "NullKSUID.UnmarshalBSONValue", n.UnmarshalBSONValue(b.typ, b.data), n != ksuid.NullKSUID{KSUID: keep, Valid: true})
	}
}

// TestJSONNonStrings checks that every JSON value other than a string or
// null is refused with ErrInvalidJSON by both types, also inside a
// document decoded by encoding/json.
func TestJSONNonStrings(t *testing.T) {
	for _, in := range []string{`5`, `-1.5e3`, `true`, `false`, `{}`, `[]`, `["0qjBBlJIfbVLKwnJn4xpLGDr00e"]`, `{"id":"0qjBBlJIfbVLKwnJn4xpLGDr00e"}`} {
		var doc struct {
			A ksuid.KSUID
			B ksuid.NullKSUID
		}
		if err := json.Unmarshal([]byte(`{"A":`+in+`}`), &doc); !errors.Is(err, ksuid.ErrInvalidJSON) {
			t.Errorf("KSUID from %s: error = %v, want ErrInvalidJSON", in, err)
		}
		if err := json.Unmarshal([]byte(`{"B":`+in+`}`), &doc); !errors.Is(err, ksuid.ErrInvalidJSON) {
			t.Errorf("NullKSUID from %s: error = %v, want ErrInvalidJSON", in, err)
		}
	}
	// A string with escapes is still a string.
	var id ksuid.KSUID
	if err := id.UnmarshalJSON([]byte(`"\u0030qjBBlJIfbVLKwnJn4xpLGDr00e"`)); err != nil || id.String() != "0qjBBlJIfbVLKwnJn4xpLGDr00e" {
		t.Errorf("escaped string: %v, %v", id, err)
	}
}

// TestParseErrorHandBuilt checks that Error never panics on field values
// that Parse would not produce.
func TestParseErrorHandBuilt(t *testing.T) {
	for _, e := range []*ksuid.ParseError{
		{}, {Offset: -1}, {Offset: 5, Err: ksuid.ErrInvalidCharacter}, {Input: "abc", Offset: 3, Err: ksuid.ErrInvalidCharacter},
		{Input: "abc", Offset: -7, Err: ksuid.ErrInvalidCharacter}, {Input: "abc", Err: errors.New("other")}, nil,
	} {
		msg := e.Error()
		if !strings.HasPrefix(msg, "ksuid: ") {
			t.Errorf("%#v.Error() = %q", e, msg)
		}
	}
}

// TestJSONWhiteSpace checks that only JSON's own white space may surround
// the value: a form feed or a no-break space makes the input not JSON.
func TestJSONWhiteSpace(t *testing.T) {
	for _, in := range []string{" \t\r\n\"0qjBBlJIfbVLKwnJn4xpLGDr00e\" \n", "null\r\n"} {
		var id ksuid.KSUID
		if err := id.UnmarshalJSON([]byte(in)); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
	for _, in := range []string{"\"0qjBBlJIfbVLKwnJn4xpLGDr00e\"\f", "\u00a0\"0qjBBlJIfbVLKwnJn4xpLGDr00e\"", "null\v"} {
		var id ksuid.KSUID
		if err := id.UnmarshalJSON([]byte(in)); !errors.Is(err, ksuid.ErrInvalidJSON) || !id.IsZero() {
			t.Errorf("%q: %v, %v; want ErrInvalidJSON", in, id, err)
		}
	}
}
