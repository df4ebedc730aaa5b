package ksuid

import (
	"strconv"

	"github.com/sortid/sortid/internal/excerpt"
	"github.com/sortid/sortid/internal/idtype"
)

// MarshalBSONValue writes id as BSON binary of subtype 0 (generic) holding
// the 20 bytes. MongoDB orders binary values by length, then subtype, then
// bytes, so KSUIDs stored this way sort by time. The method has the
// signature of mongo-driver v2's bson.ValueMarshaler, so the driver's
// default registry uses it; the bsoncodec package can write the text form
// instead.
func (id KSUID) MarshalBSONValue() (typ byte, data []byte, err error) {
	return idtype.BSONBinary, idtype.AppendBSONBinary(make([]byte, 0, 4+1+Size), idtype.BSONGenericBinary, id[:]), nil
}

// UnmarshalBSONValue reads a KSUID from BSON binary of subtype 0 and 20
// bytes, or from a BSON string holding the text form, whichever a
// collection holds. Any other BSON value is an error that names its type,
// and leaves id unchanged: null wraps ErrNull (decode into NullKSUID or
// *KSUID where a field may be null), other types ErrUnsupportedType. It
// has the signature of mongo-driver v2's bson.ValueUnmarshaler.
func (id *KSUID) UnmarshalBSONValue(typ byte, data []byte) error {
	switch typ {
	case idtype.BSONBinary:
		b, subtype, ok := idtype.BSONBinaryBody(data)
		switch {
		case !ok:
			return spec.BSONMalformedError("binary", data)
		case subtype != idtype.BSONGenericBinary:
			return spec.Errorf("cannot decode BSON binary of subtype "+strconv.Itoa(int(subtype))+" and "+excerpt.Bytes(b)+" into KSUID: want subtype 0", ErrUnsupportedType)
		case len(b) != Size:
			return spec.Errorf("cannot decode BSON binary of "+excerpt.Bytes(b)+" into KSUID: want 20 bytes", ErrInvalidLength)
		}
		*id = KSUID(b)
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
	return spec.BSONTypeError(typ, data, "binary or string")
}
