package ksuid

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
	// ErrInvalidLength means the input is not 27 characters of text or
	// 20 bytes of binary (16 bytes for a payload).
	ErrInvalidLength = errors.New("ksuid: invalid length")

	// ErrInvalidCharacter means the text holds a character outside the
	// base62 alphabet 0-9A-Za-z.
	ErrInvalidCharacter = errors.New("ksuid: invalid character")

	// ErrOverflow means the text is 27 valid characters whose value is
	// above the largest KSUID (aWgEPTl1tmebfsQzFP4bxwgy80V), or that a
	// generator has run past the last representable KSUID.
	ErrOverflow = errors.New("ksuid: value out of range")

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
func (e *ParseError) Error() string {
	if e == nil {
		return "ksuid: <nil ParseError>"
	}
	msg := "ksuid: parsing " + excerpt.Text(e.Input) + ": "
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
	case e.Err == ErrOverflow:
		return msg + "value above the largest KSUID " + maxText
	case e.Err == nil:
		return msg + "invalid KSUID"
	}
	return msg + e.Err.Error()
}

// Unwrap returns the cause, so that errors.Is(err, ErrInvalidCharacter)
// and its siblings work.
func (e *ParseError) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// wrapError is an error with its own message around a sentinel or an
// underlying error, so that messages carry the "ksuid: " prefix only once.
type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

func lengthError(what string, b []byte, want int) error {
	return &wrapError{
		msg: "ksuid: invalid " + what + " length: " + excerpt.Bytes(b) + ", want " + strconv.Itoa(want) + " bytes",
		err: ErrInvalidLength,
	}
}

func timeRangeError(unix int64) error {
	return &wrapError{
		msg: "ksuid: time " + time.Unix(unix, 0).UTC().Format(time.RFC3339) + " outside " +
			minTime.Format(time.RFC3339) + " to " + maxTime.Format(time.RFC3339),
		err: ErrTimeRange,
	}
}
