package ksuid

import (
	"database/sql/driver"

	"github.com/sortid/sortid/internal/idtype"
)

// NullKSUID is a KSUID that may be NULL, for nullable columns and
// optional fields, in the manner of sql.NullString. The zero NullKSUID is
// NULL: SQL NULL, JSON null and BSON null.
type NullKSUID struct {
	KSUID KSUID
	Valid bool // whether KSUID holds a value; false means NULL
}

// IsZero reports whether n is NULL. With it, encoders that skip empty
// values (mongo-driver's omitempty, encoding/json's omitzero) skip a NULL.
func (n NullKSUID) IsZero() bool { return !n.Valid }

// Value implements driver.Valuer: NULL when n is not valid, otherwise the
// text form.
func (n NullKSUID) Value() (driver.Value, error) { return idtype.NullValue(n.KSUID, n.Valid) }

// Scan implements sql.Scanner: NULL makes n invalid; anything else is
// scanned as KSUID.Scan does. On error n is left unchanged.
func (n *NullKSUID) Scan(src any) error { return idtype.NullScan(&n.KSUID, &n.Valid, src) }

// MarshalJSON writes null when n is not valid, otherwise the text form as
// a JSON string.
func (n NullKSUID) MarshalJSON() ([]byte, error) { return idtype.NullMarshalJSON(n.KSUID, n.Valid) }

// UnmarshalJSON reads null as an invalid NullKSUID and anything else as
// KSUID.UnmarshalJSON does. On error n is left unchanged.
func (n *NullKSUID) UnmarshalJSON(data []byte) error {
	return idtype.NullUnmarshalJSON(&n.KSUID, &n.Valid, data)
}

// MarshalBSONValue writes BSON null when n is not valid, otherwise the
// KSUID as KSUID.MarshalBSONValue does.
func (n NullKSUID) MarshalBSONValue() (typ byte, data []byte, err error) {
	return idtype.NullMarshalBSONValue(n.KSUID, n.Valid)
}

// UnmarshalBSONValue reads BSON null as an invalid NullKSUID, anything else
// as KSUID.UnmarshalBSONValue does. On error n is left unchanged.
func (n *NullKSUID) UnmarshalBSONValue(typ byte, data []byte) error {
	return idtype.NullUnmarshalBSONValue(&n.KSUID, &n.Valid, typ, data)
}
