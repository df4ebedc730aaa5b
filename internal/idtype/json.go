package idtype

import (
	"bytes"
	"encoding/json"

	"github.com/sortid/sortid/internal/excerpt"
)

// jsonSpace is the white space JSON allows around a value; bytes.TrimSpace
// would also take away form feeds and Unicode spaces, which JSON does not.
const jsonSpace = " \t\r\n"

// IsJSONNull reports whether data is the JSON literal null.
func IsJSONNull(data []byte) bool {
	return string(bytes.Trim(data, jsonSpace)) == "null"
}

// JSONString returns the content of data when it is one JSON string, ok
// false otherwise. A string without escapes, as every ID's text form is,
// is returned without a copy.
func JSONString(data []byte) (text []byte, ok bool) {
	data = bytes.Trim(data, jsonSpace)
	if len(data) < 2 || data[0] != '"' {
		return nil, false
	}
	if data[len(data)-1] == '"' && bytes.IndexByte(data, '\\') < 0 && !bytes.ContainsAny(data[1:len(data)-1], "\"") {
		return data[1 : len(data)-1], true
	}
	var s string
	if json.Unmarshal(data, &s) != nil {
		return nil, false
	}
	return []byte(s), true
}

// JSONError reports JSON input that holds no ID; it wraps ErrInvalidJSON.
func (s *Spec) JSONError(data []byte) error {
	return s.Errorf("cannot unmarshal JSON "+excerpt.Text(bytes.Trim(data, jsonSpace))+" into "+s.Type+": want "+s.JSONWant, s.ErrInvalidJSON)
}
