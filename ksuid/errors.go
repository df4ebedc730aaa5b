package ksuid

import (
	"errors"

	"github.com/sortid/sortid/internal/idtype"
)

// Sentinel errors. Every error about an input or an ID's value wraps one
// of them, for use with errors.Is.
var (
	// ErrInvalidLength means the input is not 27 characters of text or
	// 20 bytes of binary (16 bytes for a payload).
	ErrInvalidLength = errors.New("ksuid: invalid length")

	// ErrInvalidCharacter means the text holds a character outside the
	// base62 alphabet 0-9A-Za-z.
	ErrInvalidCharacter = errors.New("ksuid: invalid character")

	// ErrOverflow means the text is 27 valid characters whose value is
	// above the largest KSUID (aWgEPTl1tmebfsQzFP4bxwgy80V).
	ErrOverflow = errors.New("ksuid: value out of range")

	// ErrExhausted means a monotonic generator has passed the largest
	// KSUID and has no next ID to give.
	ErrExhausted = errors.New("ksuid: generator exhausted")

	// ErrInvalidBSON means a BSON value's framing is broken: its length
	// prefix disagrees with its bytes, or a string lacks its NUL.
	ErrInvalidBSON = errors.New("ksuid: malformed BSON")

	// ErrTimeRange means a time lies before the KSUID epoch
	// (2014-05-13T16:53:20Z) or after the last second a KSUID can hold
	// (2150-06-19T23:21:35Z).
	ErrTimeRange = errors.New("ksuid: time out of range")

	// ErrInvalidJSON means JSON input is neither a string nor null.
	ErrInvalidJSON = errors.New("ksuid: invalid JSON")

	// ErrNull means a NULL was scanned into a KSUID, which cannot hold
	// one; NullKSUID and *KSUID can.
	ErrNull = errors.New("ksuid: NULL")

	// ErrUnsupportedType means Scan or a decoder was given a Go or
	// database type that does not hold a KSUID.
	ErrUnsupportedType = errors.New("ksuid: unsupported type")
)

// spec describes KSUID to the rules it shares with objectid.
var spec = idtype.Spec{
	Pkg:      "ksuid",
	Type:     "KSUID",
	Null:     "NullKSUID",
	Size:     Size,
	TextLen:  EncodedLen,
	ScanWant: "want 20 bytes or 27 characters",
	JSONWant: "a string or null",
	MaxText:  maxText,
	MinTime:  minTime,
	MaxTime:  maxTime,

	ErrInvalidLength:    ErrInvalidLength,
	ErrInvalidCharacter: ErrInvalidCharacter,
	ErrOverflow:         ErrOverflow,
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

// ParseError reports text that is not a KSUID. It wraps one of
// ErrInvalidLength, ErrInvalidCharacter or ErrOverflow.
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
