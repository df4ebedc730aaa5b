package idtype

// Increment adds one to b as a big-endian number and reports true. When
// every byte is 0xFF there is no successor: b is left as it is and the
// result is false.
func Increment(b []byte) bool {
	for i := len(b) - 1; i >= 0; i-- {
		b[i]++
		if b[i] != 0 {
			return true
		}
	}
	for i := range b {
		b[i] = 0xFF
	}
	return false
}

// Decrement subtracts one from b as a big-endian number and reports true.
// When every byte is zero there is no predecessor: b is left as it is and
// the result is false.
func Decrement(b []byte) bool {
	for i := len(b) - 1; i >= 0; i-- {
		b[i]--
		if b[i] != 0xFF {
			return true
		}
	}
	clear(b)
	return false
}
