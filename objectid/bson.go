package objectid

import (
	"github.com/sortid/sortid/internal/excerpt"
	"github.com/sortid/sortid/internal/idtype"
)

// MarshalBSONValue writes id as a BSON ObjectId, byte for byte what
// mongo-driver writes for its bson.ObjectID. The method has the signature
// of mongo-driver v2's bson.ValueMarshaler, so the driver's default
// registry uses it.
func (id ObjectID) MarshalBSONValue() (typ byte, data []byte, err error) {
	return idtype.BSONObjectID, id.Bytes(), nil
}

// UnmarshalBSONValue reads a BSON ObjectId. Any other BSON value is an
// error that names its type, and leaves id unchanged: null wraps ErrNull
// (decode into NullObjectID or *ObjectID where a field may be null), other
// types ErrUnsupportedType. It has the signature of mongo-driver v2's
// bson.ValueUnmarshaler.
func (id *ObjectID) UnmarshalBSONValue(typ byte, data []byte) error {
	switch typ {
	case idtype.BSONObjectID:
		if len(data) != Size {
			return spec.Errorf("malformed BSON ObjectId of "+excerpt.Bytes(data)+": want 12 bytes", ErrInvalidBSON)
		}
		*id = ObjectID(data)
		return nil
	case idtype.BSONNull:
		return spec.BSONNullError()
	}
	return spec.BSONTypeError(typ, data, "ObjectId")
}
