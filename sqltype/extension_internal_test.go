package sqltype

import (
	"bytes"
	"database/sql"
	"errors"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype/internal/idkind"
)

// extensionOID stands for the OID the server gives the extension's ksuid.
const extensionOID = 91000

// extensionMap is a map with the ID types registered and a ksuid type of
// the extension, as AfterConnect leaves a connection to such a database.
func extensionMap() *pgtype.Map {
	m := pgtype.NewMap()
	Register(m)
	m.RegisterType(&pgtype.Type{Name: "public.ksuid", OID: extensionOID, Codec: extensionCodec{idkind.KSUID}})
	return m
}

func TestExtensionCodecEncode(t *testing.T) {
	m := extensionMap()
	id := ksuid.MustParse("0ujtsYcgvSTl8PAuAdqWYSMnLOv")
	raw := []byte{0x06, 0x69, 0xF7, 0xEF, 0xB5, 0xA1, 0xCD, 0x34, 0xB5, 0xF9, 0x9D, 0x11, 0x54, 0xFB, 0x68, 0x53, 0x34, 0x5C, 0x97, 0x35}
	for _, c := range []struct {
		name   string
		value  any
		format int16
		want   string // nil for NULL as ""
	}{
		{"KSUID binary", id, pgtype.BinaryFormatCode, string(raw)},
		{"pointer binary", &id, pgtype.BinaryFormatCode, string(raw)},
		{"Null binary", ksuid.NullKSUID{KSUID: id, Valid: true}, pgtype.BinaryFormatCode, string(raw)},
		{"[]byte binary", raw, pgtype.BinaryFormatCode, string(raw)},
		{"KSUID text", id, pgtype.TextFormatCode, "0ujtsYcgvSTl8PAuAdqWYSMnLOv"},
		{"[]byte text", raw, pgtype.TextFormatCode, "0ujtsYcgvSTl8PAuAdqWYSMnLOv"},
	} {
		got, err := m.Encode(extensionOID, c.format, c.value, nil)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: %q (%v), want %q", c.name, got, err, c.want)
		}
	}
	for _, c := range []struct {
		name  string
		value any
	}{
		{"invalid Null", ksuid.NullKSUID{}},
		{"nil pointer", (*ksuid.KSUID)(nil)},
	} {
		if got, err := m.Encode(extensionOID, pgtype.BinaryFormatCode, c.value, nil); err != nil || got != nil {
			t.Errorf("%s: %q (%v), want NULL", c.name, got, err)
		}
	}
	for _, c := range []struct {
		name  string
		value any
	}{
		{"an ObjectID", objectid.New()},
		{"19 bytes", raw[:19]},
		{"a bad string", "0ujtsYcgvSTl8PAuAdqWYSMnLO-"},
	} {
		if got, err := m.Encode(extensionOID, pgtype.BinaryFormatCode, c.value, nil); err == nil {
			t.Errorf("%s into a ksuid: %q, want an error", c.name, got)
		}
	}
	// A string in binary format (COPY asks for it) is parsed, never sent
	// as its own bytes.
	if got, err := m.Encode(extensionOID, pgtype.BinaryFormatCode, id.String(), nil); err != nil || !bytes.Equal(got, raw) {
		t.Errorf("a string in binary format: %x (%v)", got, err)
	}
}

func TestExtensionCodecScan(t *testing.T) {
	m := extensionMap()
	id := ksuid.New()
	for _, format := range []int16{pgtype.BinaryFormatCode, pgtype.TextFormatCode} {
		src := id[:]
		if format == pgtype.TextFormatCode {
			src = []byte(id.String())
		}
		var got ksuid.KSUID
		var null ksuid.NullKSUID
		var text string
		var b []byte
		var anyValue any
		var ns sql.NullString
		for _, target := range []any{&got, &null, &text, &b, &anyValue, &ns} {
			if err := m.Scan(extensionOID, format, src, target); err != nil {
				t.Fatalf("format %d into %T: %v", format, target, err)
			}
		}
		// A *[]byte gets the raw bytes in binary format; in text format
		// pgx itself hands it the text, before any codec is asked.
		wantBytes := id[:]
		if format == pgtype.TextFormatCode {
			wantBytes = []byte(id.String())
		}
		if got != id || null.KSUID != id || !null.Valid || text != id.String() || !bytes.Equal(b, wantBytes) ||
			anyValue != any(id) || ns.String != id.String() {
			t.Errorf("format %d: %s %v %q %x %v %q", format, got, null, text, b, anyValue, ns.String)
		}
		var oid objectid.ObjectID
		if err := m.Scan(extensionOID, format, src, &oid); err == nil {
			t.Errorf("format %d: a KSUID scanned into an ObjectID: %s", format, oid)
		}
	}
	var null ksuid.NullKSUID
	if err := m.Scan(extensionOID, pgtype.BinaryFormatCode, nil, &null); err != nil || null.Valid {
		t.Errorf("NULL: %v (%v)", null, err)
	}
	var got ksuid.KSUID
	if err := m.Scan(extensionOID, pgtype.BinaryFormatCode, []byte{1, 2, 3}, &got); err == nil {
		t.Errorf("3 bytes scanned: %s", got)
	}
	if err := m.Scan(extensionOID, pgtype.TextFormatCode, []byte("not a ksuid"), &got); !errors.Is(err, ksuid.ErrInvalidLength) {
		t.Errorf("bad text: %v, want ErrInvalidLength", err)
	}
}
