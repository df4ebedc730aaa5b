package ksuid

import (
	"bytes"
	"encoding/json"

	"github.com/sortid/sortid/internal/excerpt"
)

// jsonSpace is the white space JSON allows around a value; bytes.TrimSpace
// would also take away form feeds and Unicode spaces, which JSON does not.
const jsonSpace = " \t\r\n"

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

// UnmarshalJSON sets id from a JSON string holding the text form, as
// Parse does. JSON null leaves id unchanged, as encoding/json does for
// types without this method. Any other JSON value is an error wrapping
// ErrInvalidJSON; on error id is left unchanged.
func (id *KSUID) UnmarshalJSON(data []byte) error {
	v, null, err := parseJSON(data, "KSUID")
	if err != nil || null {
		return err
	}
	*id = v
	return nil
}

// parseJSON reads a KSUID from a JSON string, or reports JSON null. into
// names the Go type for the error message.
func parseJSON(data []byte, into string) (id KSUID, null bool, err error) {
	data = bytes.Trim(data, jsonSpace)
	if string(data) == "null" {
		return KSUID{}, true, nil
	}
	// A KSUID's text needs no escapes, so the common case is 29 bytes
	// between quotes, read without a copy.
	if len(data) == EncodedLen+2 && data[0] == '"' && data[len(data)-1] == '"' && bytes.IndexByte(data, '\\') < 0 {
		id, err = parse(data[1 : len(data)-1])
		return id, false, err
	}
	if len(data) > 0 && data[0] == '"' {
		var s string
		if json.Unmarshal(data, &s) == nil {
			id, err = parse(s)
			return id, false, err
		}
	}
	return KSUID{}, false, &wrapError{
		msg: "ksuid: cannot unmarshal JSON " + excerpt.Text(data) + " into " + into + ": want a string or null",
		err: ErrInvalidJSON,
	}
}
