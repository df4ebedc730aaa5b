// Package uuidv7 implements UUID version 7 (RFC 9562): 16 bytes that start
// with the Unix time in milliseconds, so that IDs made later sort after
// IDs made earlier, as bytes and as text.
//
// Layout, as this package makes them (RFC 9562 section 6.2, method 3):
//
//	bytes 0-5   Unix time in milliseconds, big-endian (48 bits)
//	byte  6     version 7 in the high nibble
//	bytes 6-7   the fraction of the millisecond in units of 2^-12 ms (12 bits, rand_a)
//	byte  8     variant 0b10 in the two high bits
//	bytes 8-15  62 bits: random, or a random step past the previous ID (rand_b)
//
// The fraction of the millisecond orders IDs from different processes by
// their clocks to about 244 ns; within a process, New is strictly
// increasing. Other generators fill rand_a in other units (google/uuid:
// nanoseconds / 256) or with a counter or random bits, so Time reads only
// the millisecond.
//
// UUID is a [16]byte, as are Go 1.27's uuid.UUID and github.com/google/uuid's
// UUID: convert between them with a conversion, uuidv7.UUID(u).
//
// It imports only the standard library.
package uuidv7
