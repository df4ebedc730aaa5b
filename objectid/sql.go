// BytesValue returns the 12 bytes of the ID. It is the method pgx v5
// looks for when it writes a value into a bytea column: with it, pgx sends
// the raw bytes there even on a connection without the sqltype package, in
// every query mode that knows the column type (QueryExecModeExec and the
// simple protocol do not; there pgx sends the text form). The domains of
// sqltype.InstallSQL need sqltype.AfterConnect.
package objectid

import (
	"bytes"
	"database/sql/driver"
	"strings"

	"github.com/sortid/sortid/internal/byteahex"
	"github.com/sortid/sortid/internal/excerpt"
)

// Value implements driver.Valuer: an ObjectID goes to a database/sql
// driver as its 24-character lowercase hex form, which every column type
// can hold. For a binary column, pass id[:] or use the sqltype package with
// pgx. The zero ObjectID is written like any other; use NullObjectID or
// *ObjectID for NULL.
func (id ObjectID) Value() (driver.Value, error) {
	return id.String(), nil
}

// BytesValue returns the 12 bytes of the ID. It is the method pgx v5
// looks for when it writes a value into a bytea column, or a domain over
// bytea such as the ksuid and objectid of `sortid sql`: with it, pgx sends
// the raw bytes there even on a connection without the sqltype package,
// in every query mode that knows the column type (not in
// QueryExecModeExec or the simple protocol, where pgx sends the text form).
func (id ObjectID) BytesValue() ([]byte, error) {
	return id[:], nil
}

// Scan implements sql.Scanner. It accepts the text form as a string or
// []byte of 24 hex digits, the binary form as a []byte of exactly 12
// bytes, and PostgreSQL's hex form of a bytea (\x and 24 hex digits, as
// psql shows it and as drivers return a bytea or a domain over it in text
// format). Anything else, NULL included, is an error that names the source
// type and value, and leaves id unchanged. Scan into NullObjectID or
// *ObjectID where a column may be NULL.
func (id *ObjectID) Scan(src any) error {
	var (
		v   ObjectID
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
			v = ObjectID(s)
		case len(s) == EncodedLen:
			v, err = parse(s)
		default:
			return scanError(src, ErrInvalidLength, "want 12 bytes or 24 hex digits")
		}
	case nil:
		return &wrapError{msg: "objectid: cannot scan NULL into ObjectID; use NullObjectID or *ObjectID", err: ErrNull}
	default:
		return scanError(src, ErrUnsupportedType, "want string or []byte")
	}
	if err != nil {
		return scanError(src, err, strings.TrimPrefix(err.Error(), "objectid: "))
	}
	*id = v
	return nil
}

// scanError describes a value Scan rejects by its Go type and, bounded,
// its value.
func scanError(src any, cause error, detail string) error {
	what := excerpt.Source(src, cause == ErrInvalidLength)
	return &wrapError{msg: "objectid: cannot scan " + what + " into ObjectID: " + detail, err: cause}
}

// NullObjectID is an ObjectID that may be NULL, for nullable columns, in the
// manner of sql.NullString. The zero NullObjectID is NULL.
type NullObjectID struct {
	ObjectID ObjectID
	Valid    bool // whether ObjectID holds a value; false means NULL
}

// IsZero reports whether n is NULL. With it, encoders that skip empty
// values (mongo-driver's omitempty) skip a NULL.
func (n NullObjectID) IsZero() bool {
	return !n.Valid
}

// Value implements driver.Valuer: NULL when n is not valid, otherwise the
// text form.
func (n NullObjectID) Value() (driver.Value, error) {
	if !n.Valid {
		return nil, nil
	}
	return n.ObjectID.Value()
}

// BytesValue returns nil (NULL) when n is not valid, otherwise the bytes
// of the ID; see ObjectID.BytesValue.
func (n NullObjectID) BytesValue() ([]byte, error) {
	if !n.Valid {
		return nil, nil
	}
	return n.ObjectID.BytesValue()
}

// Scan implements sql.Scanner: NULL makes n invalid; anything else is
// scanned as ObjectID.Scan does. On error n is left unchanged.
func (n *NullObjectID) Scan(src any) error {
	if src == nil {
		*n = NullObjectID{}
		return nil
	}
	var id ObjectID
	if err := id.Scan(src); err != nil {
		return err
	}
	*n = NullObjectID{ObjectID: id, Valid: true}
	return nil
}

// MarshalJSON writes null when n is not valid, otherwise the text form as
// a JSON string.
func (n NullObjectID) MarshalJSON() ([]byte, error) {
	if !n.Valid {
		return []byte("null"), nil
	}
	b := make([]byte, 0, EncodedLen+2)
	b = append(b, '"')
	b, _ = n.ObjectID.AppendText(b)
	return append(b, '"'), nil
}

// UnmarshalJSON reads null as an invalid NullObjectID, and a JSON string
// or Extended JSON {"$oid": "..."} as ObjectID.UnmarshalJSON does. On error
// n is left unchanged.
func (n *NullObjectID) UnmarshalJSON(data []byte) error {
	if string(bytes.Trim(data, jsonSpace)) == "null" {
		*n = NullObjectID{}
		return nil
	}
	var id ObjectID
	if err := id.UnmarshalJSON(data); err != nil {
		return err
	}
	*n = NullObjectID{ObjectID: id, Valid: true}
	return nil
}

// isByteaHex reports whether s is PostgreSQL's hex form of a bytea of
// Size bytes: \x and 2*Size hex digits, which no text form can be.
func isByteaHex[T string | []byte](s T) bool {
	return byteahex.Is(s, Size)
}

// fromByteaHex reads the hex form isByteaHex recognizes.
func fromByteaHex[T string | []byte](s T) (ObjectID, error) {
	var v ObjectID
	if offset, ok := byteahex.Decode(v[:], s); !ok {
		return ObjectID{}, &ParseError{Input: string(s), Offset: offset, Err: ErrInvalidCharacter}
	}
	return v, nil
}
