package sqltype

import (
	"reflect"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/sqltype/internal/idkind"
)

// untypedOID is the OID of the placeholder type that Register names for
// the ID types' values, which pgx consults only where it does not know
// the parameter's type. PostgreSQL hands out OIDs upwards from 16384, and
// reaches this one only after some four billion objects.
const untypedOID = 0xFFFF_FF00

// registerUntyped makes pgx send an ID parameter of unknown type
// (QueryExecModeExec, the simple protocol, a type registered after the
// connection was made) as its text form, and a slice of IDs as an array
// of them: PostgreSQL reads that text as the ID in the extension's types,
// the domains of `sortid sql` and text columns alike, which is what the
// IDs' driver.Valuer gives without the hook.
func registerUntyped(m *pgtype.Map) {
	elem := &pgtype.Type{Name: "sortid_untyped_id", OID: untypedOID, Codec: pgtype.TextCodec{}}
	m.RegisterType(elem)
	m.RegisterType(&pgtype.Type{Name: "_sortid_untyped_id", OID: untypedOID + 1, Codec: &pgtype.ArrayCodec{ElementType: elem}})
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
