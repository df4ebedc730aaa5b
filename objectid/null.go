package objectid

import (
	"database/sql/driver"

	"github.com/sortid/sortid/internal/idtype"
)

// NullObjectID is an ObjectID that may be NULL, for nullable columns and
// optional fields, in the manner of sql.NullString. The zero NullObjectID
// is NULL: SQL NULL, JSON null and BSON null.
type NullObjectID struct {
	ObjectID ObjectID
	Valid    bool // whether ObjectID holds a value; false means NULL
}

// IsZero reports whether n is NULL. With it, encoders that skip empty
// values (mongo-driver's omitempty, encoding/json's omitzero) skip a NULL.
func (n NullObjectID) IsZero() bool { return !n.Valid }

// Value implements driver.Valuer: NULL when n is not valid, otherwise the
// hex form.
func (n NullObjectID) Value() (driver.Value, error) { return idtype.NullValue(n.ObjectID, n.Valid) }

// Scan implements sql.Scanner: NULL makes n invalid; anything else is
// scanned as ObjectID.Scan does. On error n is left unchanged.
func (n *NullObjectID) Scan(src any) error { return idtype.NullScan(&n.ObjectID, &n.Valid, src) }

// MarshalJSON writes null when n is not valid, otherwise the hex form as
// a JSON string.
func (n NullObjectID) MarshalJSON() ([]byte, error) {
	return idtype.NullMarshalJSON(n.ObjectID, n.Valid)
}

// UnmarshalJSON reads null as an invalid NullObjectID, and anything else
// as ObjectID.UnmarshalJSON does. On error n is left unchanged.
func (n *NullObjectID) UnmarshalJSON(data []byte) error {
	return idtype.NullUnmarshalJSON(&n.ObjectID, &n.Valid, data)
}

// MarshalBSONValue writes BSON null when n is not valid, otherwise the
// ObjectID as a BSON ObjectId.
func (n NullObjectID) MarshalBSONValue() (typ byte, data []byte, err error) {
	return idtype.NullMarshalBSONValue(n.ObjectID, n.Valid)
}

// UnmarshalBSONValue reads BSON null as an invalid NullObjectID, anything
// else as ObjectID.UnmarshalBSONValue does. On error n is left unchanged.
func (n *NullObjectID) UnmarshalBSONValue(typ byte, data []byte) error {
	return idtype.NullUnmarshalBSONValue(&n.ObjectID, &n.Valid, typ, data)
}
