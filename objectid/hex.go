package objectid

const hexDigits = "0123456789abcdef"

// invalidNibble marks bytes that are not hex digits in nibbleValues.
const invalidNibble = 0xFF

// nibbleValues maps a byte to its hex value, either case, or invalidNibble.
var nibbleValues = func() (t [256]byte) {
	for i := range t {
		t[i] = invalidNibble
	}
	for i := range 16 {
		t["0123456789abcdef"[i]] = byte(i)
		t["0123456789ABCDEF"[i]] = byte(i)
	}
	return t
}()

func encode(dst *[EncodedLen]byte, id *ObjectID) {
	for i, b := range id {
		dst[2*i] = hexDigits[b>>4]
		dst[2*i+1] = hexDigits[b&0x0F]
	}
}

// parse serves Parse and UnmarshalText without converting []byte input to
// a string, so that the success path does not allocate.
func parse[T string | []byte](s T) (ObjectID, error) {
	if len(s) != EncodedLen {
		return ObjectID{}, &ParseError{Input: string(s), Offset: -1, Err: ErrInvalidLength}
	}
	var id ObjectID
	for i := range id {
		hi, lo := nibbleValues[s[2*i]], nibbleValues[s[2*i+1]]
		if hi == invalidNibble || lo == invalidNibble {
			bad := 2 * i
			if hi != invalidNibble {
				bad++
			}
			return ObjectID{}, &ParseError{Input: string(s), Offset: bad, Err: ErrInvalidCharacter}
		}
		id[i] = hi<<4 | lo
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
