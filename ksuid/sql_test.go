package ksuid_test

import (
	"database/sql"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/sortid/sortid/ksuid"
)

var (
	_ driver.Valuer = ksuid.KSUID{}
	_ sql.Scanner   = (*ksuid.KSUID)(nil)
	_ driver.Valuer = ksuid.NullKSUID{}
	_ sql.Scanner   = (*ksuid.NullKSUID)(nil)
)

func TestValue(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	v, err := id.Value()
	if err != nil || v != "0qjBBlJIfbVLKwnJn4xpLGDr00e" {
		t.Errorf("Value() = %#v, %v", v, err)
	}
	if v, _ := (ksuid.KSUID{}).Value(); v != "000000000000000000000000000" {
		t.Errorf("zero Value() = %#v; the zero KSUID is a value, not NULL", v)
	}
	if v, err := (ksuid.NullKSUID{}).Value(); v != nil || err != nil {
		t.Errorf("invalid NullKSUID Value() = %#v, %v; want nil", v, err)
	}
	if v, _ := (ksuid.NullKSUID{KSUID: id, Valid: true}).Value(); v != id.String() {
		t.Errorf("NullKSUID Value() = %#v", v)
	}
}

func TestScan(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	// id is timestamp 100000000 (0x05f5e100) and payload 1..16; the hex
	// form of a bytea is how psql and pgx's text format show it.
	hexForm := `\x05f5e1000102030405060708090a0b0c0d0e0f10`
	for _, src := range []any{id.String(), []byte(id.String()), id.Bytes(), hexForm, []byte(hexForm), `\x05F5E1000102030405060708090A0B0C0D0E0F10`} {
		var got ksuid.KSUID
		if err := got.Scan(src); err != nil || got != id {
			t.Errorf("Scan(%T %v) = %v, %v", src, src, got, err)
		}
		var n ksuid.NullKSUID
		if err := n.Scan(src); err != nil || !n.Valid || n.KSUID != id {
			t.Errorf("NullKSUID.Scan(%T) = %+v, %v", src, n, err)
		}
	}
}

func TestScanErrors(t *testing.T) {
	keep := ksuid.MustParse("aWgEPTl1tmebfsQzFP4bxwgy80V")
	for _, tc := range []struct {
		src  any
		want error
		msg  string
	}{
		{make([]byte, 19), ksuid.ErrInvalidLength, "ksuid: cannot scan []byte of 19 bytes 0x00000000000000000000000000000000000000 into KSUID: want 20 bytes or 27 characters"},
		{`\x05f5e1000102030405060708090a0b0c0d0e0f1g`, ksuid.ErrInvalidCharacter, `ksuid: cannot scan string of length 42 into KSUID: parsing "\\x05f5e1000102030405060708090a0b0c0d0e0f1g": invalid character 'g' at offset 41`},
		{[]byte{}, ksuid.ErrInvalidLength, "ksuid: cannot scan []byte of 0 bytes into KSUID: want 20 bytes or 27 characters"},
		{"0qjBB", ksuid.ErrInvalidLength, `ksuid: cannot scan string of length 5 into KSUID: parsing "0qjBB": invalid length 5, want 27`},
		{"0qjBBlJIfbVLK-nJn4xpLGDr00e", ksuid.ErrInvalidCharacter, `ksuid: cannot scan string of length 27 into KSUID: parsing "0qjBBlJIfbVLK-nJn4xpLGDr00e": invalid character '-' at offset 13`},
		{[]byte("zzzzzzzzzzzzzzzzzzzzzzzzzzz"), ksuid.ErrOverflow, `ksuid: cannot scan []byte of length 27 into KSUID: parsing "zzzzzzzzzzzzzzzzzzzzzzzzzzz": value above the largest KSUID aWgEPTl1tmebfsQzFP4bxwgy80V`},
		{nil, ksuid.ErrNull, "ksuid: cannot scan NULL into KSUID; use NullKSUID or *KSUID"},
		{int64(7), ksuid.ErrUnsupportedType, `ksuid: cannot scan int64 "7" into KSUID: want string or []byte`},
		{time.Time{}, ksuid.ErrUnsupportedType, `ksuid: cannot scan time.Time "0001-01-01 00:00:00 +0000 UTC" into KSUID: want string or []byte`},
	} {
		got := keep
		err := got.Scan(tc.src)
		if !errors.Is(err, tc.want) {
			t.Errorf("Scan(%#v) error = %v, want %v", tc.src, err, tc.want)
			continue
		}
		if err.Error() != tc.msg {
			t.Errorf("Scan(%#v) message\n got %s\nwant %s", tc.src, err, tc.msg)
		}
		if got != keep {
			t.Errorf("Scan(%#v) changed the destination to %v", tc.src, got)
		}
		if tc.src == nil {
			continue
		}
		n := ksuid.NullKSUID{KSUID: keep, Valid: true}
		if err := n.Scan(tc.src); !errors.Is(err, tc.want) || n.KSUID != keep || !n.Valid {
			t.Errorf("NullKSUID.Scan(%#v) = %+v, %v", tc.src, n, err)
		}
	}
	n := ksuid.NullKSUID{KSUID: keep, Valid: true}
	if err := n.Scan(nil); err != nil || n.Valid || !n.KSUID.IsZero() {
		t.Errorf("NullKSUID.Scan(nil) = %+v, %v; want invalid", n, err)
	}
}

func TestNullKSUIDJSON(t *testing.T) {
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	type row struct {
		A ksuid.NullKSUID `json:"a"`
		B ksuid.NullKSUID `json:"b"`
	}
	out, err := json.Marshal(row{A: ksuid.NullKSUID{KSUID: id, Valid: true}})
	if want := `{"a":"0qjBBlJIfbVLKwnJn4xpLGDr00e","b":null}`; err != nil || string(out) != want {
		t.Errorf("json.Marshal = %s, %v; want %s", out, err, want)
	}
	back := row{B: ksuid.NullKSUID{KSUID: id, Valid: true}}
	if err := json.Unmarshal([]byte(`{"a":"0qjBBlJIfbVLKwnJn4xpLGDr00e","b":null}`), &back); err != nil {
		t.Fatal(err)
	}
	if !back.A.Valid || back.A.KSUID != id || back.B.Valid {
		t.Errorf("json.Unmarshal = %+v", back)
	}
	for _, bad := range []string{`{"a":12}`, `{"a":"0qjBB"}`, `{"a":{}}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("json.Unmarshal(%s) succeeded", bad)
		}
	}
}
