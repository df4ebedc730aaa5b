package sqlbytes

import (
	"database/sql/driver"

	"github.com/sortid/sortid/objectid"
)

// ObjectID is an objectid.ObjectID whose Value is its 12 raw bytes.
type ObjectID objectid.ObjectID

// Value implements driver.Valuer: the 12 bytes of the ObjectID.
func (id ObjectID) Value() (driver.Value, error) { return id[:], nil }

// Scan implements sql.Scanner as objectid.ObjectID.Scan does.
func (id *ObjectID) Scan(src any) error { return (*objectid.ObjectID)(id).Scan(src) }

// String returns the 24-character hex form.
func (id ObjectID) String() string { return objectid.ObjectID(id).String() }

// MarshalText returns the text form, so that encoding/json writes a
// string.
func (id ObjectID) MarshalText() ([]byte, error) { return objectid.ObjectID(id).MarshalText() }

// UnmarshalText reads the text form as objectid.Parse does.
func (id *ObjectID) UnmarshalText(text []byte) error {
	return (*objectid.ObjectID)(id).UnmarshalText(text)
}

// NullObjectID is an objectid.NullObjectID whose Value is NULL or the 12 raw bytes.
type NullObjectID objectid.NullObjectID

// Value implements driver.Valuer: nil (NULL) when n is not valid,
// otherwise the 12 bytes of the ObjectID.
func (n NullObjectID) Value() (driver.Value, error) {
	if !n.Valid {
		return nil, nil
	}
	return n.ObjectID[:], nil
}

// Scan implements sql.Scanner as objectid.NullObjectID.Scan does.
func (n *NullObjectID) Scan(src any) error { return (*objectid.NullObjectID)(n).Scan(src) }

// MarshalJSON writes null or the text form, as objectid.NullObjectID does.
func (n NullObjectID) MarshalJSON() ([]byte, error) { return objectid.NullObjectID(n).MarshalJSON() }

// UnmarshalJSON reads null or the text form, as objectid.NullObjectID does.
func (n *NullObjectID) UnmarshalJSON(data []byte) error {
	return (*objectid.NullObjectID)(n).UnmarshalJSON(data)
}
