package objectid

import (
	"errors"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/sortid/sortid/internal/excerpt"
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

	// ErrOverflow means a generator has used up the 2^24 counter values
	// of a second: one more ID for that second would repeat one.
	ErrOverflow = errors.New("objectid: counter values used up")

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
func (e *ParseError) Error() string {
	if e == nil {
		return "objectid: <nil ParseError>"
	}
	msg := "objectid: parsing " + excerpt.Text(e.Input) + ": "
	switch {
	case e.Err == ErrInvalidLength:
		return msg + "invalid length " + strconv.Itoa(len(e.Input)) + ", want " + strconv.Itoa(EncodedLen)
	case e.Err == ErrInvalidCharacter && e.Offset >= 0 && e.Offset < len(e.Input):
		r, size := utf8.DecodeRuneInString(e.Input[e.Offset:])
		char := strconv.QuoteRune(r)
		if r == utf8.RuneError && size <= 1 {
			char = "byte 0x" + strconv.FormatUint(uint64(e.Input[e.Offset]), 16)
		}
		return msg + "invalid character " + char + " at offset " + strconv.Itoa(e.Offset)
	case e.Err == nil:
		return msg + "invalid ObjectID"
	}
	return msg + e.Err.Error()
}

// Unwrap returns the cause, for errors.Is.
func (e *ParseError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// wrapError is an error with its own message around a sentinel, so that
// messages carry the "objectid: " prefix only once.
type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

func lengthError(b []byte) error {
	return &wrapError{
		msg: "objectid: invalid ObjectID length: " + excerpt.Bytes(b) + ", want " + strconv.Itoa(Size) + " bytes",
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
