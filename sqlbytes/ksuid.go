package sqlbytes

import (
	"database/sql/driver"

	"github.com/sortid/sortid/ksuid"
)

// KSUID is a ksuid.KSUID whose Value is its 20 raw bytes.
type KSUID ksuid.KSUID

// Value implements driver.Valuer: the 20 bytes of the KSUID.
func (id KSUID) Value() (driver.Value, error) { return id[:], nil }

// Scan implements sql.Scanner as ksuid.KSUID.Scan does.
func (id *KSUID) Scan(src any) error { return (*ksuid.KSUID)(id).Scan(src) }

// String returns the 27-character text form.
func (id KSUID) String() string { return ksuid.KSUID(id).String() }

// MarshalText returns the text form, so that encoding/json writes a
// string.
func (id KSUID) MarshalText() ([]byte, error) { return ksuid.KSUID(id).MarshalText() }

// UnmarshalText reads the text form as ksuid.Parse does.
func (id *KSUID) UnmarshalText(text []byte) error {
	return (*ksuid.KSUID)(id).UnmarshalText(text)
}

// NullKSUID is a ksuid.NullKSUID whose Value is NULL or the 20 raw bytes.
type NullKSUID ksuid.NullKSUID

// Value implements driver.Valuer: nil (NULL) when n is not valid,
// otherwise the 20 bytes of the KSUID.
func (n NullKSUID) Value() (driver.Value, error) {
	if !n.Valid {
		return nil, nil
	}
	return n.KSUID[:], nil
}

// Scan implements sql.Scanner as ksuid.NullKSUID.Scan does.
func (n *NullKSUID) Scan(src any) error { return (*ksuid.NullKSUID)(n).Scan(src) }

// MarshalJSON writes null or the text form, as ksuid.NullKSUID does.
func (n NullKSUID) MarshalJSON() ([]byte, error) { return ksuid.NullKSUID(n).MarshalJSON() }

// UnmarshalJSON reads null or the text form, as ksuid.NullKSUID does.
func (n *NullKSUID) UnmarshalJSON(data []byte) error {
	return (*ksuid.NullKSUID)(n).UnmarshalJSON(data)
}
