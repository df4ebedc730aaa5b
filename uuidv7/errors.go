package uuidv7

import (
	"errors"
	"strconv"
	"time"

	"github.com/sortid/sortid/internal/idtype"
)

// Sentinel errors. Every error about an input wraps one of them, for use
// with errors.Is.
var (
	// ErrInvalidLength means the text is not 36 characters, or the
	// binary not 16 bytes.
	ErrInvalidLength = errors.New("uuidv7: invalid length")

	// ErrInvalidCharacter means the text holds a character that is not a
	// hex digit, or lacks a hyphen at 8, 13, 18 or 23.
	ErrInvalidCharacter = errors.New("uuidv7: invalid character")

	// ErrVersion means a well-formed UUID is not version 7 with the RFC
	// 9562 variant: another version, or the nil or max UUID.
	ErrVersion = errors.New("uuidv7: not a version 7 UUID")

	// ErrTimeRange means a time lies before 1970 or after the last
	// millisecond 48 bits hold (year 10889).
	ErrTimeRange = errors.New("uuidv7: time out of range")

	// ErrExhausted means a monotonic generator has passed the largest
	// UUIDv7 and has no next ID to give.
	ErrExhausted = errors.New("uuidv7: generator exhausted")

	// ErrInvalidJSON means JSON input is neither a string nor null.
	ErrInvalidJSON = errors.New("uuidv7: invalid JSON")

	// ErrInvalidBSON means a BSON value's framing is broken: its length
	// prefix disagrees with its bytes, or a string lacks its NUL.
	ErrInvalidBSON = errors.New("uuidv7: malformed BSON")

	// ErrNull means a NULL was scanned or decoded into a UUID, which
	// cannot hold one; NullUUID and *UUID can.
	ErrNull = errors.New("uuidv7: NULL")

	// ErrUnsupportedType means Scan or a decoder was given a Go or
	// database type that does not hold a UUID.
	ErrUnsupportedType = errors.New("uuidv7: unsupported type")
)

// spec describes UUID to the rules it shares with ksuid and objectid.
var spec = idtype.Spec{
	Pkg:      "uuidv7",
	Type:     "UUID",
	Null:     "NullUUID",
	Size:     Size,
	TextLen:  EncodedLen,
	ScanWant: "want 16 bytes or 36 characters",
	JSONWant: "a string or null",
	MinTime:  time.UnixMilli(0).UTC(),
	MaxTime:  time.UnixMilli(MaxUnixMilli).UTC(),

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
		return parseError(input, offset, ErrInvalidCharacter)
	},
	CheckBytes: checkV7,
}

// parseInto is parse for the shared rules, which hand a slice of Size
// bytes to fill.
func parseInto[S string | []byte](dst []byte, s S) error {
	id, err := parse(s)
	if err != nil {
		return err
	}
	copy(dst, id[:])
	return nil
}

// ParseError reports text that is not a UUIDv7. It wraps
// ErrInvalidLength, ErrInvalidCharacter or ErrVersion.
type ParseError struct {
	Input  string // the rejected text
	Offset int    // byte offset of the first invalid character; -1 if none
	Err    error  // the cause
}

// Error describes the rejected text, quoting at most its first 64 bytes,
// and the reason. It does not panic for any field values, so a
// ParseError made by hand is safe to print.
func (e *ParseError) Error() string {
	if e != nil && e.Err == ErrVersion && len(e.Input) == EncodedLen {
		return "uuidv7: parsing " + strconv.Quote(e.Input) + ": version " + e.Input[14:15] +
			", want a version 7 UUID with the RFC 9562 variant"
	}
	return spec.ParseMessage((*idtype.ParseFields)(e))
}

// Unwrap returns the cause, so that errors.Is(err, ErrVersion) and its
// siblings work.
func (e *ParseError) Unwrap() error { return (*idtype.ParseFields)(e).Cause() }

// parseError returns a ParseError for s; the copy of s is made on the
// error path only.
func parseError[S string | []byte](s S, offset int, err error) *ParseError {
	return &ParseError{Input: string(s), Offset: offset, Err: err}
}
