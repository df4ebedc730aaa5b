package ksuid

import (
	"encoding/binary"

	"github.com/sortid/sortid/internal/idtype"
)

// StringKSUID is a KSUID that MongoDB stores as its 27-character text (a
// BSON string) instead of 20 bytes of binary. Declare a field with it when
// another service or language reads or writes the collection:
//
//	type Event struct {
//		OrderID ksuid.StringKSUID `bson:"order_id"`
//	}
//
// The form belongs to the type, so every writer stores the string: the
// driver's default registry, bsoncodec's, bson.Marshal, an UpdateOne with
// the value in $set. Convert with StringKSUID(id) and KSUID(s). Decoding
// reads both forms, like KSUID's.
//
// The text sorts like the bytes under MongoDB's default (simple) collation;
// a locale collation, such as {locale: "en"}, sorts "a" beside "A" and
// breaks time order. StringKSUID has no SQL methods: use KSUID in SQL.
type StringKSUID KSUID

// String returns the 27-character text form.
func (s StringKSUID) String() string { return KSUID(s).String() }

// IsZero reports whether s is the zero KSUID; with it mongo-driver's
// omitempty omits the zero value.
func (s StringKSUID) IsZero() bool { return KSUID(s).IsZero() }

// MarshalText returns the text form. With it encoding/json writes a
// StringKSUID as a JSON string, as it writes a KSUID.
func (s StringKSUID) MarshalText() ([]byte, error) { return KSUID(s).MarshalText() }

// UnmarshalText sets s from the text form, as Parse does. On error s is
// left unchanged.
func (s *StringKSUID) UnmarshalText(text []byte) error { return (*KSUID)(s).UnmarshalText(text) }

// UnmarshalJSON reads a JSON string as KSUID.UnmarshalJSON does.
func (s *StringKSUID) UnmarshalJSON(data []byte) error { return (*KSUID)(s).UnmarshalJSON(data) }

// MarshalBSONValue writes s as a BSON string holding the 27-character text
// form. It has the signature of mongo-driver v2's bson.ValueMarshaler.
func (s StringKSUID) MarshalBSONValue() (typ byte, data []byte, err error) {
	data = make([]byte, 4, 4+EncodedLen+1)
	binary.LittleEndian.PutUint32(data, EncodedLen+1)
	data, _ = KSUID(s).AppendText(data)
	return idtype.BSONString, append(data, 0), nil
}

// UnmarshalBSONValue reads either stored form, as KSUID.UnmarshalBSONValue
// does, so a collection written before the field was declared a
// StringKSUID still reads. On error s is left unchanged.
func (s *StringKSUID) UnmarshalBSONValue(typ byte, data []byte) error {
	return (*KSUID)(s).UnmarshalBSONValue(typ, data)
}
