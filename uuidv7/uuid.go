package uuidv7

import (
	"bytes"
	"encoding/binary"
	"time"
)

// UUID is a UUID of 16 bytes. The zero value is the nil UUID, which is
// not a version 7 UUID: Parse refuses it, IsZero reports it.
//
// UUID is comparable and can be used as a map key; Compare orders UUIDv7s
// by time.
type UUID [Size]byte

const (
	// Size is the length of a UUID in bytes.
	Size = 16

	// EncodedLen is the length of the text form, 8-4-4-4-12 hex digits.
	EncodedLen = 36

	// MaxUnixMilli is the last millisecond 48 bits hold.
	MaxUnixMilli = 1<<48 - 1
)

// Nil is the nil UUID, all zeros: the value of a UUID variable that
// holds none. Do not assign to it.
var Nil UUID

// FromBytes returns the UUIDv7 in b, which must be exactly 16 bytes of a
// version 7 UUID with the RFC 9562 variant.
func FromBytes(b []byte) (UUID, error) {
	if len(b) != Size {
		return UUID{}, spec.LengthError("UUID", b, Size)
	}
	id := UUID(b)
	if !id.isV7() {
		return UUID{}, checkV7(b)
	}
	return id, nil
}

// isV7 reports whether id carries version 7 and the RFC 9562 variant.
func (id UUID) isV7() bool { return id[6]>>4 == 7 && id[8]>>6 == 0b10 }

// Version returns the version nibble, 7 for a UUIDv7.
func (id UUID) Version() int { return int(id[6] >> 4) }

// UnixMilli returns the 48-bit millisecond timestamp.
func (id UUID) UnixMilli() int64 {
	return int64(binary.BigEndian.Uint64(id[:8]) >> 16)
}

// Time returns the millisecond the UUID was made in, in UTC. It does not
// read the fraction of the millisecond this package's generator stores:
// other generators fill those bits in other units, or with a counter or
// random bits.
func (id UUID) Time() time.Time { return time.UnixMilli(id.UnixMilli()).UTC() }

// IsZero reports whether id is the nil UUID.
func (id UUID) IsZero() bool { return id == Nil }

// Compare returns -1, 0 or +1 as id sorts before, with or after other.
func (id UUID) Compare(other UUID) int { return bytes.Compare(id[:], other[:]) }

// Bytes returns the 16 bytes of id in a new slice.
func (id UUID) Bytes() []byte { return append([]byte(nil), id[:]...) }

// MinAt returns the smallest UUIDv7 of t's millisecond (t truncated to
// the millisecond). For "made from since until until", use the half-open
// bounds of Window, both MinAt: WHERE id >= MinAt(since) AND id <
// MinAt(until); adjacent windows then share no ID. A time outside 1970
// to year 10889 is an error wrapping ErrTimeRange.
func MinAt(t time.Time) (UUID, error) {
	ms, err := milliOf(t)
	if err != nil {
		return UUID{}, err
	}
	return layout(ms, 0, 0), nil
}

// MaxAt returns the largest UUIDv7 of t's millisecond (t truncated to the
// millisecond): the upper bound of a closed window, WHERE id <=
// MaxAt(to), which includes all of to's millisecond. See Window.
func MaxAt(t time.Time) (UUID, error) {
	ms, err := milliOf(t)
	if err != nil {
		return UUID{}, err
	}
	return layout(ms, 1<<12-1, 1<<62-1), nil
}

func milliOf(t time.Time) (uint64, error) {
	ms := t.UnixMilli()
	if ms < 0 || ms > MaxUnixMilli || t.Before(time.Unix(0, 0)) {
		return 0, timeError(t)
	}
	return uint64(ms), nil
}

func timeError(t time.Time) error {
	return spec.Errorf("time "+t.UTC().Format(time.RFC3339Nano)+" is outside 1970-01-01T00:00:00Z to the last millisecond 48 bits hold", ErrTimeRange)
}

// layout builds a UUIDv7 from the millisecond, the 12 bits of rand_a and
// the 62 bits of rand_b.
func layout(ms uint64, randA uint16, randB uint64) UUID {
	var id UUID
	binary.BigEndian.PutUint64(id[:8], ms<<16|0x7000|uint64(randA&0x0FFF))
	binary.BigEndian.PutUint64(id[8:], 0b10<<62|randB&(1<<62-1))
	return id
}
