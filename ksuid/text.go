package ksuid

import "github.com/sortid/sortid/internal/idtype"

// Parse returns the KSUID whose text form is s: exactly 27 characters from
// the base62 alphabet 0-9A-Za-z, no larger than
// "aWgEPTl1tmebfsQzFP4bxwgy80V". Every KSUID has exactly one text form, so
// Parse(id.String()) == id and any other input is an error. The error is a
// *ParseError that wraps ErrInvalidLength, ErrInvalidCharacter or
// ErrOverflow.
func Parse(s string) (KSUID, error) {
	return parse(s)
}

// MustParse is like Parse but panics if s is not a KSUID. It is meant for
// tests and for package-level values built from constants.
func MustParse(s string) KSUID { return idtype.Must(Parse(s)) }

// parse serves Parse and UnmarshalText without converting []byte input to
// a string, so that the success path does not allocate.
func parse[T string | []byte](s T) (KSUID, error) {
	var text [EncodedLen]byte
	if len(s) != EncodedLen {
		return KSUID{}, &ParseError{Input: string(s), Offset: -1, Err: ErrInvalidLength}
	}
	copy(text[:], s)
	var id KSUID
	if bad, ok := decode(&id, &text); !ok {
		if bad >= 0 {
			return KSUID{}, &ParseError{Input: string(s), Offset: bad, Err: ErrInvalidCharacter}
		}
		return KSUID{}, &ParseError{Input: string(s), Offset: -1, Err: ErrOverflow}
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

// String returns the 27-character base62 text form of id.
func (id KSUID) String() string {
	var buf [EncodedLen]byte
	encode(&buf, &id)
	return string(buf[:])
}

// AppendText appends the text form of id to b. It implements
// encoding.TextAppender and never returns an error.
func (id KSUID) AppendText(b []byte) ([]byte, error) {
	var buf [EncodedLen]byte
	encode(&buf, &id)
	return append(b, buf[:]...), nil
}

// MarshalText returns the text form of id. It implements
// encoding.TextMarshaler, so encoding/json writes a KSUID as a JSON string.
func (id KSUID) MarshalText() ([]byte, error) {
	return id.AppendText(make([]byte, 0, EncodedLen))
}

// UnmarshalText sets id to the KSUID whose text form is text, as Parse
// does. On error id is left unchanged. It implements
// encoding.TextUnmarshaler.
func (id *KSUID) UnmarshalText(text []byte) error {
	v, err := parse(text)
	return idtype.Store(id, v, err)
}
