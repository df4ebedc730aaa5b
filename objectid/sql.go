package objectid

import "database/sql/driver"

// Value implements driver.Valuer: an ObjectID goes to a database/sql
// driver as its 24-character lowercase hex form, which every column type
// can hold, in every query mode. For a bytea column that holds the raw
// bytes, pass id[:]. The zero ObjectID is written like any other; use
// NullObjectID or *ObjectID for NULL.
func (id ObjectID) Value() (driver.Value, error) {
	return id.String(), nil
}

// Scan implements sql.Scanner. It accepts the text form as a string or
// []byte of 24 hex digits, the binary form as a []byte of exactly 12
// bytes, and PostgreSQL's hex form of a bytea (\x and 24 hex digits, as
// psql shows it and as drivers return a bytea or a domain over it in text
// format). Anything else, NULL included, is an error that names the source
// type and value, and leaves id unchanged. Scan into NullObjectID or
// *ObjectID where a column may be NULL.
func (id *ObjectID) Scan(src any) error {
	return spec.Scan(id[:], src)
}
