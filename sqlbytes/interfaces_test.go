package sqlbytes_test

import (
	"database/sql"
	"database/sql/driver"

	"github.com/sortid/sortid/sqlbytes"
)

// The interfaces database/sql drivers reach the wrappers through.
var (
	_ driver.Valuer = sqlbytes.KSUID{}
	_ driver.Valuer = sqlbytes.NullKSUID{}
	_ driver.Valuer = sqlbytes.ObjectID{}
	_ driver.Valuer = sqlbytes.NullObjectID{}

	_ sql.Scanner = (*sqlbytes.KSUID)(nil)
	_ sql.Scanner = (*sqlbytes.NullKSUID)(nil)
	_ sql.Scanner = (*sqlbytes.ObjectID)(nil)
	_ sql.Scanner = (*sqlbytes.NullObjectID)(nil)
)
