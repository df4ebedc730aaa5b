package sqltype

import (
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgtype"
)

// ErrByteaParameter is wrapped by the error of a query or copy that
// gives an ID type (ksuid.KSUID, objectid.ObjectID, uuidv7.UUID, their
// Null types, pointers and slices of them) to a bytea parameter on a
// connection with Register or AfterConnect.
//
// A bytea column has no one form of an ID: another tool may have stored
// the raw bytes (segmentio/ksuid's Bytes()) or the text's bytes, and pgx
// would send the raw bytes where it knows the parameter's type but the
// text where it does not (QueryExecModeExec, the simple protocol), so the
// same statement would match other rows in another mode. Say which form
// the column holds: id[:] for the raw bytes, id.String() for the text.
// Better, convert the column to the ID's type (docs/postgresql.md).
var ErrByteaParameter = errors.New("an ID type for a bytea parameter")

// registerByteaGuard makes m refuse the ID types for bytea and bytea[]
// parameters, with pgx's own codec for everything else.
func registerByteaGuard(m *pgtype.Map) {
	bytea, ok := m.TypeForOID(pgtype.ByteaOID)
	if !ok {
		return
	}
	guarded := &pgtype.Type{Name: bytea.Name, OID: bytea.OID, Codec: byteaGuard{bytea.Codec}}
	m.RegisterType(guarded)
	m.RegisterType(&pgtype.Type{Name: "_bytea", OID: pgtype.ByteaArrayOID, Codec: &pgtype.ArrayCodec{ElementType: guarded}})
}

// byteaGuard is pgx's bytea codec with one change: it will not encode
// an ID type. pgx asks a parameter's codec before its own fallbacks
// (the ID's BytesValue once, now driver.Valuer's text), so the refusal
// here comes first in every mode that knows the parameter's type and in
// CopyFrom; an array's elements come here too.
type byteaGuard struct {
	pgtype.Codec
}

func (g byteaGuard) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	var probe idBytes
	if probe.set(value) {
		return byteaRefusal{}
	}
	return g.Codec.PlanEncode(m, oid, format, value)
}

// byteaRefusal is the plan for an ID and a bytea parameter: an error
// every time, which names the value.
type byteaRefusal struct{}

func (byteaRefusal) Encode(value any, buf []byte) ([]byte, error) {
	var v idBytes
	v.set(value)
	shown := "NULL"
	if !v.null {
		shown = v.kind.FormatText(v.buf[:v.n])
	}
	return nil, fmt.Errorf("sqltype: %T %s: %w, whose column may hold the %d raw bytes or the text: pass id[:] or id.String() as it holds, or convert the column to %s",
		value, shown, ErrByteaParameter, v.kind.Size, v.kind.PGType)
}
