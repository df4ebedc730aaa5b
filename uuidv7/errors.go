package uuidv7

import (
	"errors"
	"strconv"
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
)

// ParseError reports text that is not a UUIDv7. It wraps
// ErrInvalidLength, ErrInvalidCharacter or ErrVersion.
type ParseError struct {
	Input  string // the rejected text, at most its first 64 bytes
	Offset int    // byte offset of the first invalid character; -1 if none
	Err    error  // the cause

	length int // of the whole input, which Input may cut short
}

// Error describes the rejected text and the reason.
func (e *ParseError) Error() string {
	msg := "uuidv7: parsing " + strconv.Quote(e.Input) + ": "
	switch {
	case e.Err == ErrInvalidLength:
		return msg + "invalid length " + strconv.Itoa(max(e.length, len(e.Input))) + ", want 36"
	case e.Err == ErrInvalidCharacter && e.Offset >= 0 && e.Offset < len(e.Input):
		return msg + "invalid character " + strconv.QuoteRune(rune(e.Input[e.Offset])) + " at offset " + strconv.Itoa(e.Offset)
	case e.Err == ErrVersion && len(e.Input) == EncodedLen:
		return msg + "version " + e.Input[14:15] + ", want a version 7 UUID with the RFC 9562 variant"
	case e.Err != nil:
		return msg + e.Err.Error()
	}
	return msg + "invalid"
}

// Unwrap returns the cause.
func (e *ParseError) Unwrap() error { return e.Err }

// parseError returns a ParseError for s, quoting at most its first 64
// bytes.
func parseError[S string | []byte](s S, offset int, err error) *ParseError {
	in := s
	if len(in) > 64 {
		in = in[:64]
	}
	return &ParseError{Input: string(in), Offset: offset, Err: err, length: len(s)}
}
