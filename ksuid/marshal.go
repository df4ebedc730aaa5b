package ksuid

// AppendText appends the text form of id to b. It implements
// encoding.TextAppender and never returns an error.
func (id KSUID) AppendText(b []byte) ([]byte, error) {
	var buf [EncodedLen]byte
	encode(&buf, &id)
	return append(b, buf[:]...), nil
}

// MarshalText returns the text form of id. It implements
// encoding.TextMarshaler, so encoding/json writes a KSUID as a JSON string.
func (id KSUID) MarshalText() ([]byte, error) {
	return id.AppendText(make([]byte, 0, EncodedLen))
}

// UnmarshalText sets id to the KSUID whose text form is text, as Parse
// does. On error id is left unchanged. It implements
// encoding.TextUnmarshaler, so encoding/json reads a KSUID from a JSON
// string and leaves it unchanged for JSON null.
func (id *KSUID) UnmarshalText(text []byte) error {
	v, err := parse(text)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// AppendBinary appends the 20 bytes of id to b. It implements
// encoding.BinaryAppender and never returns an error.
func (id KSUID) AppendBinary(b []byte) ([]byte, error) {
	return append(b, id[:]...), nil
}

// MarshalBinary returns the 20 bytes of id. It implements
// encoding.BinaryMarshaler.
func (id KSUID) MarshalBinary() ([]byte, error) {
	return id.Bytes(), nil
}

// UnmarshalBinary sets id from exactly 20 bytes, as FromBytes does. On
// error id is left unchanged. It implements encoding.BinaryUnmarshaler.
func (id *KSUID) UnmarshalBinary(data []byte) error {
	v, err := FromBytes(data)
	if err != nil {
		return err
	}
	*id = v
	return nil
}
