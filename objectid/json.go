package objectid

import (
	"encoding/json"

	"github.com/sortid/sortid/internal/idtype"
)

// UnmarshalJSON sets id from a JSON string of 24 hex digits or from
// MongoDB Extended JSON, {"$oid": "<24 hex digits>"} with no other field.
// JSON null leaves id unchanged, as encoding/json does for other types.
// Anything else is an error wrapping ErrInvalidJSON or, for a bad hex
// string, a *ParseError; on error id is left unchanged. (An ObjectID is
// written to JSON by MarshalText, as a string.)
func (id *ObjectID) UnmarshalJSON(data []byte) error {
	if idtype.IsJSONNull(data) {
		return nil
	}
	if text, ok := idtype.JSONString(data); ok {
		return id.UnmarshalText(text)
	}
	// Extended JSON: exactly one field, "$oid" to the letter (encoding/json
	// would match struct fields without regard to case), holding a string.
	var fields map[string]json.RawMessage
	if json.Unmarshal(data, &fields) != nil || len(fields) != 1 {
		return spec.JSONError(data)
	}
	text, ok := idtype.JSONString(fields["$oid"])
	if !ok {
		return spec.JSONError(data)
	}
	return id.UnmarshalText(text)
}
