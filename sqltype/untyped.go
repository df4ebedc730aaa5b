package sqltype

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/internal/idkind"
)

// ErrUntypedParameter is wrapped by the error for an ID parameter whose
// column type pgx does not know: every parameter in QueryExecModeExec and
// the simple protocol, and one of a type the connection has not
// registered (a ksuid domain installed after it connected). PostgreSQL
// types such a parameter from where it stands, so no one form of the ID
// is right for every column: the text form is right for a text column
// and, in a ksuid, objectid or bytea column, is read as 27 (24) bytes that
// no row holds; bytea's \x form is the other way round. Rather than
// match the wrong rows, Register refuses the ID; AfterConnectBytea sends
// the \x form where every ID column is binary.
var ErrUntypedParameter = errors.New("sqltype: ID parameter of unknown column type")

// untypedOID is the OID of the placeholder type that Register names for
// the ID types' values, which pgx consults only where it does not know
// the parameter's type. PostgreSQL hands out OIDs upwards from 16384, and
// reaches this one only after some four billion objects; should a real
// type ever have it, a parameter of that type refuses IDs too, loudly.
const untypedOID = 0xFFFF_FF00

// registerUntyped makes pgx consult codec for an ID parameter of unknown
// type, and an array of it for slices of IDs.
func registerUntyped(m *pgtype.Map, codec pgtype.Codec) {
	elem := &pgtype.Type{Name: "sortid_untyped_id", OID: untypedOID, Codec: codec}
	m.RegisterType(elem)
	m.RegisterType(&pgtype.Type{Name: "_sortid_untyped_id", OID: untypedOID + 1, Codec: &pgtype.ArrayCodec{ElementType: elem}})
	// A UUIDv7 needs no refusal: PostgreSQL reads its text form as the
	// same UUID in a uuid column and keeps it as is in a text one, the
	// two types that hold UUIDs. Untyped, it goes as that text form.
	// (A bytea column of UUIDs would read it as 36 other bytes; use uuid.)
	for _, k := range idkind.All {
		name := elem.Name
		if k.PGType == "uuid" {
			name = "uuid"
		}
		for _, t := range []reflect.Type{k.Type, reflect.PointerTo(k.Type), k.Null} {
			m.RegisterDefaultPgType(reflect.Zero(t).Interface(), name)
			m.RegisterDefaultPgType(reflect.Zero(reflect.SliceOf(t)).Interface(), "_"+name)
		}
	}
}

// refuseCodec is the codec of Register's placeholder type: every ID it is
// asked to encode is an ErrUntypedParameter error, NULL is NULL, and other
// values it leaves to pgx.
type refuseCodec struct{ pgtype.ByteaCodec }

func (refuseCodec) PlanEncode(m *pgtype.Map, oid uint32, format int16, value any) pgtype.EncodePlan {
	var probe idBytes
	if !probe.set(value) {
		return nil
	}
	return refusePlan{}
}

type refusePlan struct{}

func (refusePlan) Encode(value any, buf []byte) ([]byte, error) {
	var v idBytes
	v.set(value)
	if v.null {
		return nil, nil
	}
	return nil, fmt.Errorf("%w (%T): PostgreSQL reads an untyped parameter by the column it meets, "+
		"so pass id[:] for a ksuid, objectid or bytea column and id.String() for a text one, "+
		"or use sqltype.AfterConnectBytea; a domain installed after connecting needs a new connection",
		ErrUntypedParameter, value)
}

// RegisterBytea is Register for a database whose ID columns are all of
// the ksuid or objectid domains or bytea: an ID parameter of a type pgx
// does not know (QueryExecModeExec, the simple protocol, a domain
// installed after the connection was made) goes as bytea's \x form, which
// PostgreSQL reads as the ID's bytes there, instead of being refused.
//
// A text column compared with or written from such a parameter gets the
// \x form: it misses its rows, or stores a second format. Use it only
// where no ID column is text.
func RegisterBytea(m *pgtype.Map) {
	register(m, pgtype.ByteaCodec{})
}

// AfterConnectBytea is AfterConnect with RegisterBytea in place of
// Register, for pools in QueryExecModeExec or the simple protocol
// (PgBouncer in transaction mode) over a database whose ID columns are all
// binary: the domains or bytea.
//
//	cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeExec
//	cfg.AfterConnect = sqltype.AfterConnectBytea
func AfterConnectBytea(ctx context.Context, conn *pgx.Conn) error {
	RegisterBytea(conn.TypeMap())
	return registerTypes(ctx, conn)
}
