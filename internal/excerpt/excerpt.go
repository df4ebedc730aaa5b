// Package excerpt quotes rejected input in error messages, bounded so
// that a megabyte of garbage does not become a megabyte of log line.
package excerpt

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"strconv"
)

// MaxBytes is how much of an input an error message repeats.
const MaxBytes = 64

// Text returns s quoted as a Go string, cut after MaxBytes bytes with
// "..." after the closing quote.
func Text[T string | []byte](s T) string {
	if len(s) > MaxBytes {
		return strconv.Quote(string(s[:MaxBytes])) + "..."
	}
	return strconv.Quote(string(s))
}

// Bytes describes binary input by its length and its first bytes in hex,
// for example "19 bytes 0x0102…": at most MaxBytes/2 bytes are shown.
func Bytes(b []byte) string {
	n := strconv.Itoa(len(b)) + " bytes"
	if len(b) == 0 {
		return n
	}
	if len(b) > MaxBytes/2 {
		return n + " 0x" + hex.EncodeToString(b[:MaxBytes/2]) + "..."
	}
	return n + " 0x" + hex.EncodeToString(b)
}

// Source describes a value handed to sql.Scanner.Scan by its Go type and,
// bounded, its content: the bytes of a []byte when showBytes is set (a
// []byte that failed to parse as text is quoted by the parse error
// instead), the length of a string (likewise quoted by the parse error),
// and the printed value of anything else.
func Source(src any, showBytes bool) string {
	switch s := src.(type) {
	case []byte:
		if showBytes {
			return "[]byte of " + Bytes(s)
		}
		return "[]byte of length " + strconv.Itoa(len(s))
	case string:
		return "string of length " + strconv.Itoa(len(s))
	}
	return reflect.TypeOf(src).String() + " " + Text(fmt.Sprint(src))
}
