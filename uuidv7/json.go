package uuidv7

import "github.com/sortid/sortid/internal/idtype"

// UnmarshalJSON sets id from a JSON string holding the text form, as
// Parse does. JSON null leaves id unchanged, as encoding/json does for
// types without this method. Any other JSON value is an error wrapping
// ErrInvalidJSON; on error id is left unchanged. (A UUID is written to
// JSON by MarshalText, as a string.)
func (id *UUID) UnmarshalJSON(data []byte) error {
	if idtype.IsJSONNull(data) {
		return nil
	}
	text, ok := idtype.JSONString(data)
	if !ok {
		return spec.JSONError(data)
	}
	return id.UnmarshalText(text)
}
