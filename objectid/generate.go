package objectid

import (
	"crypto/rand"
	"sync"
	"sync/atomic"
	"time"
)

// process holds what the MongoDB ObjectId specification fixes per process:
// a 5-byte random value, and a counter that starts at a random value. It
// is set up on first use, not at init, so that importing the package does
// no work.
var process = sync.OnceValue(func() *processState {
	var seed [8]byte
	rand.Read(seed[:])
	p := &processState{random: [5]byte(seed[:5])}
	p.counter.Store(uint32(seed[5])<<16 | uint32(seed[6])<<8 | uint32(seed[7]))
	return p
})

type processState struct {
	random  [5]byte
	counter atomic.Uint32 // only the low 24 bits are used, so it wraps at 2^24
}

// New returns an ObjectID for the current second, laid out as the MongoDB
// specification says: the timestamp, this process's random value, and the
// next value of a 24-bit counter. It is safe for concurrent use and takes
// no lock.
//
// New panics only if the system clock reads a time an ObjectID cannot
// hold (before 1970 or after 2106-02-07); NewAt returns an error instead.
func New() ObjectID {
	sec, err := timestampOf(unixNow())
	if err != nil {
		panic(err)
	}
	return newWithTimestamp(sec)
}

// NewAt returns a new ObjectID for the second of t, with this process's
// random value and the next counter value, as New does for the current
// time. It is meant for backfilling and tests. A time outside 1970-01-01 to
// 2106-02-07T06:28:15Z is an error wrapping ErrTimeRange.
func NewAt(t time.Time) (ObjectID, error) {
	sec, err := timestampOf(t.Unix())
	if err != nil {
		return ObjectID{}, err
	}
	return newWithTimestamp(sec), nil
}

func newWithTimestamp(sec uint32) ObjectID {
	p := process()
	n := p.counter.Add(1)
	id := withTimestamp(sec)
	copy(id[4:9], p.random[:])
	id[9], id[10], id[11] = byte(n>>16), byte(n>>8), byte(n)
	return id
}
