package sqltype_test

import (
	"database/sql"
	"database/sql/driver"
	"testing"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// The interfaces pgx and database/sql reach the ID types through: a
// change to a method's signature here or in pgx fails the build.
var (
	_ driver.Valuer = ksuid.KSUID{}
	_ driver.Valuer = ksuid.NullKSUID{}
	_ driver.Valuer = objectid.ObjectID{}
	_ driver.Valuer = objectid.NullObjectID{}
	_ driver.Valuer = uuidv7.UUID{}
	_ driver.Valuer = uuidv7.NullUUID{}

	_ sql.Scanner = (*ksuid.KSUID)(nil)
	_ sql.Scanner = (*ksuid.NullKSUID)(nil)
	_ sql.Scanner = (*objectid.ObjectID)(nil)
	_ sql.Scanner = (*objectid.NullObjectID)(nil)
	_ sql.Scanner = (*uuidv7.UUID)(nil)
	_ sql.Scanner = (*uuidv7.NullUUID)(nil)
)

// TestNoBytesValuer: no ID type offers pgx raw bytes of its own. pgx
// would send those to a bytea parameter where it knows the parameter's
// type and the text where it does not, so one statement would match other
// rows in another query mode.
func TestNoBytesValuer(t *testing.T) {
	for _, v := range []any{ksuid.KSUID{}, ksuid.NullKSUID{}, &ksuid.KSUID{}, objectid.ObjectID{}, objectid.NullObjectID{}, uuidv7.UUID{}, uuidv7.NullUUID{}} {
		if _, ok := v.(pgtype.BytesValuer); ok {
			t.Errorf("%T is a pgtype.BytesValuer", v)
		}
	}
}
