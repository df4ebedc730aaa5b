package ksuid

import "github.com/sortid/sortid/internal/idtype"

// FromBytes returns the KSUID held in b, which must be exactly 20 bytes.
func FromBytes(b []byte) (KSUID, error) {
	if len(b) != Size {
		return KSUID{}, spec.LengthError("KSUID", b, Size)
	}
	return KSUID(b), nil
}

// Bytes returns a copy of the 20 bytes of id.
func (id KSUID) Bytes() []byte {
	return append(make([]byte, 0, Size), id[:]...)
}

// AppendBinary appends the 20 bytes of id to b. It implements
// encoding.BinaryAppender and never returns an error.
func (id KSUID) AppendBinary(b []byte) ([]byte, error) {
	return append(b, id[:]...), nil
}

// MarshalBinary returns the 20 bytes of id. It implements
// encoding.BinaryMarshaler.
func (id KSUID) MarshalBinary() ([]byte, error) {
	return id.Bytes(), nil
}

// UnmarshalBinary sets id from exactly 20 bytes, as FromBytes does. On
// error id is left unchanged. It implements encoding.BinaryUnmarshaler.
func (id *KSUID) UnmarshalBinary(data []byte) error {
	v, err := FromBytes(data)
	return idtype.Store(id, v, err)
}
