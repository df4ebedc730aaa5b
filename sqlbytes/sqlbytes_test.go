package sqlbytes_test

import (
	"bytes"
	"database/sql/driver"
	"encoding/json"
	"errors"
	"testing"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqlbytes"
)

var (
	testKSUID    = ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	testObjectID = objectid.MustParse("60c468e6101bf215dc9fa835")
)

// rawBytes is what a driver receives from v.
func rawBytes(t *testing.T, v driver.Valuer) any {
	t.Helper()
	got, err := v.Value()
	if err != nil {
		t.Fatalf("%T.Value: %v", v, err)
	}
	return got
}

func TestValueIsRawBytes(t *testing.T) {
	want := []byte{0x05, 0xf5, 0xe1, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}
	for _, v := range []driver.Valuer{sqlbytes.KSUID(testKSUID), sqlbytes.NullKSUID{KSUID: testKSUID, Valid: true}} {
		if got, ok := rawBytes(t, v).([]byte); !ok || !bytes.Equal(got, want) {
			t.Errorf("%T.Value() = %#v, want the 20 bytes %x", v, rawBytes(t, v), want)
		}
	}
	wantOID := []byte{0x60, 0xc4, 0x68, 0xe6, 0x10, 0x1b, 0xf2, 0x15, 0xdc, 0x9f, 0xa8, 0x35}
	for _, v := range []driver.Valuer{sqlbytes.ObjectID(testObjectID), sqlbytes.NullObjectID{ObjectID: testObjectID, Valid: true}} {
		if got, ok := rawBytes(t, v).([]byte); !ok || !bytes.Equal(got, wantOID) {
			t.Errorf("%T.Value() = %#v, want the 12 bytes %x", v, rawBytes(t, v), wantOID)
		}
	}
	for _, v := range []driver.Valuer{sqlbytes.NullKSUID{}, sqlbytes.NullObjectID{}} {
		if got := rawBytes(t, v); got != nil {
			t.Errorf("%T{}.Value() = %#v, want nil (NULL)", v, got)
		}
	}
}

// TestValueDoesNotAlias: a driver may keep the slice; changing the
// variable afterwards must not change what was sent.
func TestValueDoesNotAlias(t *testing.T) {
	id := sqlbytes.KSUID(testKSUID)
	v, _ := id.Value()
	id[0] = 0xFF
	if v.([]byte)[0] != 0x05 {
		t.Errorf("Value's bytes changed with the variable: %x", v)
	}
}

func TestScanReadsEveryForm(t *testing.T) {
	for _, src := range []any{testKSUID[:], testKSUID.String(), `\x05f5e1000102030405060708090a0b0c0d0e0f10`} {
		var got sqlbytes.KSUID
		if err := got.Scan(src); err != nil || ksuid.KSUID(got) != testKSUID {
			t.Errorf("Scan(%q) = %v, %v; want %v", src, got, err, testKSUID)
		}
	}
	var oid sqlbytes.ObjectID
	if err := oid.Scan(testObjectID[:]); err != nil || objectid.ObjectID(oid) != testObjectID {
		t.Errorf("ObjectID Scan of 12 bytes = %v, %v", oid, err)
	}
	var n sqlbytes.NullKSUID
	if err := n.Scan(nil); err != nil || n.Valid {
		t.Errorf("NullKSUID Scan(nil) = %+v, %v; want not valid", n, err)
	}
	before := sqlbytes.KSUID(testKSUID)
	bad := before
	if err := bad.Scan([]byte{1, 2, 3}); !errors.Is(err, ksuid.ErrInvalidLength) || bad != before {
		t.Errorf("Scan of 3 bytes: %v, value %v; want ErrInvalidLength and no change", err, bad)
	}
}

func TestTextAndJSONAreTheIDs(t *testing.T) {
	type row struct {
		ID   sqlbytes.KSUID
		OID  sqlbytes.ObjectID
		Null sqlbytes.NullKSUID
	}
	in := row{sqlbytes.KSUID(testKSUID), sqlbytes.ObjectID(testObjectID), sqlbytes.NullKSUID{}}
	got, err := json.Marshal(in)
	want := `{"ID":"0qjBBlJIfbVLKwnJn4xpLGDr00e","OID":"60c468e6101bf215dc9fa835","Null":null}`
	if err != nil || string(got) != want {
		t.Fatalf("json.Marshal = %s, %v; want %s", got, err, want)
	}
	var back row
	if err := json.Unmarshal(got, &back); err != nil || back != in {
		t.Errorf("json.Unmarshal = %+v, %v; want %+v", back, err, in)
	}
	if s := sqlbytes.ObjectID(testObjectID).String(); s != "60c468e6101bf215dc9fa835" {
		t.Errorf("String = %s", s)
	}
}
