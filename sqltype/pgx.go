package sqltype

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// Register teaches m to encode sortid's ID types by the column type: raw
// bytes for bytea, text otherwise. Call it once per connection, before the
// connection is used.
func Register(m *pgtype.Map) {
	// pgx offers a value to each wrapper in turn until the codec of the
	// target column accepts what a wrapper makes of it. The bytes form
	// comes first, so bytea gets raw bytes in either format; text columns
	// refuse it and take the text form. Both go before pgx's own
	// wrappers, which would treat a KSUID as the array [20]byte that it is
	// underneath, or fall back to driver.Valuer.
	m.TryWrapEncodePlanFuncs = append([]pgtype.TryWrapEncodePlanFunc{tryWrapAsBytes, tryWrapAsText}, m.TryWrapEncodePlanFuncs...)
}

// AfterConnect registers the ID types on a new connection. It has the
// signature pgx wants for a hook, so one line does it for a pool,
//
//	cfg.AfterConnect = sqltype.AfterConnect
//
// and for database/sql over pgx's stdlib driver,
//
//	db := stdlib.OpenDB(connConfig, stdlib.OptionAfterConnect(sqltype.AfterConnect))
func AfterConnect(_ context.Context, conn *pgx.Conn) error {
	Register(conn.TypeMap())
	return nil
}

// idBytes is an ID, or NULL, as a pgtype.BytesValuer only. Each plan
// keeps one and refills it for every value it encodes, so that encoding
// allocates nothing: a plan belongs to one pgtype.Map, and pgx uses a Map
// from one goroutine at a time, as it does the connection that owns it.
type idBytes struct {
	buf  [ksuid.Size]byte
	n    int
	null bool
}

// BytesValue returns the raw bytes of the ID, or nil for NULL.
func (v *idBytes) BytesValue() ([]byte, error) {
	if v.null {
		return nil, nil
	}
	return v.buf[:v.n], nil
}

// set loads value into v; it reports false if value is not an ID.
func (v *idBytes) set(value any) bool {
	v.null = false
	switch id := value.(type) {
	case ksuid.KSUID:
		v.n = copy(v.buf[:], id[:])
	case *ksuid.KSUID:
		v.null = id == nil
		if id != nil {
			v.n = copy(v.buf[:], id[:])
		}
	case ksuid.NullKSUID:
		v.null = !id.Valid
		v.n = copy(v.buf[:], id.KSUID[:])
	case objectid.ObjectID:
		v.n = copy(v.buf[:], id[:])
	case *objectid.ObjectID:
		v.null = id == nil
		if id != nil {
			v.n = copy(v.buf[:], id[:])
		}
	case objectid.NullObjectID:
		v.null = !id.Valid
		v.n = copy(v.buf[:], id.ObjectID[:])
	default:
		return false
	}
	return true
}

// idText is an ID, or NULL, as a pgtype.TextValuer only; reused like
// idBytes.
type idText struct {
	bytes idBytes
}

// TextValue returns the text form of the ID.
func (v *idText) TextValue() (pgtype.Text, error) {
	b := &v.bytes
	switch {
	case b.null:
		return pgtype.Text{}, nil
	case b.n == ksuid.Size:
		return pgtype.Text{String: ksuid.KSUID(b.buf).String(), Valid: true}, nil
	default:
		return pgtype.Text{String: objectid.ObjectID(b.buf[:objectid.Size]).String(), Valid: true}, nil
	}
}

func tryWrapAsBytes(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	p := &bytesPlan{}
	if !p.v.set(value) {
		return nil, nil, false
	}
	return p, &p.v, true
}

func tryWrapAsText(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	p := &textPlan{}
	if !p.v.bytes.set(value) {
		return nil, nil, false
	}
	return p, &p.v, true
}

// bytesPlan hands its idBytes, loaded with each value, to the next plan.
type bytesPlan struct {
	v    idBytes
	next pgtype.EncodePlan
}

func (p *bytesPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *bytesPlan) Encode(value any, buf []byte) ([]byte, error) {
	p.v.set(value)
	return p.next.Encode(&p.v, buf)
}

// textPlan hands its idText, loaded with each value, to the next plan.
type textPlan struct {
	v    idText
	next pgtype.EncodePlan
}

func (p *textPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *textPlan) Encode(value any, buf []byte) ([]byte, error) {
	p.v.bytes.set(value)
	return p.next.Encode(&p.v, buf)
}
