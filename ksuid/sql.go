package ksuid

import "database/sql/driver"

// Value implements driver.Valuer: a KSUID goes to a database/sql driver as
// its 27-character text form, which every column type can hold. For a
// binary column, pass id[:] or use the sqltype package with pgx. The zero
// KSUID is written like any other; use NullKSUID or *KSUID for NULL.
func (id KSUID) Value() (driver.Value, error) {
	return id.String(), nil
}

// BytesValue returns the 20 bytes of the ID. It is the method pgx v5
// looks for when it writes a value into a bytea column, or a domain over
// bytea such as the ksuid and objectid of `sortid sql`: with it, pgx sends
// the raw bytes there even on a connection without the sqltype package,
// in every query mode that knows the column type (not in
// QueryExecModeExec or the simple protocol, where pgx sends the text form).
func (id KSUID) BytesValue() ([]byte, error) {
	return id[:], nil
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
