package objectid

import (
	"bytes"
	"encoding/json"

	"github.com/sortid/sortid/internal/excerpt"
)

// jsonSpace is the white space JSON allows around a value; bytes.TrimSpace
// would also take away form feeds and Unicode spaces, which JSON does not.
const jsonSpace = " \t\r\n"

// AppendText appends the lowercase hex form of id to b. It implements
// encoding.TextAppender and never returns an error.
func (id ObjectID) AppendText(b []byte) ([]byte, error) {
	var buf [EncodedLen]byte
	encode(&buf, &id)
	return append(b, buf[:]...), nil
}

// MarshalText returns the lowercase hex form of id. It implements
// encoding.TextMarshaler, so encoding/json writes an ObjectID as a JSON
// string.
func (id ObjectID) MarshalText() ([]byte, error) {
	return id.AppendText(make([]byte, 0, EncodedLen))
}

// UnmarshalText sets id from 24 hex digits, as Parse does. On error id is
// left unchanged. It implements encoding.TextUnmarshaler.
func (id *ObjectID) UnmarshalText(text []byte) error {
	v, err := parse(text)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// AppendBinary appends the 12 bytes of id to b. It implements
// encoding.BinaryAppender and never returns an error.
func (id ObjectID) AppendBinary(b []byte) ([]byte, error) {
	return append(b, id[:]...), nil
}

// MarshalBinary returns the 12 bytes of id. It implements
// encoding.BinaryMarshaler.
func (id ObjectID) MarshalBinary() ([]byte, error) {
	return id.Bytes(), nil
}

// UnmarshalBinary sets id from exactly 12 bytes, as FromBytes does. On
// error id is left unchanged. It implements encoding.BinaryUnmarshaler.
func (id *ObjectID) UnmarshalBinary(data []byte) error {
	v, err := FromBytes(data)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// UnmarshalJSON sets id from a JSON string of 24 hex digits or from
// MongoDB Extended JSON, {"$oid": "<24 hex digits>"} with no other field.
// JSON null leaves id unchanged, as encoding/json does for other types.
// Anything else is an error wrapping ErrInvalidJSON or, for a bad hex
// string, a *ParseError; on error id is left unchanged.
func (id *ObjectID) UnmarshalJSON(data []byte) error {
	data = bytes.Trim(data, jsonSpace)
	switch {
	case string(data) == "null":
		return nil
	case len(data) > 0 && data[0] == '"':
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return jsonError(data)
		}
		return id.UnmarshalText([]byte(s))
	case len(data) > 0 && data[0] == '{':
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(data, &fields); err != nil || len(fields) != 1 {
			return jsonError(data)
		}
		raw, ok := fields["$oid"]
		if !ok {
			return jsonError(data)
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return jsonError(data)
		}
		return id.UnmarshalText([]byte(s))
	}
	return jsonError(data)
}

func jsonError(data []byte) error {
	return &wrapError{
		msg: "objectid: invalid JSON " + excerpt.Text(data) + `: want a string of 24 hex digits or {"$oid": "<24 hex digits>"}`,
		err: ErrInvalidJSON,
	}
}
