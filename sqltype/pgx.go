package sqltype

import (
	"fmt"

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

// idBytes is an ID, or NULL (nil), as a pgtype.BytesValuer only.
type idBytes struct{ b []byte }

// BytesValue returns the raw bytes of the ID, or nil for NULL.
func (v idBytes) BytesValue() ([]byte, error) { return v.b, nil }

// idText is an ID, or NULL, as a pgtype.TextValuer only.
type idText struct{ t pgtype.Text }

// TextValue returns the text form of the ID.
func (v idText) TextValue() (pgtype.Text, error) { return v.t, nil }

func tryWrapAsBytes(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	if v, ok := asBytes(value); ok {
		return &wrapPlan{convert: func(value any) any { v, _ := asBytes(value); return v }}, v, true
	}
	return nil, nil, false
}

func tryWrapAsText(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	if v, ok := asText(value); ok {
		return &wrapPlan{convert: func(value any) any { v, _ := asText(value); return v }}, v, true
	}
	return nil, nil, false
}

// asBytes returns the bytes form of an ID value, pointer or Null type.
func asBytes(value any) (idBytes, bool) {
	switch v := value.(type) {
	case ksuid.KSUID:
		return idBytes{v[:]}, true
	case *ksuid.KSUID:
		if v == nil {
			return idBytes{}, true
		}
		return idBytes{v[:]}, true
	case ksuid.NullKSUID:
		if !v.Valid {
			return idBytes{}, true
		}
		return idBytes{v.KSUID[:]}, true
	case objectid.ObjectID:
		return idBytes{v[:]}, true
	case *objectid.ObjectID:
		if v == nil {
			return idBytes{}, true
		}
		return idBytes{v[:]}, true
	case objectid.NullObjectID:
		if !v.Valid {
			return idBytes{}, true
		}
		return idBytes{v.ObjectID[:]}, true
	}
	return idBytes{}, false
}

// asText returns the text form of an ID value, pointer or Null type.
func asText(value any) (idText, bool) {
	var s fmt.Stringer
	switch v := value.(type) {
	case ksuid.KSUID, objectid.ObjectID:
		s = v.(fmt.Stringer)
	case *ksuid.KSUID:
		if v != nil {
			s = v
		}
	case *objectid.ObjectID:
		if v != nil {
			s = v
		}
	case ksuid.NullKSUID:
		if v.Valid {
			s = v.KSUID
		}
	case objectid.NullObjectID:
		if v.Valid {
			s = v.ObjectID
		}
	default:
		return idText{}, false
	}
	if s == nil {
		return idText{}, true
	}
	return idText{pgtype.Text{String: s.String(), Valid: true}}, true
}

// wrapPlan converts an ID before the next plan encodes it.
type wrapPlan struct {
	convert func(any) any
	next    pgtype.EncodePlan
}

func (p *wrapPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *wrapPlan) Encode(value any, buf []byte) ([]byte, error) {
	return p.next.Encode(p.convert(value), buf)
}
