package uuidv7

import (
	"database/sql/driver"

	"github.com/sortid/sortid/internal/idtype"
)

// NullUUID is a UUID that may be NULL, for nullable columns and optional
// fields, in the manner of sql.NullString. The zero NullUUID is NULL: SQL
// NULL, JSON null and BSON null.
type NullUUID struct {
	UUID  UUID
	Valid bool // whether UUID holds a value; false means NULL
}

// IsZero reports whether n is NULL. With it, encoders that skip empty
// values (mongo-driver's omitempty, encoding/json's omitzero) skip a NULL.
func (n NullUUID) IsZero() bool { return !n.Valid }

// Value implements driver.Valuer: NULL when n is not valid, otherwise the
// text form.
func (n NullUUID) Value() (driver.Value, error) { return idtype.NullValue(n.UUID, n.Valid) }

// Scan implements sql.Scanner: NULL makes n invalid; anything else is
// scanned as UUID.Scan does. On error n is left unchanged.
func (n *NullUUID) Scan(src any) error { return idtype.NullScan(&n.UUID, &n.Valid, src) }

// MarshalJSON writes null when n is not valid, otherwise the text form as
// a JSON string.
func (n NullUUID) MarshalJSON() ([]byte, error) { return idtype.NullMarshalJSON(n.UUID, n.Valid) }

// UnmarshalJSON reads null as an invalid NullUUID and anything else as
// UUID.UnmarshalJSON does. On error n is left unchanged.
func (n *NullUUID) UnmarshalJSON(data []byte) error {
	return idtype.NullUnmarshalJSON(&n.UUID, &n.Valid, data)
}

// MarshalBSONValue writes BSON null when n is not valid, otherwise the
// UUID as UUID.MarshalBSONValue does.
func (n NullUUID) MarshalBSONValue() (typ byte, data []byte, err error) {
	return idtype.NullMarshalBSONValue(n.UUID, n.Valid)
}

// UnmarshalBSONValue reads BSON null as an invalid NullUUID, anything else
// as UUID.UnmarshalBSONValue does. On error n is left unchanged.
func (n *NullUUID) UnmarshalBSONValue(typ byte, data []byte) error {
	return idtype.NullUnmarshalBSONValue(&n.UUID, &n.Valid, typ, data)
}
