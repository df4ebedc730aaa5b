package sqltype

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"reflect"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype/internal/idkind"
)

// extensionCodec is the codec of the sortid extension's base types ksuid
// and objectid: raw bytes in binary format, the ID's text form in text
// format (which the types' input functions also read as \x and hex
// digits). It encodes the ID types of its kind, []byte of the ID's size
// and strings in the text form, and scans into the ID types (any
// sql.Scanner), strings, []byte (the raw bytes) and any.
type extensionCodec struct {
	kind *idkind.Kind
}

func (extensionCodec) FormatSupported(format int16) bool {
	return format == pgtype.BinaryFormatCode || format == pgtype.TextFormatCode
}

func (extensionCodec) PreferredFormat() int16 { return pgtype.BinaryFormatCode }

func (c extensionCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	switch value.(type) {
	case []byte, string:
		return &extensionEncodePlan{kind: c.kind, format: format}
	}
	var probe idBytes
	if !probe.set(value) {
		return nil
	}
	return &extensionEncodePlan{kind: c.kind, format: format}
}

// extensionEncodePlan encodes for one of the extension's types. Like the
// other plans it keeps an idBytes and refills it for every value, so that
// an ID in binary format allocates nothing.
type extensionEncodePlan struct {
	kind   *idkind.Kind
	format int16
	v      idBytes
}

func (p *extensionEncodePlan) Encode(value any, buf []byte) ([]byte, error) {
	var raw []byte
	switch value := value.(type) {
	case []byte:
		if value == nil {
			return nil, nil
		}
		if len(value) != p.kind.Size {
			return nil, fmt.Errorf("sqltype: a %d-byte []byte for a %s column, which holds %d bytes", len(value), p.kind.PGType, p.kind.Size)
		}
		raw = value
	case string:
		b, err := p.kind.ParseText(value)
		if err != nil {
			return nil, fmt.Errorf("sqltype: a string for a %s column: %w", p.kind.PGType, err)
		}
		raw = b
	default:
		p.v.set(value)
		if p.v.null {
			return nil, nil
		}
		if p.v.kind != p.kind {
			return nil, fmt.Errorf("sqltype: a %T for a %s column, which holds %s IDs", value, p.kind.PGType, p.kind.Name)
		}
		raw = p.v.buf[:p.v.n]
	}
	if p.format == pgtype.BinaryFormatCode {
		return append(buf, raw...), nil
	}
	return append(buf, p.kind.FormatText(raw)...), nil
}

func (c extensionCodec) PlanScan(m *pgtype.Map, oid uint32, format int16, target any) pgtype.ScanPlan {
	switch target.(type) {
	case sql.Scanner, *string, *[]byte, *any, pgtype.TextScanner:
		return extensionScanPlan{c.kind, format}
	}
	return nil
}

type extensionScanPlan struct {
	kind   *idkind.Kind
	format int16
}

// raw returns the ID's bytes from src in the plan's format.
func (p extensionScanPlan) raw(src []byte) ([]byte, error) {
	if p.format == pgtype.BinaryFormatCode {
		if len(src) != p.kind.Size {
			return nil, fmt.Errorf("sqltype: %d bytes from a %s column, which holds %d", len(src), p.kind.PGType, p.kind.Size)
		}
		return src, nil
	}
	b, err := p.kind.ParseText(string(src))
	if err != nil {
		return nil, fmt.Errorf("sqltype: reading a %s column: %w", p.kind.PGType, err)
	}
	return b, nil
}

func (p extensionScanPlan) Scan(src []byte, target any) error {
	if src == nil {
		switch target := target.(type) {
		case sql.Scanner:
			return target.Scan(nil)
		case *[]byte:
			*target = nil
			return nil
		case *any:
			*target = nil
			return nil
		case pgtype.TextScanner:
			return target.ScanText(pgtype.Text{})
		}
		return fmt.Errorf("sqltype: NULL from a %s column into %T, which cannot hold NULL", p.kind.PGType, target)
	}
	raw, err := p.raw(src)
	if err != nil {
		return err
	}
	switch target := target.(type) {
	// The ID types of the column's kind take the bytes directly: through
	// Scan, the []byte would be boxed into an any, an allocation per row.
	case *ksuid.KSUID:
		if p.kind == idkind.KSUID {
			*target = ksuid.KSUID(raw)
			return nil
		}
		return target.Scan(p.kind.FormatText(raw)) // another kind's text: refused with the type's error
	case *ksuid.NullKSUID:
		if p.kind == idkind.KSUID {
			*target = ksuid.NullKSUID{KSUID: ksuid.KSUID(raw), Valid: true}
			return nil
		}
		return target.Scan(p.kind.FormatText(raw))
	case *objectid.ObjectID:
		if p.kind == idkind.ObjectID {
			*target = objectid.ObjectID(raw)
			return nil
		}
		return target.Scan(p.kind.FormatText(raw))
	case *objectid.NullObjectID:
		if p.kind == idkind.ObjectID {
			*target = objectid.NullObjectID{ObjectID: objectid.ObjectID(raw), Valid: true}
			return nil
		}
		return target.Scan(p.kind.FormatText(raw))
	case *string:
		*target = p.kind.FormatText(raw)
	case *[]byte:
		*target = append((*target)[:0:0], raw...)
	case *any:
		*target = newID(p.kind, raw)
	case pgtype.TextScanner:
		return target.ScanText(pgtype.Text{String: p.kind.FormatText(raw), Valid: true})
	case sql.Scanner:
		// Any other Scanner (sql.NullString, another kind's ID, which
		// then refuses it) gets the text form, as database/sql would
		// give it.
		return target.Scan(p.kind.FormatText(raw))
	}
	return nil
}

// newID returns the ID of kind with bytes raw, as a value of its Go type.
func newID(kind *idkind.Kind, raw []byte) any {
	v := reflect.New(kind.Type).Elem()
	reflect.Copy(v, reflect.ValueOf(raw))
	return v.Interface()
}

// DecodeDatabaseSQLValue gives database/sql the text form, which the ID
// types' Scan reads, as does a *string.
func (c extensionCodec) DecodeDatabaseSQLValue(m *pgtype.Map, oid uint32, format int16, src []byte) (driver.Value, error) {
	if src == nil {
		return nil, nil
	}
	raw, err := extensionScanPlan{c.kind, format}.raw(src)
	if err != nil {
		return nil, err
	}
	return c.kind.FormatText(raw), nil
}

// DecodeValue gives rows.Values the ID as a value of its Go type.
func (c extensionCodec) DecodeValue(m *pgtype.Map, oid uint32, format int16, src []byte) (any, error) {
	if src == nil {
		return nil, nil
	}
	raw, err := extensionScanPlan{c.kind, format}.raw(src)
	if err != nil {
		return nil, err
	}
	return newID(c.kind, raw), nil
}
