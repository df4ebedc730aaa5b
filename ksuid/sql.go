// BytesValue returns the 20 bytes of the ID. It is the method pgx v5
// looks for when it writes a value into a bytea column: with it, pgx sends
// the raw bytes there even on a connection without the sqltype package, in
// every query mode that knows the column type (QueryExecModeExec and the
// simple protocol do not; there pgx sends the text form). The domains of
// sqltype.InstallSQL need sqltype.AfterConnect.
package ksuid

import (
	"database/sql/driver"
	"strings"

	"github.com/sortid/sortid/internal/byteahex"
	"github.com/sortid/sortid/internal/excerpt"
)

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
	var (
		v   KSUID
		err error
	)
	switch s := src.(type) {
	case string:
		if isByteaHex(s) {
			v, err = fromByteaHex(s)
		} else {
			v, err = parse(s)
		}
	case []byte:
		switch {
		case isByteaHex(s):
			v, err = fromByteaHex(s)
		case len(s) == Size:
			v = KSUID(s)
		case len(s) == EncodedLen:
			v, err = parse(s)
		default:
			return scanError(src, ErrInvalidLength, "want 20 bytes or 27 characters")
		}
	case nil:
		return &wrapError{msg: "ksuid: cannot scan NULL into KSUID; use NullKSUID or *KSUID", err: ErrNull}
	default:
		return scanError(src, ErrUnsupportedType, "want string or []byte")
	}
	if err != nil {
		return scanError(src, err, strings.TrimPrefix(err.Error(), "ksuid: "))
	}
	*id = v
	return nil
}

// scanError describes a value Scan rejects by its Go type and, bounded,
// its value.
func scanError(src any, cause error, detail string) error {
	what := excerpt.Source(src, cause == ErrInvalidLength)
	return &wrapError{msg: "ksuid: cannot scan " + what + " into KSUID: " + detail, err: cause}
}

// NullKSUID is a KSUID that may be NULL, for nullable columns, in the
// manner of sql.NullString. The zero NullKSUID is NULL.
type NullKSUID struct {
	KSUID KSUID
	Valid bool // whether KSUID holds a value; false means NULL
}

// IsZero reports whether n is NULL. With it, encoders that skip empty
// values (mongo-driver's omitempty) skip a NULL.
func (n NullKSUID) IsZero() bool {
	return !n.Valid
}

// Value implements driver.Valuer: NULL when n is not valid, otherwise the
// text form.
func (n NullKSUID) Value() (driver.Value, error) {
	if !n.Valid {
		return nil, nil
	}
	return n.KSUID.Value()
}

// BytesValue returns nil (NULL) when n is not valid, otherwise the bytes
// of the ID; see KSUID.BytesValue.
func (n NullKSUID) BytesValue() ([]byte, error) {
	if !n.Valid {
		return nil, nil
	}
	return n.KSUID.BytesValue()
}

// Scan implements sql.Scanner: NULL makes n invalid; anything else is
// scanned as KSUID.Scan does. On error n is left unchanged.
func (n *NullKSUID) Scan(src any) error {
	if src == nil {
		*n = NullKSUID{}
		return nil
	}
	var id KSUID
	if err := id.Scan(src); err != nil {
		return err
	}
	*n = NullKSUID{KSUID: id, Valid: true}
	return nil
}

// MarshalJSON writes null when n is not valid, otherwise the text form as
// a JSON string.
func (n NullKSUID) MarshalJSON() ([]byte, error) {
	if !n.Valid {
		return []byte("null"), nil
	}
	b := make([]byte, 0, EncodedLen+2)
	b = append(b, '"')
	b, _ = n.KSUID.AppendText(b)
	return append(b, '"'), nil
}

// UnmarshalJSON reads null as an invalid NullKSUID and a JSON string as a
// KSUID. Any other JSON value is an error wrapping ErrInvalidJSON. On
// error n is left unchanged.
func (n *NullKSUID) UnmarshalJSON(data []byte) error {
	id, null, err := parseJSON(data, "NullKSUID")
	switch {
	case err != nil:
		return err
	case null:
		*n = NullKSUID{}
	default:
		*n = NullKSUID{KSUID: id, Valid: true}
	}
	return nil
}

// isByteaHex reports whether s is PostgreSQL's hex form of a bytea of
// Size bytes: \x and 2*Size hex digits, which no text form can be.
func isByteaHex[T string | []byte](s T) bool {
	return byteahex.Is(s, Size)
}

// fromByteaHex reads the hex form isByteaHex recognizes.
func fromByteaHex[T string | []byte](s T) (KSUID, error) {
	var v KSUID
	if offset, ok := byteahex.Decode(v[:], s); !ok {
		return KSUID{}, &ParseError{Input: string(s), Offset: offset, Err: ErrInvalidCharacter}
	}
	return v, nil
}
