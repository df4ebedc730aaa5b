// Package byteahex reads PostgreSQL's hex output form of bytea: \x and
// then two hex digits, either case, per byte. It is what a bytea value
// looks like in psql and in the text result format.
package byteahex

// Is reports whether s has the length of the hex form of size bytes and
// starts with \x.
func Is[T string | []byte](s T, size int) bool {
	return len(s) == 2+2*size && s[0] == '\\' && s[1] == 'x'
}

// Decode fills dst from s, the hex form of len(dst) bytes (Is(s,
// len(dst)) must hold). If a character is not a hex digit, it returns the
// offset of the first such character in s and false, and dst is partly
// written.
func Decode[T string | []byte](dst []byte, s T) (badOffset int, ok bool) {
	for i := range dst {
		hi, lo := digit(s[2+2*i]), digit(s[3+2*i])
		switch {
		case hi < 0:
			return 2 + 2*i, false
		case lo < 0:
			return 3 + 2*i, false
		}
		dst[i] = byte(hi<<4 | lo)
	}
	return 0, true
}

func digit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c - 'a' + 10)
	case c >= 'A' && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}
