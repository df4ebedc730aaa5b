package objectid_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/sortid/sortid/internal/errcontract"
	"github.com/sortid/sortid/objectid"
)

// sentinels are the errors the package documents; every decoding error
// must wrap one of them (see internal/errcontract).
var sentinels = []error{
	objectid.ErrInvalidLength, objectid.ErrInvalidCharacter, objectid.ErrTimeRange, objectid.ErrExhausted,
	objectid.ErrInvalidJSON, objectid.ErrNull, objectid.ErrUnsupportedType, objectid.ErrInvalidBSON,
}

func checkDecodeError(t *testing.T, what string, err error, changed bool) {
	t.Helper()
	errcontract.Check(t, "objectid: ", sentinels, what, err, changed)
}

func TestDecodersErrorContract(t *testing.T) {
	keep := objectid.MustParse("60c468e6101bf215dc9fa835")
	keepNull := objectid.NullObjectID{ObjectID: keep, Valid: true}
	huge := bytes.Repeat([]byte("!"), 1<<20)
	texts := [][]byte{nil, []byte("60c468"), []byte("60c468e6101bf215dc9fa83g"), []byte("60c468e6101bf215dc9fa83 "), huge}
	binaries := [][]byte{nil, make([]byte, 11), make([]byte, 13), make([]byte, 20), huge}
	jsons := []string{`5`, `true`, `{}`, `[]`, `{"$oid":5}`, `{"$oid":"60c468e6101bf215dc9fa835","x":1}`, `{"oid":"60c468e6101bf215dc9fa835"}`,
		`"60c468"`, `"60c468e6101bf215dc9fa83g"`, `"\u00zz"`, ``, `"` + string(huge) + `"`, string(huge)}

	for _, in := range texts {
		_, err := objectid.Parse(string(in))
		checkDecodeError(t, "Parse", err, false)
		id := keep
		checkDecodeError(t, "UnmarshalText", id.UnmarshalText(in), id != keep)
		id = keep
		checkDecodeError(t, "Scan(string)", id.Scan(string(in)), id != keep)
		n := keepNull
		checkDecodeError(t, "NullObjectID.Scan(string)", n.Scan(string(in)), n != keepNull)
	}
	for _, in := range binaries {
		id := keep
		checkDecodeError(t, "UnmarshalBinary", id.UnmarshalBinary(in), id != keep)
		id = keep
		checkDecodeError(t, "Scan([]byte)", id.Scan(in), id != keep)
		n := keepNull
		checkDecodeError(t, "NullObjectID.Scan([]byte)", n.Scan(in), n != keepNull)
	}
	for _, src := range []any{int64(5), 1.5, true, struct{}{}, string(huge)} {
		id := keep
		checkDecodeError(t, "Scan(other)", id.Scan(src), id != keep)
	}
	for _, in := range jsons {
		id := keep
		checkDecodeError(t, "UnmarshalJSON "+in[:min(len(in), 20)], id.UnmarshalJSON([]byte(in)), id != keep)
		n := keepNull
		checkDecodeError(t, "NullObjectID.UnmarshalJSON "+in[:min(len(in), 20)], n.UnmarshalJSON([]byte(in)), n != keepNull)
	}
	for _, b := range []struct {
		typ  byte
		data []byte
	}{{0x07, make([]byte, 11)}, {0x07, huge}, {0x05, append([]byte{12, 0, 0, 0, 0}, make([]byte, 12)...)}, {0x02, huge}, {0x10, []byte{1, 0, 0, 0}}, {0x0A, nil}} {
		id := keep
		checkDecodeError(t, "UnmarshalBSONValue", id.UnmarshalBSONValue(b.typ, b.data), id != keep)
		if b.typ == 0x0A {
			continue // null is a valid NullObjectID
		}
		n := keepNull
		checkDecodeError(t, "NullObjectID.UnmarshalBSONValue", n.UnmarshalBSONValue(b.typ, b.data), n != keepNull)
	}
}

// TestJSONNonStrings checks that every JSON value other than a string,
// null or {"$oid": "..."} is refused with ErrInvalidJSON by both types.
func TestJSONNonStrings(t *testing.T) {
	for _, in := range []string{`5`, `-1.5e3`, `true`, `false`, `{}`, `[]`, `["60c468e6101bf215dc9fa835"]`, `{"$oid":true}`} {
		var doc struct {
			A objectid.ObjectID
			B objectid.NullObjectID
		}
		if err := json.Unmarshal([]byte(`{"A":`+in+`}`), &doc); !errors.Is(err, objectid.ErrInvalidJSON) {
			t.Errorf("ObjectID from %s: error = %v, want ErrInvalidJSON", in, err)
		}
		if err := json.Unmarshal([]byte(`{"B":`+in+`}`), &doc); !errors.Is(err, objectid.ErrInvalidJSON) {
			t.Errorf("NullObjectID from %s: error = %v, want ErrInvalidJSON", in, err)
		}
	}
}

// TestParseErrorHandBuilt checks that Error never panics on field values
// that Parse would not produce.
func TestParseErrorHandBuilt(t *testing.T) {
	for _, e := range []*objectid.ParseError{
		{}, {Offset: -1}, {Offset: 5, Err: objectid.ErrInvalidCharacter}, {Input: "abc", Offset: 3, Err: objectid.ErrInvalidCharacter},
		{Input: "abc", Offset: -7, Err: objectid.ErrInvalidCharacter}, {Input: "abc", Err: errors.New("other")}, nil,
	} {
		if msg := e.Error(); !strings.HasPrefix(msg, "objectid: ") {
			t.Errorf("%#v.Error() = %q", e, msg)
		}
	}
}

// TestJSONWhiteSpace checks that only JSON's own white space may surround
// the value: a form feed or a no-break space makes the input not JSON.
func TestJSONWhiteSpace(t *testing.T) {
	for _, in := range []string{" \t\r\n\"60c468e6101bf215dc9fa835\" \n", "null\r\n"} {
		var id objectid.ObjectID
		if err := id.UnmarshalJSON([]byte(in)); err != nil {
			t.Errorf("%q: %v", in, err)
		}
	}
	for _, in := range []string{"\"60c468e6101bf215dc9fa835\"\f", "\u00a0\"60c468e6101bf215dc9fa835\"", "null\v"} {
		var id objectid.ObjectID
		if err := id.UnmarshalJSON([]byte(in)); !errors.Is(err, objectid.ErrInvalidJSON) || !id.IsZero() {
			t.Errorf("%q: %v, %v; want ErrInvalidJSON", in, id, err)
		}
	}
}
