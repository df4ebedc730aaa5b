package ksuid

// StringKSUID is a KSUID, stored in MongoDB as its 27-character text, as
// KSUID is too now: the two types write the same BSON string and read
// the same forms. It is kept so that code declaring it still compiles;
// new code declares KSUID. Convert with StringKSUID(id) and KSUID(s).
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

// MarshalBSONValue writes s as KSUID.MarshalBSONValue does: a BSON
// string holding the 27-character text form. It has the signature of
// mongo-driver v2's bson.ValueMarshaler.
func (s StringKSUID) MarshalBSONValue() (typ byte, data []byte, err error) {
	return KSUID(s).MarshalBSONValue()
}

// UnmarshalBSONValue reads either stored form, as KSUID.UnmarshalBSONValue
// does, so a collection written before the field was declared a
// StringKSUID still reads. On error s is left unchanged.
func (s *StringKSUID) UnmarshalBSONValue(typ byte, data []byte) error {
	return (*KSUID)(s).UnmarshalBSONValue(typ, data)
}
