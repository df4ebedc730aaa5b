package idtype

import (
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/sortid/sortid/internal/excerpt"
)

// Error is an error with its own message around a cause: one of the
// package's sentinels or its *ParseError. Messages carry the package
// prefix once, however deep the cause.
type Error struct {
	Msg string
	Err error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Errorf returns an Error whose message is the package prefix and msg.
func (s *Spec) Errorf(msg string, cause error) error {
	return &Error{Msg: s.Pkg + ": " + msg, Err: cause}
}

// LengthError reports binary input of the wrong length; what names it
// ("KSUID", "payload").
func (s *Spec) LengthError(what string, b []byte, want int) error {
	return s.Errorf("invalid "+what+" length: "+excerpt.Bytes(b)+", want "+strconv.Itoa(want)+" bytes", s.ErrInvalidLength)
}

// TimeRangeError reports Unix seconds outside MinTime to MaxTime.
func (s *Spec) TimeRangeError(unix int64) error {
	return s.Errorf("time "+time.Unix(unix, 0).UTC().Format(time.RFC3339)+" outside "+
		s.MinTime.Format(time.RFC3339)+" to "+s.MaxTime.Format(time.RFC3339), s.ErrTimeRange)
}

// ParseFields is the layout of the packages' ParseError types, which
// convert their pointers to *ParseFields to share its methods.
type ParseFields struct {
	Input  string // the rejected text
	Offset int    // byte offset of the first invalid character; -1 if none
	Err    error  // the cause
}

// ParseMessage is the text of a package's *ParseError: the input quoted,
// bounded, and the reason. It does not panic for any field values, nor
// for a nil e, so a ParseError made by hand is safe to print.
func (s *Spec) ParseMessage(e *ParseFields) string {
	if e == nil {
		return s.Pkg + ": <nil ParseError>"
	}
	msg := s.Pkg + ": parsing " + excerpt.Text(e.Input) + ": "
	switch {
	case e.Err == s.ErrInvalidLength:
		return msg + "invalid length " + strconv.Itoa(len(e.Input)) + ", want " + strconv.Itoa(s.TextLen)
	case e.Err == s.ErrInvalidCharacter && e.Offset >= 0 && e.Offset < len(e.Input):
		r, size := utf8.DecodeRuneInString(e.Input[e.Offset:])
		char := strconv.QuoteRune(r)
		if r == utf8.RuneError && size <= 1 {
			char = "byte 0x" + strconv.FormatUint(uint64(e.Input[e.Offset]), 16)
		}
		return msg + "invalid character " + char + " at offset " + strconv.Itoa(e.Offset)
	case e.Err == s.ErrOverflow && s.MaxText != "":
		return msg + "value above the largest " + s.Type + " " + s.MaxText
	case e.Err == nil:
		return msg + "invalid " + s.Type
	}
	return msg + e.Err.Error()
}

// Cause is a ParseError's Unwrap: its Err, or nil for a nil e.
func (e *ParseFields) Cause() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// nullError reports a NULL (SQL or BSON) offered to the non-null type.
func (s *Spec) nullError(verb, what string) error {
	return s.Errorf("cannot "+verb+" "+what+" into "+s.Type+"; use "+s.Null+" or *"+s.Type, s.ErrNull)
}

// detail is a cause's message without the package prefix, for messages
// that already carry it.
func (s *Spec) detail(err error) string {
	msg := err.Error()
	if len(msg) > len(s.Pkg)+2 && msg[:len(s.Pkg)] == s.Pkg && msg[len(s.Pkg):len(s.Pkg)+2] == ": " {
		return msg[len(s.Pkg)+2:]
	}
	return msg
}
