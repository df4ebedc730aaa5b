package uuidv7

// Parse decodes the text form, 36 characters 8-4-4-4-12 of hex digits
// (upper or lower case, as RFC 9562 reads them), into a UUIDv7. Anything
// else is an error wrapping ErrInvalidLength or ErrInvalidCharacter; a
// well-formed UUID of another version or variant wraps ErrVersion.
func Parse(s string) (UUID, error) { return parse(s) }

// MustParse is Parse for constants and tests; it panics on an error.
func MustParse(s string) UUID {
	id, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return id
}

// hexValue maps an ASCII byte to its hex value, or 0xFF.
var hexValue = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xFF
	}
	for i := byte(0); i < 10; i++ {
		t['0'+i] = i
	}
	for i := byte(0); i < 6; i++ {
		t['a'+i], t['A'+i] = 10+i, 10+i
	}
	return t
}()

// hyphen reports the offsets that hold '-' in the text form.
func hyphen(i int) bool { return i == 8 || i == 13 || i == 18 || i == 23 }

func parse[S string | []byte](s S) (UUID, error) {
	var id UUID
	if len(s) != EncodedLen {
		return id, parseError(s, -1, ErrInvalidLength)
	}
	j := 0
	for i := 0; i < EncodedLen; {
		if hyphen(i) {
			if s[i] != '-' {
				return UUID{}, parseError(s, i, ErrInvalidCharacter)
			}
			i++
			continue
		}
		hi, lo := hexValue[s[i]], hexValue[s[i+1]]
		if hi == 0xFF {
			return UUID{}, parseError(s, i, ErrInvalidCharacter)
		}
		if lo == 0xFF {
			return UUID{}, parseError(s, i+1, ErrInvalidCharacter)
		}
		id[j] = hi<<4 | lo
		i, j = i+2, j+1
	}
	if !id.isV7() {
		return UUID{}, parseError(s, -1, ErrVersion)
	}
	return id, nil
}

const hexDigits = "0123456789abcdef"

// AppendText appends the text form, lower case, to b.
func (id UUID) AppendText(b []byte) ([]byte, error) {
	return id.appendString(b), nil
}

func (id UUID) appendString(b []byte) []byte {
	var buf [EncodedLen]byte
	id.encode(&buf)
	return append(b, buf[:]...)
}

// groups are the byte ranges of the text form's five hex groups.
var groups = [5][2]int{{0, 4}, {4, 6}, {6, 8}, {8, 10}, {10, 16}}

func (id UUID) encode(buf *[EncodedLen]byte) {
	j := 0
	for g, r := range groups {
		if g > 0 {
			buf[j] = '-'
			j++
		}
		for _, c := range id[r[0]:r[1]] {
			buf[j], buf[j+1] = hexDigits[c>>4], hexDigits[c&0x0F]
			j += 2
		}
	}
}

// String returns the text form, 36 characters in lower case.
func (id UUID) String() string {
	var buf [EncodedLen]byte
	id.encode(&buf)
	return string(buf[:])
}

// MarshalText returns the text form.
func (id UUID) MarshalText() ([]byte, error) {
	return id.appendString(make([]byte, 0, EncodedLen)), nil
}

// UnmarshalText parses the text form into id, which it leaves unchanged
// on an error.
func (id *UUID) UnmarshalText(b []byte) error {
	v, err := parse(b)
	if err != nil {
		return err
	}
	*id = v
	return nil
}

// MarshalBinary returns the 16 bytes.
func (id UUID) MarshalBinary() ([]byte, error) { return id.Bytes(), nil }

// UnmarshalBinary reads 16 bytes of a UUIDv7 into id, which it leaves
// unchanged on an error.
func (id *UUID) UnmarshalBinary(b []byte) error {
	v, err := FromBytes(b)
	if err != nil {
		return err
	}
	*id = v
	return nil
}
