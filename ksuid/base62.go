package ksuid

import (
	"encoding/binary"
	"math/bits"
)

// The text form is the 160-bit big-endian value of the KSUID written in
// base62 with the digits 0-9A-Za-z. The digits are in ASCII order, so text
// order equals numeric order equals byte order.
//
// Both directions work on three chunks of base62 digits, 7 + 10 + 10,
// because 62^10 is the largest power of 62 below 2^64: one 64-bit division
// or multiplication moves ten digits at a time, and only three wide
// divisions are needed per KSUID instead of one per digit. Within a chunk
// the digits go in independent groups of five (62^5 < 2^32), so the CPU
// can work on several groups at once.
const (
	alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

	chunkBase = 839299365868340224 // 62^10
	groupBase = 916132832          // 62^5
)

// invalidDigit marks bytes outside the alphabet in digitValues.
const invalidDigit = 0xFF

// digitValues maps a byte to its base62 value, or invalidDigit.
var digitValues = func() (t [256]byte) {
	for i := range t {
		t[i] = invalidDigit
	}
	for i := range len(alphabet) {
		t[alphabet[i]] = byte(i)
	}
	return t
}()

// encode writes the text form of id to dst.
func encode(dst *[EncodedLen]byte, id *KSUID) {
	hi := uint64(binary.BigEndian.Uint32(id[0:4]))
	mid := binary.BigEndian.Uint64(id[4:12])
	lo := binary.BigEndian.Uint64(id[12:20])

	// Divide the 160-bit value (hi, mid, lo) by 62^10 twice. hi < 2^32 is
	// below the divisor, as is the upper quotient word, so each
	// bits.Div64 call has its high input below its divisor, as it must.
	q1, r := bits.Div64(hi, mid, chunkBase)
	q0, low := bits.Div64(r, lo, chunkBase)
	top, middle := bits.Div64(q1, q0, chunkBase)

	// Split each chunk into five-digit groups below 62^5 < 2^32, so that
	// the digit loops are short, 32-bit and independent of each other.
	putDigits5((*[5]byte)(dst[22:27]), uint32(low%groupBase))
	putDigits5((*[5]byte)(dst[17:22]), uint32(low/groupBase))
	putDigits5((*[5]byte)(dst[12:17]), uint32(middle%groupBase))
	putDigits5((*[5]byte)(dst[7:12]), uint32(middle/groupBase))
	putDigits5((*[5]byte)(dst[2:7]), uint32(top%groupBase))
	t := top / groupBase // top < 62^7, so t < 62^2
	dst[0], dst[1] = digitPairs[2*t], digitPairs[2*t+1]
}

// putDigits5 writes v < 62^5 as five base62 digits, two at a time.
func putDigits5(dst *[5]byte, v uint32) {
	lo, v := v%pairBase, v/pairBase
	mid, top := v%pairBase, v/pairBase
	dst[3], dst[4] = digitPairs[2*lo], digitPairs[2*lo+1]
	dst[1], dst[2] = digitPairs[2*mid], digitPairs[2*mid+1]
	dst[0] = alphabet[top]
}

// pairBase is 62^2: the number of two-digit pairs.
const pairBase = 62 * 62

// digitPairs holds the two digits of each value below 62^2, so that the
// encoder divides half as often.
var digitPairs = func() (t [2 * pairBase]byte) {
	for v := range pairBase {
		t[2*v], t[2*v+1] = alphabet[v/62], alphabet[v%62]
	}
	return t
}()

// decode parses the text form in s. It returns the offset of the first
// byte outside the alphabet (or -1) and whether the value fits in 160 bits.
// The text comes as an array so that fixed offsets need no bounds checks.
func decode(id *KSUID, s *[EncodedLen]byte) (badOffset int, ok bool) {
	// Two digits, then five groups of five. Each group's value is a sum
	// of independent products rather than a chain of multiply-adds, so
	// the CPU can work on all of them at once. bad collects the OR of all
	// digit values: valid ones are below 64.
	d0, d1 := digitValues[s[0]], digitValues[s[1]]
	bad := d0 | d1
	var g [5]uint64
	for k := range g {
		p := (*[5]byte)(s[2+5*k : 7+5*k])
		a, b, c, d, e := digitValues[p[0]], digitValues[p[1]], digitValues[p[2]], digitValues[p[3]], digitValues[p[4]]
		bad |= a | b | c | d | e
		g[k] = uint64(a)*(62*62*62*62) + uint64(b)*(62*62*62) + uint64(c)*(62*62) + uint64(d)*62 + uint64(e)
	}
	if bad&^0x3F != 0 {
		for i, c := range s {
			if digitValues[c] == invalidDigit {
				return i, false
			}
		}
	}
	top := (uint64(d0)*62+uint64(d1))*groupBase + g[0]
	middle := g[1]*groupBase + g[2]
	low := g[3]*groupBase + g[4]

	// value = (top*62^10 + middle)*62^10 + low, in three 64-bit words.
	h1, l1 := bits.Mul64(top, chunkBase)
	l1, c := bits.Add64(l1, middle, 0)
	h1 += c // top*62^10 + middle < 62^17 < 2^102: no overflow
	a1, w0 := bits.Mul64(l1, chunkBase)
	b1h, b0l := bits.Mul64(h1, chunkBase)
	w1, c := bits.Add64(a1, b0l, 0)
	w2 := b1h + c // the whole value is below 62^27 < 2^161
	w0, c = bits.Add64(w0, low, 0)
	w1, c = bits.Add64(w1, 0, c)
	w2 += c
	if w2 > 0xFFFFFFFF {
		return -1, false
	}
	binary.BigEndian.PutUint32(id[0:4], uint32(w2))
	binary.BigEndian.PutUint64(id[4:12], w1)
	binary.BigEndian.PutUint64(id[12:20], w0)
	return -1, true
}
