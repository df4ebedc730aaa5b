package objectid

import "github.com/sortid/sortid/internal/idtype"

// Parse returns the ObjectID whose text form is s: exactly 24 hex digits,
// in either case. The error is a *ParseError that wraps ErrInvalidLength
// or ErrInvalidCharacter.
func Parse(s string) (ObjectID, error) {
	return parse(s)
}

// MustParse is like Parse but panics if s is not an ObjectID. It is meant
// for tests and for package-level values built from constants.
func MustParse(s string) ObjectID { return idtype.Must(Parse(s)) }

// parse serves Parse and UnmarshalText without converting []byte input to
// a string, so that the success path does not allocate. It decodes all 24
// digits before it checks any, and looks for the offending one only when
// the check fails.
func parse[T string | []byte](s T) (ObjectID, error) {
	if len(s) != EncodedLen {
		return ObjectID{}, &ParseError{Input: string(s), Offset: -1, Err: ErrInvalidLength}
	}
	text := [EncodedLen]byte([]byte(s))
	var id ObjectID
	var seen uint16
	for i := range id {
		b := hiDigit[text[2*i]] | loDigit[text[2*i+1]]
		seen |= b
		id[i] = byte(b)
	}
	if seen >= notHex {
		bad := 0
		for loDigit[text[bad]] != notHex {
			bad++
		}
		return ObjectID{}, &ParseError{Input: string(s), Offset: bad, Err: ErrInvalidCharacter}
	}
	return id, nil
}

// parseInto is parse for the shared rules (spec), which write into a
// slice.
func parseInto[T string | []byte](dst []byte, s T) error {
	id, err := parse(s)
	if err == nil {
		copy(dst, id[:])
	}
	return err
}

// String returns the 24-character lowercase hex form of id.
func (id ObjectID) String() string {
	var buf [EncodedLen]byte
	encode(&buf, &id)
	return string(buf[:])
}

// AppendText appends the lowercase hex form of id to b. It implements
// encoding.TextAppender and never returns an error.
func (id ObjectID) AppendText(b []byte) ([]byte, error) {
	var buf [EncodedLen]byte
	encode(&buf, &id)
	return append(b, buf[:]...), nil
}

// MarshalText returns the lowercase hex form of id. It implements
// encoding.TextMarshaler, so encoding/json writes an ObjectID as a JSON
// string.
func (id ObjectID) MarshalText() ([]byte, error) {
	return id.AppendText(make([]byte, 0, EncodedLen))
}

// UnmarshalText sets id from 24 hex digits, as Parse does. On error id is
// left unchanged. It implements encoding.TextUnmarshaler.
func (id *ObjectID) UnmarshalText(text []byte) error {
	v, err := parse(text)
	return idtype.Store(id, v, err)
}
