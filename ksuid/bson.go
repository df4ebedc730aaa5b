package ksuid

import (
	"encoding/binary"
	"strconv"
	"strings"

	"github.com/sortid/sortid/internal/excerpt"
)

// BSON type codes and the generic binary subtype, from the BSON
// specification (bsonspec.org).
const (
	bsonString        = 0x02
	bsonBinary        = 0x05
	bsonNull          = 0x0A
	bsonGenericBinary = 0x00
)

// MarshalBSONValue writes id as BSON binary of subtype 0 (generic) holding
// the 20 bytes. MongoDB orders binary values by length, then subtype, then
// bytes, so KSUIDs stored this way sort by time. The method has the
// signature of mongo-driver v2's bson.ValueMarshaler, so the driver's
// default registry uses it; the bsoncodec package can write the text form
// instead.
func (id KSUID) MarshalBSONValue() (typ byte, data []byte, err error) {
	data = make([]byte, 0, 4+1+Size)
	data = binary.LittleEndian.AppendUint32(data, Size)
	data = append(data, bsonGenericBinary)
	return bsonBinary, append(data, id[:]...), nil
}

// UnmarshalBSONValue reads a KSUID from BSON binary of subtype 0 and 20
// bytes, or from a BSON string holding the text form, whichever a
// collection holds. Any other BSON value is an error that names its type,
// and leaves id unchanged: null wraps ErrNull (decode into NullKSUID or
// *KSUID where a field may be null), other types ErrUnsupportedType. It
// has the signature of mongo-driver v2's bson.ValueUnmarshaler.
func (id *KSUID) UnmarshalBSONValue(typ byte, data []byte) error {
	switch typ {
	case bsonBinary:
		b, subtype, ok := bsonBinaryValue(data)
		switch {
		case !ok:
			return bsonError("malformed BSON binary value of "+excerpt.Bytes(data), ErrInvalidLength)
		case subtype != bsonGenericBinary:
			return bsonError("cannot decode BSON binary of subtype "+strconv.Itoa(int(subtype))+" and "+excerpt.Bytes(b)+" into KSUID: want subtype 0", ErrUnsupportedType)
		case len(b) != Size:
			return bsonError("cannot decode BSON binary of "+excerpt.Bytes(b)+" into KSUID: want 20 bytes", ErrInvalidLength)
		}
		*id = KSUID(b)
		return nil
	case bsonString:
		s, ok := bsonStringValue(data)
		if !ok {
			return bsonError("malformed BSON string value of "+excerpt.Bytes(data), ErrInvalidLength)
		}
		v, err := parse(s)
		if err != nil {
			return bsonError("cannot decode BSON string into KSUID: "+strings.TrimPrefix(err.Error(), "ksuid: "), err)
		}
		*id = v
		return nil
	case bsonNull:
		return bsonError("cannot decode BSON null into KSUID; use NullKSUID or *KSUID", ErrNull)
	}
	return bsonError("cannot decode BSON "+bsonTypeName(typ)+" value of "+excerpt.Bytes(data)+" into KSUID: want binary or string", ErrUnsupportedType)
}

// MarshalBSONValue writes BSON null when n is not valid, otherwise the
// KSUID as KSUID.MarshalBSONValue does.
func (n NullKSUID) MarshalBSONValue() (typ byte, data []byte, err error) {
	if !n.Valid {
		return bsonNull, nil, nil
	}
	return n.KSUID.MarshalBSONValue()
}

// UnmarshalBSONValue reads BSON null as an invalid NullKSUID, anything else
// as KSUID.UnmarshalBSONValue does. On error n is left unchanged.
func (n *NullKSUID) UnmarshalBSONValue(typ byte, data []byte) error {
	if typ == bsonNull {
		*n = NullKSUID{}
		return nil
	}
	var id KSUID
	if err := id.UnmarshalBSONValue(typ, data); err != nil {
		return err
	}
	*n = NullKSUID{KSUID: id, Valid: true}
	return nil
}

func bsonError(msg string, cause error) error {
	return &wrapError{msg: "ksuid: " + msg, err: cause}
}

// bsonBinaryValue splits the body of a BSON binary value: int32 length,
// subtype, bytes.
func bsonBinaryValue(data []byte) (b []byte, subtype byte, ok bool) {
	if len(data) < 5 {
		return nil, 0, false
	}
	n := binary.LittleEndian.Uint32(data)
	if uint64(n) != uint64(len(data)-5) {
		return nil, 0, false
	}
	return data[5:], data[4], true
}

// bsonStringValue returns the body of a BSON string value: int32 length
// counting a trailing NUL, then the bytes and the NUL.
func bsonStringValue(data []byte) ([]byte, bool) {
	if len(data) < 5 {
		return nil, false
	}
	n := binary.LittleEndian.Uint32(data)
	if uint64(n) != uint64(len(data)-4) || data[len(data)-1] != 0 {
		return nil, false
	}
	return data[4 : len(data)-1], true
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
