package sqltype_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
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

func TestUntypedParameterRefused(t *testing.T) {
	m := newMap()
	for _, oid := range []uint32{0, unregisteredOID} {
		for _, v := range untypedValues() {
			buf, err := m.Encode(oid, pgtype.TextFormatCode, v, nil)
			if !errors.Is(err, sqltype.ErrUntypedParameter) {
				t.Errorf("OID %d, %T: got %q, %v; want an error wrapping ErrUntypedParameter", oid, v, buf, err)
			}
		}
	}
	// NULL needs no type.
	for _, v := range []any{ksuid.NullKSUID{}, (*ksuid.KSUID)(nil), objectid.NullObjectID{}} {
		if buf, err := m.Encode(0, pgtype.TextFormatCode, v, nil); buf != nil || err != nil {
			t.Errorf("%T NULL: got %q, %v; want NULL", v, buf, err)
		}
	}
	// Strings and bytes are the caller's explicit choice, and pass.
	if buf, err := m.Encode(0, pgtype.TextFormatCode, testKSUID[:], nil); err != nil || string(buf) != `\x05f5e1000102030405060708090a0b0c0d0e0f10` {
		t.Errorf("id[:] untyped: %q, %v", buf, err)
	}
}

func TestRegisterByteaSendsHex(t *testing.T) {
	m := pgtype.NewMap()
	sqltype.RegisterBytea(m)
	kHex := `\x05f5e1000102030405060708090a0b0c0d0e0f10`
	oHex := `\x60c468e6101bf215dc9fa835`
	k, o := testKSUID, testObjectID
	tests := []struct {
		v    any
		want string
	}{
		{k, kHex}, {&k, kHex}, {ksuid.NullKSUID{KSUID: k, Valid: true}, kHex},
		{o, oHex}, {&o, oHex}, {objectid.NullObjectID{ObjectID: o, Valid: true}, oHex},
		{[]ksuid.KSUID{k, k}, `{"\` + kHex + `","\` + kHex + `"}`},
		{[]*ksuid.KSUID{&k, nil}, `{"\` + kHex + `",NULL}`},
		{[]objectid.NullObjectID{{}, {ObjectID: o, Valid: true}}, `{NULL,"\` + oHex + `"}`},
	}
	for _, oid := range []uint32{0, unregisteredOID} {
		for _, tt := range tests {
			buf, err := m.Encode(oid, pgtype.TextFormatCode, tt.v, nil)
			if err != nil || string(buf) != tt.want {
				t.Errorf("OID %d, %T: got %q, %v; want %q", oid, tt.v, buf, err, tt.want)
			}
		}
	}
	// Known column types keep their forms.
	if buf := encode(t, m, pgtype.TextOID, pgtype.TextFormatCode, k); string(buf) != k.String() {
		t.Errorf("text column: %q", buf)
	}
	if buf := encode(t, m, pgtype.ByteaOID, pgtype.BinaryFormatCode, k); !bytes.Equal(buf, k[:]) {
		t.Errorf("bytea column: %x", buf)
	}
}
