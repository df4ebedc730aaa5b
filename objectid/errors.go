package objectid

import (
	"errors"
	"strconv"
	"time"
	"unicode/utf8"
)

// Sentinel errors that every error from this package wraps, for use with
// errors.Is.
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

// maxQuoted bounds how much of a rejected input an error message repeats.
const maxQuoted = 64

// ParseError reports text that is not an ObjectID. It wraps
// ErrInvalidLength or ErrInvalidCharacter.
type ParseError struct {
	Input  string // the rejected text
	Offset int    // byte offset of the first invalid character; -1 if none
	Err    error  // the cause
}

func (e *ParseError) Error() string {
	msg := "objectid: parsing " + quote(e.Input) + ": "
	switch e.Err {
	case ErrInvalidLength:
		return msg + "invalid length " + strconv.Itoa(len(e.Input)) + ", want " + strconv.Itoa(EncodedLen)
	case ErrInvalidCharacter:
		r, size := utf8.DecodeRuneInString(e.Input[e.Offset:])
		char := strconv.QuoteRune(r)
		if r == utf8.RuneError && size <= 1 {
			char = "byte 0x" + strconv.FormatUint(uint64(e.Input[e.Offset]), 16)
		}
		return msg + "invalid character " + char + " at offset " + strconv.Itoa(e.Offset)
	}
	return msg + e.Err.Error()
}

// Unwrap returns the cause, for errors.Is.
func (e *ParseError) Unwrap() error { return e.Err }

func quote(s string) string {
	if len(s) > maxQuoted {
		return strconv.Quote(s[:maxQuoted]) + "..."
	}
	return strconv.Quote(s)
}

// wrapError is an error with its own message around a sentinel, so that
// messages carry the "objectid: " prefix only once.
type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

func lengthError(got int) error {
	return &wrapError{
		msg: "objectid: invalid length " + strconv.Itoa(got) + " bytes, want " + strconv.Itoa(Size),
		err: ErrInvalidLength,
	}
}

func timeRangeError(unix int64) error {
	return &wrapError{
		msg: "objectid: time " + time.Unix(unix, 0).UTC().Format(time.RFC3339) +
			" outside 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z",
		err: ErrTimeRange,
	}
}
