package sqltype_test

import (
	"database/sql"
	"database/sql/driver"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// The interfaces pgx and database/sql reach the ID types through: a
// change to a method's signature here or in pgx fails the build.
var (
	_ pgtype.BytesValuer = ksuid.KSUID{}
	_ pgtype.BytesValuer = ksuid.NullKSUID{}
	_ pgtype.BytesValuer = objectid.ObjectID{}
	_ pgtype.BytesValuer = objectid.NullObjectID{}

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
