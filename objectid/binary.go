package objectid

import "github.com/sortid/sortid/internal/idtype"

// FromBytes returns the ObjectID held in b, which must be exactly 12
// bytes.
func FromBytes(b []byte) (ObjectID, error) {
	if len(b) != Size {
		return ObjectID{}, spec.LengthError("ObjectID", b, Size)
	}
	return ObjectID(b), nil
}

// Bytes returns a copy of the 12 bytes of id.
func (id ObjectID) Bytes() []byte {
	return append(make([]byte, 0, Size), id[:]...)
}

// AppendBinary appends the 12 bytes of id to b. It implements
// encoding.BinaryAppender and never returns an error.
func (id ObjectID) AppendBinary(b []byte) ([]byte, error) {
	return append(b, id[:]...), nil
}

// MarshalBinary returns the 12 bytes of id. It implements
// encoding.BinaryMarshaler.
func (id ObjectID) MarshalBinary() ([]byte, error) {
	return id.Bytes(), nil
}

// UnmarshalBinary sets id from exactly 12 bytes, as FromBytes does. On
// error id is left unchanged. It implements encoding.BinaryUnmarshaler.
func (id *ObjectID) UnmarshalBinary(data []byte) error {
	v, err := FromBytes(data)
	return idtype.Store(id, v, err)
}
