package sqltype_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// The RFC 9562 example, its bytes and text written out by hand.
var (
	testUUID     = uuidv7.MustParse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
	testUUIDRaw  = []byte{0x01, 0x7F, 0x22, 0xE2, 0x79, 0xB0, 0x7C, 0xC3, 0x98, 0xC4, 0xDC, 0x0C, 0x0C, 0x07, 0x39, 0x8F}
	testUUIDText = "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"
)

// A UUIDv7 takes the form of the column: 16 bytes for uuid in binary, the text form for uuid in text and for text columns, and the
// text form where the type is unknown, because PostgreSQL reads that as
// the same UUID in a uuid column.
func TestUUIDEncodeByColumnType(t *testing.T) {
	u := testUUID
	for _, register := range []func(*pgtype.Map){sqltype.Register} {
		m := pgtype.NewMap()
		register(m)
		for _, tc := range []struct {
			name   string
			oid    uint32
			format int16
			value  any
			want   []byte
		}{
			{"uuid binary", pgtype.UUIDOID, pgtype.BinaryFormatCode, u, testUUIDRaw},
			{"uuid text", pgtype.UUIDOID, pgtype.TextFormatCode, u, []byte(testUUIDText)},
			{"uuid pointer", pgtype.UUIDOID, pgtype.BinaryFormatCode, &u, testUUIDRaw},
			{"uuid Null", pgtype.UUIDOID, pgtype.BinaryFormatCode, uuidv7.NullUUID{UUID: u, Valid: true}, testUUIDRaw},
			{"uuid NULL", pgtype.UUIDOID, pgtype.BinaryFormatCode, uuidv7.NullUUID{}, nil},
			{"uuid nil pointer", pgtype.UUIDOID, pgtype.BinaryFormatCode, (*uuidv7.UUID)(nil), nil},
			{"text", pgtype.TextOID, pgtype.BinaryFormatCode, u, []byte(testUUIDText)},
			{"varchar text", pgtype.VarcharOID, pgtype.TextFormatCode, u, []byte(testUUIDText)},
			{"untyped", 0, pgtype.TextFormatCode, u, []byte(testUUIDText)},
			{"untyped pointer", 0, pgtype.TextFormatCode, &u, []byte(testUUIDText)},
			{"untyped Null", 0, pgtype.TextFormatCode, uuidv7.NullUUID{UUID: u, Valid: true}, []byte(testUUIDText)},
			{"untyped NULL", 0, pgtype.TextFormatCode, uuidv7.NullUUID{}, nil},
			{"untyped slice", 0, pgtype.TextFormatCode, []uuidv7.UUID{u, u}, []byte("{" + testUUIDText + "," + testUUIDText + "}")},
			{"untyped pointers", 0, pgtype.TextFormatCode, []*uuidv7.UUID{&u, nil}, []byte("{" + testUUIDText + ",NULL}")},
			{"unregistered type", unregisteredOID, pgtype.TextFormatCode, u, []byte(testUUIDText)},
		} {
			got, err := m.Encode(tc.oid, tc.format, tc.value, nil)
			if err != nil || !bytes.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
				t.Errorf("%s: got %q, %v; want %q", tc.name, got, err, tc.want)
			}
		}
		var back [][16]byte
		buf := encode(t, m, pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, []uuidv7.UUID{u})
		if err := m.Scan(pgtype.UUIDArrayOID, pgtype.BinaryFormatCode, buf, &back); err != nil || len(back) != 1 || !bytes.Equal(back[0][:], testUUIDRaw) {
			t.Errorf("uuid[] holds %x, %v", back, err)
		}
	}
}

// Scanning needs no registration: pgx hands the uuid to UUID.Scan as
// text, which checks the version.
func TestUUIDScan(t *testing.T) {
	m := newMap()
	var id uuidv7.UUID
	if err := m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, testUUIDRaw, &id); err != nil || id != testUUID {
		t.Errorf("uuid binary: %v, %v", id, err)
	}
	v4 := bytes.Clone(testUUIDRaw)
	v4[6] = 0x4C
	keep := testUUID
	if err := m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, v4, &keep); !errors.Is(err, uuidv7.ErrVersion) || keep != testUUID {
		t.Errorf("a v4 uuid: %v, destination %v", err, keep)
	}
	var n uuidv7.NullUUID
	if err := m.Scan(pgtype.UUIDOID, pgtype.BinaryFormatCode, nil, &n); err != nil || n.Valid {
		t.Errorf("NULL into NullUUID: %+v, %v", n, err)
	}
	if err := m.Scan(pgtype.UUIDOID, pgtype.TextFormatCode, []byte(testUUIDText), &n); err != nil || !n.Valid || n.UUID != testUUID {
		t.Errorf("uuid text into NullUUID: %+v, %v", n, err)
	}
}
