package objectid

import (
	"crypto/rand"
	"errors"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/sortid/sortid/internal/wallclock"
)

// counterSpace is how many values the 3-byte counter has: the most IDs
// one random value can give one second without repeating.
const counterSpace = 1 << 24

// New returns an ObjectID for the current second, laid out as the MongoDB
// specification says: the timestamp, this process's random value, and the
// next value of a 3-byte counter. It is safe for concurrent use and takes
// no lock.
//
// New never returns an ObjectID twice. When the 2^24 counter values of
// the current second are used up (about 16.7 million IDs in one second),
// New waits for the next second rather than repeat an ID (the counter of
// mongo-driver's bson.NewObjectID wraps around and repeats one).
//
// New reads the system's real-time clock, also inside a testing/synctest
// bubble; use a Generator with WithClock to date IDs by another clock. If
// the clock steps back, IDs stay dated by the latest second seen until
// the clock passes it again. New panics only if the system clock reads a
// time an ObjectID cannot hold (before 1970 or after 2106-02-07); a
// Generator returns that as an error instead.
func New() ObjectID {
	for {
		sec, nsec := wallclock.Now()
		id, err := processGenerator.newNow(sec)
		if err == nil {
			return id
		}
		if !errors.Is(err, ErrExhausted) {
			panic(err)
		}
		time.Sleep(time.Second - time.Duration(nsec))
	}
}

// NewAt returns a new ObjectID for the second of t, for backfilling and
// tests. A time outside 1970-01-01 to 2106-02-07T06:28:15Z is an error
// wrapping ErrTimeRange. NewAt never returns an ObjectID twice: once it
// has made 2^24 IDs for one second, it returns an error wrapping
// ErrExhausted for that second.
//
// NewAt's IDs carry a random value of their own, not the one of New's
// IDs, and NewAt draws a new one whenever t is earlier than the latest
// second it has made IDs for, so that it need not remember every second
// it has used. An ObjectID made by NewAt is therefore as unlikely to
// equal one made by New as an ID made by another process.
func NewAt(t time.Time) (ObjectID, error) {
	sec, err := timestampOf(t.Unix())
	if err != nil {
		return ObjectID{}, err
	}
	return backfillGenerator.newAt(sec)
}

// The generators behind New and NewAt, set up on first use: importing the
// package reads no random bytes.
var (
	processGenerator  = NewGenerator()
	backfillGenerator = NewGenerator()
)

// A Generator makes ObjectIDs that never repeat: for each second, it
// hands out each of the 2^24 counter values at most once with its random
// value. Its clock can be replaced, for example to make IDs for a fixed
// time in tests. A Generator is safe for concurrent use and takes no lock.
//
// The random value is drawn from crypto/rand on first use and kept for
// the generator's life, as the MongoDB specification keeps one per
// process; the counter starts at a random value. If the clock steps
// back, IDs stay dated by the latest second the generator has seen, until
// the clock passes it again, so that no second's counter values are used
// twice; should that second's counter values run out while the clock is
// behind, the generator dates IDs by the clock again, with a new random
// value.
type Generator struct {
	now   func() time.Time       // nil: the system's real-time clock
	state atomic.Pointer[second] // the latest second IDs were made for
}

// second is the state of a Generator for one second: the random value,
// and the counter values used so far. It is replaced, never changed,
// when the generator moves on to another second, so that readers see a
// consistent random value and count without a lock.
type second struct {
	sec    uint32
	random [5]byte
	first  uint32        // the counter value of the second's first ID
	used   atomic.Uint32 // counter values taken; more than counterSpace once exhausted
}

// An Option configures a Generator.
type Option func(*Generator)

// WithClock makes the generator take the time from now instead of the
// system's real-time clock. A generator used by several goroutines calls
// now from all of them, so now must be safe for concurrent use.
func WithClock(now func() time.Time) Option {
	return func(g *Generator) { g.now = now }
}

// NewGenerator returns a Generator configured by opts.
func NewGenerator(opts ...Option) *Generator {
	g := new(Generator)
	for _, opt := range opts {
		opt(g)
	}
	return g
}

// New returns a new ObjectID for the generator's clock. It returns an
// error, and no ID, if the clock reads a time an ObjectID cannot hold
// (ErrTimeRange), or if the 2^24 counter values of the current second are
// used up (ErrExhausted; the next second has new ones).
func (g *Generator) New() (ObjectID, error) {
	var sec int64
	if g.now == nil {
		sec, _ = wallclock.Now()
	} else {
		sec = g.now().Unix()
	}
	return g.newNow(sec)
}

// newNow makes an ID for the clock reading unix. A clock behind the
// generator's latest second gives an ID for the latest second.
func (g *Generator) newNow(unix int64) (ObjectID, error) {
	sec, err := timestampOf(unix)
	if err != nil {
		return ObjectID{}, err
	}
	for {
		s := g.state.Load()
		if s == nil || sec > s.sec {
			g.moveTo(s, sec)
			continue
		}
		if id, ok := s.take(); ok {
			return id, nil
		}
		if sec < s.sec {
			// The clock is behind a used-up second: rather than wait for
			// it to catch up, date IDs by the clock again, with a new
			// random value.
			g.moveTo(s, sec)
			continue
		}
		return ObjectID{}, overflowError(s.sec)
	}
}

// newAt makes an ID for exactly the second sec.
func (g *Generator) newAt(sec uint32) (ObjectID, error) {
	for {
		s := g.state.Load()
		if s == nil || sec != s.sec {
			g.moveTo(s, sec)
			continue
		}
		if id, ok := s.take(); ok {
			return id, nil
		}
		return ObjectID{}, overflowError(sec)
	}
}

// moveTo makes sec the generator's current second, unless another
// goroutine has replaced s in the meantime. Moving forward keeps the
// random value and continues the counter; moving back draws a new random
// value, because the generator does not remember which counter values it
// used for that second before.
func (g *Generator) moveTo(s *second, sec uint32) {
	next := &second{sec: sec}
	if s != nil && sec > s.sec {
		next.random = s.random
		next.first = (s.first + min(s.used.Load(), counterSpace)) % counterSpace
	} else {
		var seed [8]byte
		rand.Read(seed[:])
		next.random = [5]byte(seed[:5])
		next.first = uint32(seed[5])<<16 | uint32(seed[6])<<8 | uint32(seed[7])
	}
	g.state.CompareAndSwap(s, next)
}

// take returns the next ID of the second, or false if its counter values
// are used up.
func (s *second) take() (ObjectID, bool) {
	n := s.used.Add(1) // one atomic operation on the shared line, as a plain counter
	if n > counterSpace {
		s.used.Store(counterSpace + 1) // keep callers that go on asking from wrapping used around
		return ObjectID{}, false
	}
	c := (s.first + n - 1) % counterSpace
	id := withTimestamp(s.sec)
	copy(id[4:9], s.random[:])
	id[9], id[10], id[11] = byte(c>>16), byte(c>>8), byte(c)
	return id, true
}

func overflowError(sec uint32) error {
	return spec.Errorf("the 2^24 counter values of second "+time.Unix(int64(sec), 0).UTC().Format(time.RFC3339)+
		" ("+strconv.FormatUint(uint64(sec), 10)+") are used up", ErrExhausted)
}
