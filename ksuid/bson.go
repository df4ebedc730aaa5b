package ksuid

import (
	"encoding/binary"
	"strconv"

	"github.com/sortid/sortid/internal/excerpt"
	"github.com/sortid/sortid/internal/idtype"
)

// MarshalBSONValue writes id as a BSON string holding its 27-character
// text form: the one form KSUIDs are stored in, by every writer (the
// driver's default registry and bsoncodec's, bson.Marshal, a bson.M, a
// $set, an upsert's filter), and the form other languages' KSUID libraries
// store. MongoDB's default (simple) collation compares strings by their
// bytes, which for base62 text is the KSUIDs' order, so they sort by time.
// The method has the signature of mongo-driver v2's bson.ValueMarshaler.
func (id KSUID) MarshalBSONValue() (typ byte, data []byte, err error) {
	data = make([]byte, 4, 4+EncodedLen+1)
	binary.LittleEndian.PutUint32(data, EncodedLen+1)
	data, _ = id.AppendText(data)
	return idtype.BSONString, append(data, 0), nil
}

// UnmarshalBSONValue reads a KSUID from a BSON string holding the text
// form, or from BSON binary of subtype 0 and 20 bytes, the form that
// earlier versions of this package (and segmentio/ksuid users) wrote. Any other BSON value is an error that names its type,
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
