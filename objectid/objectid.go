package objectid

import (
	"encoding/binary"
	"math"
	"time"
)

// ObjectID is a MongoDB ObjectId: 12 bytes that begin with a big-endian
// Unix timestamp in seconds, so that IDs sort by creation time.
//
//	 0           4                   9           12
//	+-----------+-------------------+-----------+
//	| timestamp |  random (5 bytes) |  counter  |   current layout
//	+-----------+-----------+-------+-----------+
//	| timestamp |  machine  |  pid  |  counter  |   legacy layout
//	+-----------+-----------+-------+-----------+
//
// The zero value is the ObjectID "000000000000000000000000"; it is an
// ordinary value, not a null. ObjectID is comparable and can be used as a
// map key.
type ObjectID [Size]byte

const (
	// Size is the length of an ObjectID in bytes.
	Size = 12

	// EncodedLen is the length of the text form: 24 hex digits.
	EncodedLen = 2 * Size

	// MaxUnix is the last second an ObjectID can hold in Unix seconds,
	// 2106-02-07T06:28:15Z.
	MaxUnix = math.MaxUint32
)

// Nil is the zero ObjectID, 000000000000000000000000: the smallest, and
// the value of an ObjectID variable that holds none. It is a value like any
// other, never SQL NULL. Do not assign to it.
var Nil ObjectID

// Max is the largest ObjectID, ffffffffffffffffffffffff. Do not assign to
// it.
var Max = ObjectID{0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}

// MinAt returns the smallest ObjectID whose timestamp is the second of t
// (t truncated to the second): the other 8 bytes are zero. For "made from
// since until until", use the half-open bounds of Window, both MinAt:
// {_id: {$gte: MinAt(since), $lt: MinAt(until)}}; adjacent windows then
// share no ID. {$gte: MinAt(from), $lte: MaxAt(to)} selects the seconds
// from through to, both included. A time outside
// 1970-01-01T00:00:00Z to 2106-02-07T06:28:15Z is an error wrapping
// ErrTimeRange.
func MinAt(t time.Time) (ObjectID, error) {
	sec, err := timestampOf(t.Unix())
	if err != nil {
		return ObjectID{}, err
	}
	return withTimestamp(sec), nil
}

// MaxAt returns the largest ObjectID whose timestamp is the second of t
// (t truncated to the second): the other 8 bytes are 0xFF. See MinAt and
// Window.
func MaxAt(t time.Time) (ObjectID, error) {
	id, err := MinAt(t)
	if err != nil {
		return ObjectID{}, err
	}
	for i := 4; i < Size; i++ {
		id[i] = 0xFF
	}
	return id, nil
}

// timestampOf refuses seconds an ObjectID cannot hold rather than wrap
// them.
func timestampOf(sec int64) (uint32, error) {
	if sec < 0 || sec > MaxUnix {
		return 0, spec.TimeRangeError(sec)
	}
	return uint32(sec), nil
}

func withTimestamp(sec uint32) ObjectID {
	var id ObjectID
	binary.BigEndian.PutUint32(id[:4], sec)
	return id
}

// Timestamp returns the creation time in Unix seconds.
func (id ObjectID) Timestamp() uint32 {
	return binary.BigEndian.Uint32(id[:4])
}

// Time returns the second at which id was made, in UTC.
func (id ObjectID) Time() time.Time {
	return time.Unix(int64(id.Timestamp()), 0).UTC()
}

// Random returns bytes 4 to 8: in the current layout, the random value
// that a process chooses once.
func (id ObjectID) Random() [5]byte {
	return [5]byte(id[4:9])
}

// Counter returns the 3-byte big-endian counter in bytes 9 to 11, the
// same in the current and the legacy layout.
func (id ObjectID) Counter() uint32 {
	return uint32(id[9])<<16 | uint32(id[10])<<8 | uint32(id[11])
}

// LegacyFields are the parts of an ObjectID in the layout that drivers
// wrote before the current specification: a machine ID and a process ID
// where the random value now stands.
type LegacyFields struct {
	Machine uint32 // 3 bytes, big-endian: a hash of the host name
	PID     uint16 // 2 bytes, big-endian: the process ID, truncated
	Counter uint32 // 3 bytes, big-endian
}

// Legacy reads id in the legacy layout. Nothing in the bytes says which
// layout wrote them; the caller decides which reading makes sense.
func (id ObjectID) Legacy() LegacyFields {
	return LegacyFields{
		Machine: uint32(id[4])<<16 | uint32(id[5])<<8 | uint32(id[6]),
		PID:     binary.BigEndian.Uint16(id[7:9]),
		Counter: id.Counter(),
	}
}

// IsZero reports whether id is the zero ObjectID.
func (id ObjectID) IsZero() bool {
	return id == ObjectID{}
}
