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
