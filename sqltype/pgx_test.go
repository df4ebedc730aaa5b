package sqltype_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

var (
	testKSUID    = ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	testObjectID = objectid.MustParse("60c468e6101bf215dc9fa835")
)

func newMap() *pgtype.Map {
	m := pgtype.NewMap()
	sqltype.Register(m)
	return m
}

func encode(t *testing.T, m *pgtype.Map, oid uint32, format int16, v any) []byte {
	t.Helper()
	buf, err := m.Encode(oid, format, v, nil)
	if err != nil {
		t.Fatalf("Encode(oid %d, format %d, %T): %v", oid, format, v, err)
	}
	return buf
}

func TestEncodeByColumnType(t *testing.T) {
	m := newMap()
	kText, oText := []byte(testKSUID.String()), []byte(testObjectID.String())
	tests := []struct {
		name   string
		oid    uint32
		format int16
		value  any
		want   []byte
	}{
		{"ksuid pointer", pgtype.TextOID, pgtype.BinaryFormatCode, &testKSUID, kText},
		{"nil ksuid pointer", pgtype.TextOID, pgtype.BinaryFormatCode, (*ksuid.KSUID)(nil), nil},
		{"zero ksuid is a value", pgtype.TextOID, pgtype.BinaryFormatCode, ksuid.KSUID{}, []byte("000000000000000000000000000")},
		{"objectid text", pgtype.TextOID, pgtype.BinaryFormatCode, testObjectID, oText},
		{"ksuid text binary", pgtype.TextOID, pgtype.BinaryFormatCode, testKSUID, kText},
		{"ksuid text text", pgtype.TextOID, pgtype.TextFormatCode, testKSUID, kText},
		{"ksuid char", pgtype.BPCharOID, pgtype.BinaryFormatCode, testKSUID, kText},
		{"ksuid varchar", pgtype.VarcharOID, pgtype.BinaryFormatCode, testKSUID, kText},
		{"null ksuid valid text", pgtype.TextOID, pgtype.BinaryFormatCode, ksuid.NullKSUID{KSUID: testKSUID, Valid: true}, kText},
		{"null ksuid text", pgtype.TextOID, pgtype.BinaryFormatCode, ksuid.NullKSUID{}, nil},
		{"ksuid pointer text", pgtype.TextOID, pgtype.TextFormatCode, &testKSUID, kText},
		{"null ksuid unknown type", 0, pgtype.TextFormatCode, ksuid.NullKSUID{}, nil},
		{"objectid char", pgtype.BPCharOID, pgtype.BinaryFormatCode, testObjectID, oText},
		{"null objectid valid", pgtype.TextOID, pgtype.TextFormatCode, objectid.NullObjectID{ObjectID: testObjectID, Valid: true}, oText},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encode(t, m, tt.oid, tt.format, tt.value)
			if !bytes.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// TestByteaIsRefused: an ID for a bytea parameter, or in a bytea[]
// one, is an error wrapping ErrByteaParameter in both formats, with
// Register: the column's bytes may be the raw ID or its text, and the
// query mode would pick one. []byte goes as it is.
func TestByteaIsRefused(t *testing.T) {
	m := newMap()
	values := []any{testKSUID, &testKSUID, ksuid.NullKSUID{KSUID: testKSUID, Valid: true}, ksuid.NullKSUID{},
		testObjectID, objectid.NullObjectID{}, testUUID, uuidv7.NullUUID{UUID: testUUID, Valid: true}}
	for _, format := range []int16{pgtype.BinaryFormatCode, pgtype.TextFormatCode} {
		for _, v := range values {
			if got, err := m.Encode(pgtype.ByteaOID, format, v, nil); !errors.Is(err, sqltype.ErrByteaParameter) {
				t.Errorf("format %d, %T %v for bytea: %q, %v; want ErrByteaParameter", format, v, v, got, err)
			}
		}
		for _, v := range []any{[]ksuid.KSUID{testKSUID}, []*ksuid.KSUID{&testKSUID}, []objectid.ObjectID{testObjectID}, []uuidv7.UUID{testUUID}} {
			if got, err := m.Encode(pgtype.ByteaArrayOID, format, v, nil); !errors.Is(err, sqltype.ErrByteaParameter) {
				t.Errorf("format %d, %T for bytea[]: %q, %v; want ErrByteaParameter", format, v, got, err)
			}
		}
		if got, err := m.Encode(pgtype.ByteaOID, format, testKSUID[:], nil); err != nil || (format == pgtype.BinaryFormatCode && !bytes.Equal(got, testKSUID[:])) {
			t.Errorf("format %d, id[:] for bytea: %q, %v; want the raw bytes", format, got, err)
		}
	}
	_, err := m.Encode(pgtype.ByteaOID, pgtype.BinaryFormatCode, testKSUID, nil)
	if err == nil || !strings.Contains(err.Error(), "ksuid.KSUID "+testKSUID.String()) || !strings.Contains(err.Error(), "id[:]") {
		t.Errorf("the error does not name the ID and the way out: %v", err)
	}
}

func TestEncodeArrays(t *testing.T) {
	m := newMap()
	next, _ := testKSUID.Next()
	ids := []ksuid.KSUID{testKSUID, next}

	buf := encode(t, m, pgtype.TextArrayOID, pgtype.BinaryFormatCode, ids)
	var texts []string
	if err := m.Scan(pgtype.TextArrayOID, pgtype.BinaryFormatCode, buf, &texts); err != nil {
		t.Fatal(err)
	}
	if len(texts) != 2 || texts[0] != ids[0].String() || texts[1] != ids[1].String() {
		t.Errorf("text[] holds %q", texts)
	}

}

func TestScan(t *testing.T) {
	m := newMap()
	for _, tc := range []struct {
		name   string
		oid    uint32
		format int16
		src    []byte
	}{
		{"bytea binary", pgtype.ByteaOID, pgtype.BinaryFormatCode, testKSUID.Bytes()},
		{"bytea text", pgtype.ByteaOID, pgtype.TextFormatCode, []byte(`\x` + hex.EncodeToString(testKSUID.Bytes()))},
		{"text", pgtype.TextOID, pgtype.TextFormatCode, []byte(testKSUID.String())},
		{"text binary", pgtype.TextOID, pgtype.BinaryFormatCode, []byte(testKSUID.String())},
		{"char", pgtype.BPCharOID, pgtype.TextFormatCode, []byte(testKSUID.String())},
	} {
		var id ksuid.KSUID
		if err := m.Scan(tc.oid, tc.format, tc.src, &id); err != nil || id != testKSUID {
			t.Errorf("%s: scanned %v, %v", tc.name, id, err)
		}
		var n ksuid.NullKSUID
		if err := m.Scan(tc.oid, tc.format, tc.src, &n); err != nil || !n.Valid || n.KSUID != testKSUID {
			t.Errorf("%s: scanned %+v, %v", tc.name, n, err)
		}
	}

	keep := testKSUID
	if err := m.Scan(pgtype.ByteaOID, pgtype.BinaryFormatCode, make([]byte, 19), &keep); !errors.Is(err, ksuid.ErrInvalidLength) || keep != testKSUID {
		t.Errorf("19-byte bytea: %v, destination %v", err, keep)
	}
	if err := m.Scan(pgtype.TextOID, pgtype.TextFormatCode, []byte("0qjBBlJIfbVLK-nJn4xpLGDr00e"), &keep); !errors.Is(err, ksuid.ErrInvalidCharacter) || keep != testKSUID {
		t.Errorf("bad text: %v, destination %v", err, keep)
	}
	if err := m.Scan(pgtype.ByteaOID, pgtype.BinaryFormatCode, nil, &keep); !errors.Is(err, ksuid.ErrNull) || keep != testKSUID {
		t.Errorf("NULL into KSUID: %v, destination %v", err, keep)
	}
	n := ksuid.NullKSUID{KSUID: testKSUID, Valid: true}
	if err := m.Scan(pgtype.ByteaOID, pgtype.BinaryFormatCode, nil, &n); err != nil || n.Valid {
		t.Errorf("NULL into NullKSUID: %+v, %v", n, err)
	}
	var p *ksuid.KSUID = &keep
	if err := m.Scan(pgtype.ByteaOID, pgtype.BinaryFormatCode, nil, &p); err != nil || p != nil {
		t.Errorf("NULL into *KSUID: %v, %v", p, err)
	}
	var oid objectid.ObjectID
	if err := m.Scan(pgtype.ByteaOID, pgtype.BinaryFormatCode, testObjectID.Bytes(), &oid); err != nil || oid != testObjectID {
		t.Errorf("ObjectID from bytea: %v, %v", oid, err)
	}
}
