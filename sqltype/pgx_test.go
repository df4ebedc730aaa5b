package sqltype_test

import (
	"bytes"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
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
	kRaw, oRaw := testKSUID.Bytes(), testObjectID.Bytes()
	kText, oText := []byte(testKSUID.String()), []byte(testObjectID.String())
	kHex := []byte(`\x` + hex.EncodeToString(kRaw))
	oHex := []byte(`\x` + hex.EncodeToString(oRaw))
	tests := []struct {
		name   string
		oid    uint32
		format int16
		value  any
		want   []byte
	}{
		{"ksuid bytea binary", pgtype.ByteaOID, pgtype.BinaryFormatCode, testKSUID, kRaw},
		{"ksuid bytea text", pgtype.ByteaOID, pgtype.TextFormatCode, testKSUID, kHex},
		{"ksuid text binary", pgtype.TextOID, pgtype.BinaryFormatCode, testKSUID, kText},
		{"ksuid text text", pgtype.TextOID, pgtype.TextFormatCode, testKSUID, kText},
		{"ksuid char", pgtype.BPCharOID, pgtype.BinaryFormatCode, testKSUID, kText},
		{"ksuid varchar", pgtype.VarcharOID, pgtype.BinaryFormatCode, testKSUID, kText},
		{"ksuid pointer", pgtype.ByteaOID, pgtype.BinaryFormatCode, &testKSUID, kRaw},
		{"null ksuid valid", pgtype.ByteaOID, pgtype.BinaryFormatCode, ksuid.NullKSUID{KSUID: testKSUID, Valid: true}, kRaw},
		{"null ksuid valid text", pgtype.TextOID, pgtype.BinaryFormatCode, ksuid.NullKSUID{KSUID: testKSUID, Valid: true}, kText},
		{"null ksuid", pgtype.ByteaOID, pgtype.BinaryFormatCode, ksuid.NullKSUID{}, nil},
		{"null ksuid text", pgtype.TextOID, pgtype.BinaryFormatCode, ksuid.NullKSUID{}, nil},
		{"nil ksuid pointer", pgtype.ByteaOID, pgtype.BinaryFormatCode, (*ksuid.KSUID)(nil), nil},
		{"ksuid pointer text", pgtype.TextOID, pgtype.TextFormatCode, &testKSUID, kText},
		{"null ksuid unknown type", 0, pgtype.TextFormatCode, ksuid.NullKSUID{}, nil},
		{"objectid pointer", pgtype.ByteaOID, pgtype.BinaryFormatCode, &testObjectID, oRaw},
		{"zero ksuid is a value", pgtype.ByteaOID, pgtype.BinaryFormatCode, ksuid.KSUID{}, make([]byte, 20)},
		{"objectid bytea binary", pgtype.ByteaOID, pgtype.BinaryFormatCode, testObjectID, oRaw},
		{"objectid bytea text", pgtype.ByteaOID, pgtype.TextFormatCode, testObjectID, oHex},
		{"objectid char", pgtype.BPCharOID, pgtype.BinaryFormatCode, testObjectID, oText},
		{"null objectid", pgtype.ByteaOID, pgtype.BinaryFormatCode, objectid.NullObjectID{}, nil},
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

// TestWithoutRegister pins down what pgx does with the IDs on its own:
// their BytesValue methods give it the raw bytes for bytea, alone, as
// Null types and in arrays. What it cannot know without AfterConnect are
// the OIDs of the ksuid and objectid domains.
func TestWithoutRegister(t *testing.T) {
	m := pgtype.NewMap()
	if got, err := m.Encode(pgtype.ByteaOID, pgtype.BinaryFormatCode, testKSUID, nil); err != nil || !bytes.Equal(got, testKSUID[:]) {
		t.Errorf("a KSUID for bytea without Register: %q, %v; want its 20 bytes", got, err)
	}
	if got, err := m.Encode(pgtype.ByteaOID, pgtype.BinaryFormatCode, ksuid.NullKSUID{KSUID: testKSUID, Valid: true}, nil); err != nil || !bytes.Equal(got, testKSUID[:]) {
		t.Errorf("a NullKSUID for bytea without Register: %q, %v; want its 20 bytes", got, err)
	}
	if got, err := m.Encode(pgtype.ByteaOID, pgtype.BinaryFormatCode, ksuid.NullKSUID{}, nil); err != nil || got != nil {
		t.Errorf("a NULL NullKSUID for bytea without Register: %q, %v; want NULL", got, err)
	}
	var back [][]byte
	if got, err := m.Encode(pgtype.ByteaArrayOID, pgtype.BinaryFormatCode, []ksuid.KSUID{testKSUID}, nil); err != nil {
		t.Errorf("[]ksuid.KSUID for bytea[] without Register: %v", err)
	} else if err := m.Scan(pgtype.ByteaArrayOID, pgtype.BinaryFormatCode, got, &back); err != nil || len(back) != 1 || !bytes.Equal(back[0], testKSUID[:]) {
		t.Errorf("[]ksuid.KSUID for bytea[] without Register reads back as %x, %v", back, err)
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

	buf = encode(t, m, pgtype.ByteaArrayOID, pgtype.BinaryFormatCode, ids)
	var raws [][]byte
	if err := m.Scan(pgtype.ByteaArrayOID, pgtype.BinaryFormatCode, buf, &raws); err != nil {
		t.Fatal(err)
	}
	if len(raws) != 2 || !bytes.Equal(raws[0], ids[0][:]) || !bytes.Equal(raws[1], ids[1][:]) {
		t.Errorf("bytea[] holds %x", raws)
	}

	oids := []objectid.ObjectID{testObjectID}
	buf = encode(t, m, pgtype.ByteaArrayOID, pgtype.BinaryFormatCode, oids)
	if err := m.Scan(pgtype.ByteaArrayOID, pgtype.BinaryFormatCode, buf, &raws); err != nil || len(raws) != 1 || !bytes.Equal(raws[0], testObjectID[:]) {
		t.Errorf("bytea[] of ObjectIDs holds %x, %v", raws, err)
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
