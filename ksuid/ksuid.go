package ksuid

import (
	"encoding/binary"
	"math"
	"time"
)

// KSUID is a K-sortable unique identifier: a 4-byte big-endian timestamp
// followed by a 16-byte payload. The zero value is the smallest
// KSUID, with text form "000000000000000000000000000"; it is an ordinary
// value, not a null.
//
//	 0               4                                              20
//	+---------------+-----------------------------------------------+
//	|   timestamp   |                    payload                    |
//	+---------------+-----------------------------------------------+
//	seconds since 2014-05-13T16:53:20Z, then (in the IDs this package makes)
//	the fraction of the second in 3 bytes and 104 random bits
//
// KSUID is comparable and can be used as a map key; == compares all
// 20 bytes.
type KSUID [Size]byte

const (
	// Size is the length of a KSUID in bytes.
	Size = 20

	// PayloadSize is the length of the payload in bytes.
	PayloadSize = 16

	// EncodedLen is the length of the text form in characters.
	EncodedLen = 27

	// EpochUnix is the KSUID epoch in Unix seconds, 2014-05-13T16:53:20Z:
	// timestamp 0.
	EpochUnix = 1400000000

	// MaxUnix is the last second a KSUID can hold in Unix seconds,
	// 2150-06-19T23:21:35Z: timestamp 2^32-1.
	MaxUnix = EpochUnix + math.MaxUint32

	timestampSize = Size - PayloadSize

	// maxText is the text form of the largest KSUID, twenty 0xFF bytes.
	maxText = "aWgEPTl1tmebfsQzFP4bxwgy80V"
)

var (
	minTime = time.Unix(EpochUnix, 0).UTC()
	maxTime = time.Unix(MaxUnix, 0).UTC()
)

// Nil is the zero KSUID, 000000000000000000000000000: the smallest, and
// the value of a KSUID variable that holds none. It is a value like any
// other, never SQL NULL. Do not assign to it.
var Nil KSUID

// Max is the largest KSUID, aWgEPTl1tmebfsQzFP4bxwgy80V: every byte 0xFF.
// Do not assign to it.
var Max = KSUID{
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
	0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
}

// FromParts returns the KSUID with the second of t as its timestamp and
// payload, which must be exactly 16 bytes, as its payload. The fraction of
// the second is dropped. A time outside the range a KSUID can hold
// (2014-05-13T16:53:20Z to 2150-06-19T23:21:35Z) is an error wrapping
// ErrTimeRange.
func FromParts(t time.Time, payload []byte) (KSUID, error) {
	if len(payload) != PayloadSize {
		return KSUID{}, spec.LengthError("payload", payload, PayloadSize)
	}
	id, err := MinAt(t)
	if err != nil {
		return KSUID{}, err
	}
	copy(id[timestampSize:], payload)
	return id, nil
}

// MinAt returns the smallest KSUID whose timestamp is the second of t (t
// truncated to the second): its payload is all zero bytes. For "made
// from since until until", use the half-open bounds of Window, both
// MinAt: WHERE id >= MinAt(since) AND id < MinAt(until); adjacent
// windows then share no ID. BETWEEN MinAt(from) AND MaxAt(to) selects the
// seconds from through to, both included, so two such windows that meet
// at a second both hold its IDs. A time outside the KSUID range is an
// error wrapping ErrTimeRange.
func MinAt(t time.Time) (KSUID, error) {
	ts, err := timestampOf(t.Unix())
	if err != nil {
		return KSUID{}, err
	}
	return withTimestamp(ts), nil
}

// withTimestamp returns the KSUID with timestamp ts and a zero payload.
func withTimestamp(ts uint32) KSUID {
	var id KSUID
	binary.BigEndian.PutUint32(id[:timestampSize], ts)
	return id
}

// MaxAt returns the largest KSUID whose timestamp is the second of t (t
// truncated to the second): its payload is all 0xFF bytes. See MinAt and
// Window.
func MaxAt(t time.Time) (KSUID, error) {
	id, err := MinAt(t)
	if err != nil {
		return KSUID{}, err
	}
	for i := timestampSize; i < Size; i++ {
		id[i] = 0xFF
	}
	return id, nil
}

// timestampOf converts Unix seconds to KSUID seconds, refusing times out
// of range rather than wrapping them.
func timestampOf(sec int64) (uint32, error) {
	if sec < EpochUnix || sec > MaxUnix {
		return 0, spec.TimeRangeError(sec)
	}
	return uint32(sec - EpochUnix), nil
}

// Timestamp returns the raw timestamp: seconds since the KSUID epoch.
func (id KSUID) Timestamp() uint32 {
	return binary.BigEndian.Uint32(id[:timestampSize])
}

// Time returns the second at which id was made, in UTC.
func (id KSUID) Time() time.Time {
	return time.Unix(EpochUnix+int64(id.Timestamp()), 0).UTC()
}

// Payload returns the 16 payload bytes of id, as a value: it does not
// allocate, as ObjectID.Random does not. (In a monotonic generator's IDs
// the first 3 hold the fraction of the second.) Use p := id.Payload() and
// p[:] where a slice is needed.
func (id KSUID) Payload() [PayloadSize]byte {
	return [PayloadSize]byte(id[timestampSize:])
}

// IsZero reports whether id is the zero KSUID.
func (id KSUID) IsZero() bool {
	return id == KSUID{}
}
