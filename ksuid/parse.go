package ksuid

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
func MustParse(s string) KSUID {
	id, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return id
}

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
