package objectid

const hexDigits = "0123456789abcdef"

// hiDigit and loDigit map a byte to its hex value, either case, as the
// high or the low nibble of a byte; a byte that is not a hex digit maps to
// notHex, which no OR of valid digits reaches.
var hiDigit, loDigit = func() (hi, lo [256]uint16) {
	for i := range hi {
		hi[i], lo[i] = notHex, notHex
	}
	for i := range 16 {
		for _, digits := range []string{hexDigits, "0123456789ABCDEF"} {
			hi[digits[i]], lo[digits[i]] = uint16(i)<<4, uint16(i)
		}
	}
	return hi, lo
}()

const notHex = 0x100

func encode(dst *[EncodedLen]byte, id *ObjectID) {
	for i, b := range id {
		dst[2*i] = hexDigits[b>>4]
		dst[2*i+1] = hexDigits[b&0x0F]
	}
}

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

// Parse returns the ObjectID whose text form is s: exactly 24 hex digits,
// in either case. The error is a *ParseError that wraps ErrInvalidLength
// or ErrInvalidCharacter.
func Parse(s string) (ObjectID, error) {
	return parse(s)
}

// MustParse is like Parse but panics if s is not an ObjectID. It is meant
// for tests and for package-level values built from constants.
func MustParse(s string) ObjectID {
	id, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return id
}
