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
		char := strconv.QuoteRune(rune(e.Input[e.Offset]))
		if e.Input[e.Offset] >= 0x80 {
			char = "byte 0x" + strconv.FormatUint(uint64(e.Input[e.Offset]), 16)
		}
		return msg + "invalid character " + char + " at offset " + strconv.Itoa(e.Offset)
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
