// Package idtype holds the rules that the ID packages, ksuid, objectid
// and uuidv7, share: how errors read, what Scan accepts, how BSON and JSON values are
// framed, what NULL means for the Null types, and how an ID steps to its
// neighbour. Each package describes its type once in a Spec and keeps its
// own exported API and docs; the rules live here, once. It imports only
// the standard library, so the ID packages still import nothing from
// outside it.
package idtype

import "time"

// Spec describes one ID type to the shared rules: the names its messages
// use, its sizes, and the package's sentinel errors that every error
// wraps.
type Spec struct {
	Pkg      string // package name and message prefix: "ksuid"
	Type     string // the Go type: "KSUID"
	Null     string // its nullable type: "NullKSUID"
	Size     int    // bytes of the binary form
	TextLen  int    // characters of the text form
	ScanWant string // what Scan takes, for its length error
	JSONWant string // what UnmarshalJSON takes, for its error

	// MaxText is the text form of the largest ID, named when text
	// overflows; empty where the text form cannot overflow.
	MaxText string

	// The time range the timestamp can hold, for ErrTimeRange messages.
	MinTime, MaxTime time.Time

	ErrInvalidLength    error
	ErrInvalidCharacter error
	ErrOverflow         error
	ErrTimeRange        error
	ErrInvalidJSON      error
	ErrNull             error
	ErrUnsupportedType  error
	ErrInvalidBSON      error

	// ParseString and ParseBytes decode the text form into dst, which
	// has Size bytes, and write it only when they succeed. They return
	// the package's *ParseError. There are two so that neither input is
	// copied into the other's type on the way.
	ParseString func(dst []byte, text string) error
	ParseBytes  func(dst []byte, text []byte) error

	// ByteaError makes the package's *ParseError for PostgreSQL's hex
	// form of a bytea with a bad digit at offset.
	ByteaError func(input string, offset int) error

	// CheckBytes, if set, vets the Size bytes of a binary form before
	// Scan writes them (a UUIDv7 must be of version 7); the text form is
	// vetted by ParseString and ParseBytes.
	CheckBytes func(b []byte) error
}

// Must returns v, or panics with err: MustParse, for values known to be
// good.
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Store sets *dst to v when err is nil, and returns err: the decoders'
// rule that a failed decode leaves the receiver as it was.
func Store[T any](dst *T, v T, err error) error {
	if err == nil {
		*dst = v
	}
	return err
}
