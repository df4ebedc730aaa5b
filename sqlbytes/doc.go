// Package sqlbytes stores KSUIDs and ObjectIDs as raw bytes through
// database/sql drivers that see only driver.Valuer: lib/pq, bun's
// pgdriver, go-sql-driver/mysql, and sqlx or any other tool on top of
// them. UUIDv7s need no type here: uuidv7.UUID's Value is its text form,
// which PostgreSQL's uuid column reads as the same UUID (for a MySQL
// binary(16) column pass id[:]).
//
// A ksuid.KSUID's Value is its 27-character text form, which every column
// type can hold. pgx writes raw bytes into a bytea column on its own (it
// asks for BytesValue), but those drivers do not: they send the text, and
// the ksuid and objectid domains of `sortid sql` refuse it with "value for
// domain ksuid violates check constraint". Declare the field or argument
// as one of this package's types instead and the driver sends the 20 (12)
// raw bytes:
//
//	type Order struct {
//		ID    sqlbytes.KSUID `db:"id"`
//		Total int64         `db:"total"`
//	}
//	db.Exec(`INSERT INTO orders (id, total) VALUES ($1, $2)`, sqlbytes.KSUID(ksuid.New()), 100)
//
// The types convert to and from the ID types without a copy of more than
// the value itself: sqlbytes.KSUID(id) and ksuid.KSUID(v). Scan reads
// what the ID types' Scan reads (raw bytes, PostgreSQL's \x hex form, the
// text form), so existing rows of any format read back. The text form
// (String, MarshalText, JSON) is the ID's.
//
// It imports only the standard library and the ID packages.
package sqlbytes
