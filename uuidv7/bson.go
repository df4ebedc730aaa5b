package uuidv7

import (
	"strconv"

	"github.com/sortid/sortid/internal/excerpt"
	"github.com/sortid/sortid/internal/idtype"
)

// bsonUUIDSubtype is BSON's binary subtype for a UUID in RFC byte order.
const bsonUUIDSubtype = 0x04

// MarshalBSONValue writes id as BSON binary of subtype 4 (UUID) holding
// the 16 bytes, byte for byte what mongo-driver writes for
// bson.Binary{Subtype: 4}. MongoDB orders binary values by length, then
// subtype, then bytes, so UUIDv7s stored this way sort by time. The method
// has the signature of mongo-driver v2's bson.ValueMarshaler, so the
// driver's default registry uses it.
func (id UUID) MarshalBSONValue() (typ byte, data []byte, err error) {
	return idtype.BSONBinary, idtype.AppendBSONBinary(make([]byte, 0, 4+1+Size), bsonUUIDSubtype, id[:]), nil
}

// UnmarshalBSONValue reads a UUIDv7 from BSON binary of subtype 4 and 16
// bytes, or from a BSON string holding the text form. The UUID must be
// version 7 (ErrVersion otherwise). Subtype 3, the legacy UUID whose byte
// order depends on the driver that wrote it, and every other BSON value
// are errors that name the type and leave id unchanged: null wraps
// ErrNull (decode into NullUUID or *UUID where a field may be null),
// other types ErrUnsupportedType. It has the signature of mongo-driver
// v2's bson.ValueUnmarshaler.
func (id *UUID) UnmarshalBSONValue(typ byte, data []byte) error {
	switch typ {
	case idtype.BSONBinary:
		b, subtype, ok := idtype.BSONBinaryBody(data)
		switch {
		case !ok:
			return spec.BSONMalformedError("binary", data)
		case subtype != bsonUUIDSubtype:
			return spec.Errorf("cannot decode BSON binary of subtype "+strconv.Itoa(int(subtype))+" and "+excerpt.Bytes(b)+" into UUID: want subtype 4", ErrUnsupportedType)
		case len(b) != Size:
			return spec.Errorf("cannot decode BSON binary of "+excerpt.Bytes(b)+" into UUID: want 16 bytes", ErrInvalidLength)
		}
		v, err := FromBytes(b)
		if err != nil {
			return err
		}
		*id = v
		return nil
	case idtype.BSONString:
		s, ok := idtype.BSONStringBody(data)
		if !ok {
			return spec.BSONMalformedError("string", data)
		}
		v, err := parse(s)
		if err != nil {
			return spec.BSONParseError(err)
		}
		*id = v
		return nil
	case idtype.BSONNull:
		return spec.BSONNullError()
	}
	return spec.BSONTypeError(typ, data, "binary of subtype 4 or string")
}
