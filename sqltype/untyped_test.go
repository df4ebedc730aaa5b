package sqltype_test

import (
	"bytes"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// An unregistered OID stands for a ksuid domain installed after the
// connection was made: pgx knows neither it nor OID 0, the type of every
// parameter in QueryExecModeExec and the simple protocol.
const unregisteredOID = 424242

func untypedValues() []any {
	k, o := testKSUID, testObjectID
	return []any{
		k, &k, ksuid.NullKSUID{KSUID: k, Valid: true},
		o, &o, objectid.NullObjectID{ObjectID: o, Valid: true},
		[]ksuid.KSUID{k}, []*ksuid.KSUID{&k}, []ksuid.NullKSUID{{KSUID: k, Valid: true}},
		[]objectid.ObjectID{o}, []*objectid.ObjectID{&o}, []objectid.NullObjectID{{ObjectID: o, Valid: true}},
	}
}

// Where pgx does not know a parameter's type, an ID goes as its text and
// a slice of IDs as an array of texts: what every column type sortid
// makes reads, and what the IDs' driver.Valuer gives without the hook.
func TestUntypedParameterIsText(t *testing.T) {
	m := newMap()
	const k, o = "0qjBBlJIfbVLKwnJn4xpLGDr00e", "60c468e6101bf215dc9fa835"
	want := []string{
		k, k, k,
		o, o, o,
		"{" + k + "}", "{" + k + "}", "{" + k + "}",
		"{" + o + "}", "{" + o + "}", "{" + o + "}",
	}
	for _, oid := range []uint32{0, unregisteredOID} {
		for i, v := range untypedValues() {
			buf, err := m.Encode(oid, pgtype.TextFormatCode, v, nil)
			if err != nil || string(buf) != want[i] {
				t.Errorf("OID %d, %T: got %q, %v; want %q", oid, v, buf, err, want[i])
			}
		}
	}
	// NULL is NULL, alone and in an array.
	for _, v := range []any{ksuid.NullKSUID{}, (*ksuid.KSUID)(nil), objectid.NullObjectID{}} {
		if buf, err := m.Encode(0, pgtype.TextFormatCode, v, nil); buf != nil || err != nil {
			t.Errorf("%T NULL: got %q, %v; want NULL", v, buf, err)
		}
	}
	kk := testKSUID
	if buf, err := m.Encode(0, pgtype.TextFormatCode, []*ksuid.KSUID{&kk, nil}, nil); err != nil || string(buf) != "{"+k+",NULL}" {
		t.Errorf("[]*ksuid.KSUID with a nil: %q, %v", buf, err)
	}
	// Known column types keep their forms.
	if buf := encode(t, m, pgtype.TextOID, pgtype.TextFormatCode, testKSUID); string(buf) != k {
		t.Errorf("text column: %q", buf)
	}
	if buf := encode(t, m, pgtype.UUIDOID, pgtype.BinaryFormatCode, testUUID); !bytes.Equal(buf, testUUID[:]) {
		t.Errorf("uuid column: %x", buf)
	}
}
