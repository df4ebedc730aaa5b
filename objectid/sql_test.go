package objectid_test

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"testing"

	"github.com/sortid/sortid/objectid"
)

var (
	_ driver.Valuer = objectid.ObjectID{}
	_ sql.Scanner   = (*objectid.ObjectID)(nil)
	_ driver.Valuer = objectid.NullObjectID{}
	_ sql.Scanner   = (*objectid.NullObjectID)(nil)
)

func TestValueAndScan(t *testing.T) {
	id := objectid.MustParse("60c468e6101bf215dc9fa835")
	if v, err := id.Value(); err != nil || v != "60c468e6101bf215dc9fa835" {
		t.Errorf("Value() = %#v, %v", v, err)
	}
	if v, _ := (objectid.ObjectID{}).Value(); v != "000000000000000000000000" {
		t.Errorf("zero Value() = %#v", v)
	}
	if v, err := (objectid.NullObjectID{}).Value(); v != nil || err != nil {
		t.Errorf("invalid NullObjectID Value() = %#v, %v", v, err)
	}
	for _, src := range []any{"60c468e6101bf215dc9fa835", "60C468E6101BF215DC9FA835", []byte("60c468e6101bf215dc9fa835"), id.Bytes(),
		`\x60c468e6101bf215dc9fa835`, []byte(`\x60C468E6101BF215DC9FA835`)} {
		var got objectid.ObjectID
		if err := got.Scan(src); err != nil || got != id {
			t.Errorf("Scan(%T %v) = %v, %v", src, src, got, err)
		}
	}
}

func TestScanErrors(t *testing.T) {
	keep := objectid.MustParse("60c468e6101bf215dc9fa835")
	for _, tc := range []struct {
		src  any
		want error
		msg  string
	}{
		{make([]byte, 11), objectid.ErrInvalidLength, "objectid: cannot scan []byte of 11 bytes 0x0000000000000000000000 into ObjectID: want 12 bytes or 24 hex digits"},
		{"60c468e6101bf215dc9fa83g", objectid.ErrInvalidCharacter, `objectid: cannot scan string of length 24 into ObjectID: parsing "60c468e6101bf215dc9fa83g": invalid character 'g' at offset 23`},
		{`\x60c468e6101bf215dc9fa8-5`, objectid.ErrInvalidCharacter, `objectid: cannot scan string of length 26 into ObjectID: parsing "\\x60c468e6101bf215dc9fa8-5": invalid character '-' at offset 24`},
		{nil, objectid.ErrNull, "objectid: cannot scan NULL into ObjectID; use NullObjectID or *ObjectID"},
		{3.5, objectid.ErrUnsupportedType, `objectid: cannot scan float64 "3.5" into ObjectID: want string or []byte`},
	} {
		got := keep
		err := got.Scan(tc.src)
		if !errors.Is(err, tc.want) || err.Error() != tc.msg {
			t.Errorf("Scan(%#v) error\n got %v\nwant %s", tc.src, err, tc.msg)
		}
		if got != keep {
			t.Errorf("Scan(%#v) changed the destination", tc.src)
		}
	}
	n := objectid.NullObjectID{ObjectID: keep, Valid: true}
	if err := n.Scan(nil); err != nil || n.Valid {
		t.Errorf("NullObjectID.Scan(nil) = %+v, %v", n, err)
	}
	if err := n.Scan(keep.Bytes()); err != nil || !n.Valid || n.ObjectID != keep {
		t.Errorf("NullObjectID.Scan = %+v, %v", n, err)
	}
}

func TestNullObjectIDJSON(t *testing.T) {
	id := objectid.MustParse("60c468e6101bf215dc9fa835")
	out, _ := json.Marshal([]objectid.NullObjectID{{ObjectID: id, Valid: true}, {}})
	if string(out) != `["60c468e6101bf215dc9fa835",null]` {
		t.Errorf("json.Marshal = %s", out)
	}
	var back []objectid.NullObjectID
	if err := json.Unmarshal([]byte(`[{"$oid":"60c468e6101bf215dc9fa835"},null,"60c468e6101bf215dc9fa835"]`), &back); err != nil {
		t.Fatal(err)
	}
	if len(back) != 3 || !back[0].Valid || back[0].ObjectID != id || back[1].Valid || back[2].ObjectID != id {
		t.Errorf("json.Unmarshal = %+v", back)
	}
	if err := json.Unmarshal([]byte(`[{"$id":"60c468e6101bf215dc9fa835"}]`), &back); !errors.Is(err, objectid.ErrInvalidJSON) {
		t.Errorf("bad Extended JSON: %v", err)
	}
}
