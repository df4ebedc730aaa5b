package uuidv7

import (
	"github.com/sortid/sortid/internal/idtype"

	"database/sql/driver"
	"strconv"
)

// Value implements driver.Valuer: a UUID goes to a database/sql driver as
// its 36-character text form, which PostgreSQL's uuid type reads in every
// query mode (typed or not), and which a text or char(36) column holds
// as is. For a binary column (MySQL's BINARY(16), bytea) pass id[:]. The
// zero UUID is written like any other; use NullUUID or *UUID for NULL.
func (id UUID) Value() (driver.Value, error) {
	return id.String(), nil
}

// Scan implements sql.Scanner. It accepts the text form as a string or
// []byte of 36 characters (PostgreSQL's uuid, a text column), the binary
// form as a []byte of exactly 16 bytes (MySQL's BINARY(16), bytea), and
// PostgreSQL's hex form of a bytea (\x and 32 hex digits). The UUID must
// be version 7 with the RFC 9562 variant: a column that also holds other
// versions scans into Go 1.27's uuid.UUID or google/uuid instead. Anything
// else, NULL included, is an error that names the source type and value,
// and leaves id unchanged. Scan into NullUUID or *UUID where a column may
// be NULL.
func (id *UUID) Scan(src any) error { return spec.Scan(id[:], src) }

// checkV7 is the shared Scan's CheckBytes: 16 bytes must be a version 7
// UUID with the RFC 9562 variant before they are written.
func checkV7(b []byte) error {
	if u := UUID(b); !u.isV7() {
		return &idtype.Error{Msg: "uuidv7: " + u.String() + " is version " + strconv.Itoa(u.Version()) +
			", want a version 7 UUID with the RFC 9562 variant", Err: ErrVersion}
	}
	return nil
}
