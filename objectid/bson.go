package objectid

import (
	"strconv"

	"github.com/sortid/sortid/internal/excerpt"
)

// BSON type codes, from the BSON specification (bsonspec.org).
const (
	bsonObjectID = 0x07
	bsonNull     = 0x0A
)

// MarshalBSONValue writes id as a BSON ObjectId, byte for byte what
// mongo-driver writes for its bson.ObjectID. The method has the signature
// of mongo-driver v2's bson.ValueMarshaler, so the driver's default
// registry uses it.
func (id ObjectID) MarshalBSONValue() (typ byte, data []byte, err error) {
	return bsonObjectID, id.Bytes(), nil
}

// UnmarshalBSONValue reads a BSON ObjectId. Any other BSON value is an
// error that names its type, and leaves id unchanged: null wraps ErrNull
// (decode into NullObjectID or *ObjectID where a field may be null), other
// types ErrUnsupportedType. It has the signature of mongo-driver v2's
// bson.ValueUnmarshaler.
func (id *ObjectID) UnmarshalBSONValue(typ byte, data []byte) error {
	switch typ {
	case bsonObjectID:
		if len(data) != Size {
			return &wrapError{msg: "objectid: malformed BSON ObjectId of " + excerpt.Bytes(data) + ": want 12 bytes", err: ErrInvalidLength}
		}
		*id = ObjectID(data)
		return nil
	case bsonNull:
		return &wrapError{msg: "objectid: cannot decode BSON null into ObjectID; use NullObjectID or *ObjectID", err: ErrNull}
	}
	return &wrapError{msg: "objectid: cannot decode BSON " + bsonTypeName(typ) + " value of " + excerpt.Bytes(data) + " into ObjectID: want ObjectId", err: ErrUnsupportedType}
}

// MarshalBSONValue writes BSON null when n is not valid, otherwise the
// ObjectID as a BSON ObjectId.
func (n NullObjectID) MarshalBSONValue() (typ byte, data []byte, err error) {
	if !n.Valid {
		return bsonNull, nil, nil
	}
	return n.ObjectID.MarshalBSONValue()
}

// UnmarshalBSONValue reads BSON null as an invalid NullObjectID, anything
// else as ObjectID.UnmarshalBSONValue does. On error n is left unchanged.
func (n *NullObjectID) UnmarshalBSONValue(typ byte, data []byte) error {
	if typ == bsonNull {
		*n = NullObjectID{}
		return nil
	}
	var id ObjectID
	if err := id.UnmarshalBSONValue(typ, data); err != nil {
		return err
	}
	*n = NullObjectID{ObjectID: id, Valid: true}
	return nil
}

// bsonTypeName names a BSON type code for error messages.
func bsonTypeName(t byte) string {
	names := map[byte]string{
		0x01: "double", 0x02: "string", 0x03: "embedded document", 0x04: "array",
		0x05: "binary", 0x06: "undefined", 0x07: "ObjectId", 0x08: "boolean",
		0x09: "UTC datetime", 0x0A: "null", 0x0B: "regex", 0x0C: "DBPointer",
		0x0D: "JavaScript code", 0x0E: "symbol", 0x0F: "code with scope",
		0x10: "32-bit integer", 0x11: "timestamp", 0x12: "64-bit integer",
		0x13: "128-bit decimal", 0xFF: "min key", 0x7F: "max key",
	}
	if name, ok := names[t]; ok {
		return name
	}
	return "type 0x" + strconv.FormatUint(uint64(t), 16)
}
