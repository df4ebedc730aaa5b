package idtype

import (
	"encoding/binary"
	"strconv"

	"github.com/sortid/sortid/internal/excerpt"
)

// BSON type codes and the generic binary subtype, from the BSON
// specification (bsonspec.org).
const (
	BSONString        = 0x02
	BSONBinary        = 0x05
	BSONObjectID      = 0x07
	BSONNull          = 0x0A
	BSONGenericBinary = 0x00
)

// BSONBinaryBody splits the body of a BSON binary value: int32 length,
// subtype, bytes. ok is false when the framing is broken.
func BSONBinaryBody(data []byte) (b []byte, subtype byte, ok bool) {
	if len(data) < 5 {
		return nil, 0, false
	}
	n := binary.LittleEndian.Uint32(data)
	if uint64(n) != uint64(len(data)-5) {
		return nil, 0, false
	}
	return data[5:], data[4], true
}

// AppendBSONBinary appends the body of a BSON binary value of the given
// subtype holding b.
func AppendBSONBinary(dst []byte, subtype byte, b []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(b)))
	dst = append(dst, subtype)
	return append(dst, b...)
}

// BSONStringBody returns the bytes of a BSON string value: int32 length
// counting a trailing NUL, then the bytes and the NUL. ok is false when
// the framing is broken.
func BSONStringBody(data []byte) ([]byte, bool) {
	if len(data) < 5 {
		return nil, false
	}
	n := binary.LittleEndian.Uint32(data)
	if uint64(n) != uint64(len(data)-4) || data[len(data)-1] != 0 {
		return nil, false
	}
	return data[4 : len(data)-1], true
}

// BSONTypeName names a BSON type code for error messages.
func BSONTypeName(t byte) string {
	switch t {
	case 0x01:
		return "double"
	case 0x02:
		return "string"
	case 0x03:
		return "embedded document"
	case 0x04:
		return "array"
	case 0x05:
		return "binary"
	case 0x06:
		return "undefined"
	case 0x07:
		return "ObjectId"
	case 0x08:
		return "boolean"
	case 0x09:
		return "UTC datetime"
	case 0x0A:
		return "null"
	case 0x0B:
		return "regex"
	case 0x0C:
		return "DBPointer"
	case 0x0D:
		return "JavaScript code"
	case 0x0E:
		return "symbol"
	case 0x0F:
		return "code with scope"
	case 0x10:
		return "32-bit integer"
	case 0x11:
		return "timestamp"
	case 0x12:
		return "64-bit integer"
	case 0x13:
		return "128-bit decimal"
	case 0xFF:
		return "min key"
	case 0x7F:
		return "max key"
	}
	return "type 0x" + strconv.FormatUint(uint64(t), 16)
}

// BSONNullError reports BSON null offered to the non-null type.
func (s *Spec) BSONNullError() error {
	return s.nullError("decode", "BSON null")
}

// BSONTypeError reports a BSON value of a type that does not hold the ID;
// want says which do.
func (s *Spec) BSONTypeError(typ byte, data []byte, want string) error {
	return s.Errorf("cannot decode BSON "+BSONTypeName(typ)+" value of "+excerpt.Bytes(data)+" into "+s.Type+": want "+want, s.ErrUnsupportedType)
}

// BSONMalformedError reports a BSON value whose framing is broken.
func (s *Spec) BSONMalformedError(what string, data []byte) error {
	return s.Errorf("malformed BSON "+what+" value of "+excerpt.Bytes(data), s.ErrInvalidBSON)
}

// BSONParseError reports a BSON string that does not hold the text form.
func (s *Spec) BSONParseError(err error) error {
	return s.Errorf("cannot decode BSON string into "+s.Type+": "+s.detail(err), err)
}
