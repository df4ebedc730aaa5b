package objectid

import (
	"errors"
	"time"

	"github.com/sortid/sortid/internal/idtype"
)

// Sentinel errors. Every error about an input or an ID's value wraps one
// of them, for use with errors.Is.
var (
	// ErrInvalidLength means the input is not 24 hex characters of text or
	// 12 bytes of binary.
	ErrInvalidLength = errors.New("objectid: invalid length")

	// ErrInvalidCharacter means the text holds a character that is not a
	// hex digit.
	ErrInvalidCharacter = errors.New("objectid: invalid character")

	// ErrTimeRange means a time lies outside what an ObjectID can hold,
	// 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z.
	ErrTimeRange = errors.New("objectid: time out of range")

	// ErrExhausted means a generator has used up the 2^24 counter values
	// of a second: one more ID for that second would repeat one.
	ErrExhausted = errors.New("objectid: counter values used up")

	// ErrInvalidBSON means a BSON ObjectId value is not 12 bytes: its
	// framing is broken.
	ErrInvalidBSON = errors.New("objectid: malformed BSON")

	// ErrInvalidJSON means JSON input is neither a string, null, nor an
	// Extended JSON object {"$oid": "..."}.
	ErrInvalidJSON = errors.New("objectid: invalid JSON")

	// ErrNull means a NULL was scanned into an ObjectID, which cannot
	// hold one; NullObjectID and *ObjectID can.
	ErrNull = errors.New("objectid: NULL")

	// ErrUnsupportedType means Scan or a decoder was given a Go or
	// database type that does not hold an ObjectID.
	ErrUnsupportedType = errors.New("objectid: unsupported type")
)

// spec describes ObjectID to the rules it shares with ksuid.
var spec = idtype.Spec{
	Pkg:      "objectid",
	Type:     "ObjectID",
	Null:     "NullObjectID",
	Size:     Size,
	TextLen:  EncodedLen,
	ScanWant: "want 12 bytes or 24 hex digits",
	JSONWant: `a string of 24 hex digits, {"$oid": "<24 hex digits>"} or null`,
	MinTime:  time.Unix(0, 0).UTC(),
	MaxTime:  time.Unix(MaxUnix, 0).UTC(),

	ErrInvalidLength:    ErrInvalidLength,
	ErrInvalidCharacter: ErrInvalidCharacter,
	ErrTimeRange:        ErrTimeRange,
	ErrInvalidJSON:      ErrInvalidJSON,
	ErrNull:             ErrNull,
	ErrUnsupportedType:  ErrUnsupportedType,
	ErrInvalidBSON:      ErrInvalidBSON,

	ParseString: parseInto[string],
	ParseBytes:  parseInto[[]byte],
	ByteaError: func(input string, offset int) error {
		return &ParseError{Input: input, Offset: offset, Err: ErrInvalidCharacter}
	},
}

// ParseError reports text that is not an ObjectID. It wraps
// ErrInvalidLength or ErrInvalidCharacter.
type ParseError struct {
	Input  string // the rejected text
	Offset int    // byte offset of the first invalid character; -1 if none
	Err    error  // the cause
}

// Error describes the rejected text, quoting at most its first 64 bytes,
// and the reason. It does not panic for any field values, so a
// ParseError made by hand is safe to print.
func (e *ParseError) Error() string { return spec.ParseMessage((*idtype.ParseFields)(e)) }

// Unwrap returns the cause, so that errors.Is(err, ErrInvalidCharacter)
// and its siblings work.
func (e *ParseError) Unwrap() error { return (*idtype.ParseFields)(e).Cause() }
