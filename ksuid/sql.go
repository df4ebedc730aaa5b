package ksuid

import "database/sql/driver"

// Value implements driver.Valuer: a KSUID goes to a database/sql driver as
// its 27-character text form, which every column type can hold, in every
// query mode. For a bytea column that holds the raw bytes, pass id[:]: the
// type says nothing of a bytea column's form, so it offers pgx no raw
// bytes of its own. The zero KSUID is written like any other; use
// NullKSUID or *KSUID for NULL.
func (id KSUID) Value() (driver.Value, error) {
	return id.String(), nil
}

// Scan implements sql.Scanner. It accepts the text form as a string or
// []byte of 27 characters, the binary form as a []byte of exactly 20
// bytes, and PostgreSQL's hex form of a bytea (\x and 40 hex digits, as
// psql shows it and as drivers return a bytea or a domain over it in text
// format). Anything else, NULL included, is an error that names the source
// type and value, and leaves id unchanged. Scan into NullKSUID or *KSUID
// where a column may be NULL.
func (id *KSUID) Scan(src any) error {
	return spec.Scan(id[:], src)
}
