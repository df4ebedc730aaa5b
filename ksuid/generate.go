package ksuid

import (
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/sortid/sortid/internal/wallclock"
)

// New returns a KSUID for the current time: the second in the timestamp,
// the fraction of the second in the first 3 payload bytes (units of
// 2^-24 s, about 60 ns), then 13 bytes, 104 bits, from crypto/rand. It is
// safe for concurrent use and takes no lock.
//
// IDs from New therefore sort by the time they were made to the fraction
// of a second, within one process and across machines whose clocks agree:
// a table keyed by them takes its inserts at the right edge of the index,
// which stays as small as one of sequential keys. Only IDs of the same
// 60 ns tick are in random order; a Generator with WithMonotonic makes
// them strictly increasing. Any 16-byte payload is a valid KSUID, so other
// KSUID libraries read these IDs as they read their own.
//
// New reads the system's real-time clock, also inside a testing/synctest
// bubble, whose fake clock starts before the KSUID epoch; use a Generator
// with WithClock to date IDs by another clock. New panics only if the
// system clock reads a time a KSUID cannot hold (before 2014-05-13 or
// after 2150-06-19); a Generator returns that as an error instead.
func New() KSUID {
	sec, nsec := wallclock.Now()
	ts, err := timestampOf(sec)
	if err != nil {
		panic(err)
	}
	id := withTick(ts, nsec)
	readRandom(id[tickPrefix:])
	return id
}

// NewAt returns a KSUID for the time t, laid out as New lays out an ID
// for the current time: the second, the fraction of the second to 2^-24 s,
// then 104 bits from crypto/rand. IDs made by NewAt sort as their times
// do, to the fraction of a second, and interleave with IDs from New and
// from a monotonic Generator in time order. It is the way to date IDs by
// historical times, a backfill from a created_at column above all:
//
//	for i := range rows {
//		rows[i].ID, err = ksuid.NewAt(rows[i].CreatedAt)
//	}
//
// Only times within the same 60 ns tick come out in random order. A
// monotonic Generator given historical times by WithClock is no
// substitute: it never goes back, so it dates every ID after the latest
// time it has seen. A time outside the range a KSUID can hold is an error
// wrapping ErrTimeRange.
func NewAt(t time.Time) (KSUID, error) {
	ts, err := timestampOf(t.Unix())
	if err != nil {
		return KSUID{}, err
	}
	id := withTick(ts, int32(t.Nanosecond()))
	readRandom(id[tickPrefix:])
	return id, nil
}

// A Generator makes KSUIDs from a clock and a source of randomness, either
// of which can be replaced, for example to make IDs for a fixed time in
// tests. A Generator is safe for concurrent use.
type Generator struct {
	random    io.Reader        // nil: crypto/rand, without a lock
	now       func() time.Time // nil: the system's real-time clock
	monotonic bool

	mu      sync.Mutex   // serializes reads from random; guards last, started and block
	last    KSUID        // the latest ID of a monotonic generator
	started bool         // whether last holds an ID
	block   *randomBlock // a monotonic generator's own crypto/rand bytes
}

// An Option configures a Generator.
type Option func(*Generator)

// WithRand makes the generator read the random bytes of its IDs (13 for
// each, after the fraction of the second) from r instead of crypto/rand. Reads from r are serialized, so r need not be safe for
// concurrent use. If r returns an error or too few bytes, New returns an
// error and no ID.
func WithRand(r io.Reader) Option {
	return func(g *Generator) { g.random = r }
}

// WithClock makes the generator take the time from now instead of the
// system's real-time clock. A generator used by several goroutines calls
// now from all of them, so now must be safe for concurrent use.
// WithClock(time.Now) follows the fake clock of a testing/synctest
// bubble, which starts at 2000-01-01, before the KSUID epoch: New then
// returns an error wrapping ErrTimeRange.
func WithClock(now func() time.Time) Option {
	return func(g *Generator) { g.now = now }
}

// Layout of the payload of the KSUIDs this package makes.
const (
	// fractionSize is how many leading payload bytes hold the fraction of
	// the second, in units of 2^-24 s (about 60 ns).
	fractionSize = 3

	// stepSize is the width of the random step from one ID to the next
	// within one tick: the step is 1 to 2^72, so that finding the
	// neighbour of an ID takes about 2^71 guesses.
	stepSize = 9

	// tickPrefix is the length of timestamp and fraction together.
	tickPrefix = timestampSize + fractionSize
)

// WithMonotonic makes every ID from the generator sort strictly after the
// one before, to a fraction of a second, and keeps IDs from several
// generators in clock order, while the IDs stay hard to guess.
//
// Each ID is a valid KSUID (its timestamp is the second it was made),
// whose payload is laid out as
//
//	payload bytes 0-2    fraction of the second, in units of 2^-24 s (about 60 ns)
//	payload bytes 3-15   104 random bits
//
// The fraction is that of the generator's clock, which the system clock
// gives to the nanosecond or the microsecond, so IDs made on different
// machines or by different generators whose clocks differ by more than
// the clock's resolution sort in clock order. When the clock has not
// moved on since the previous ID (the same 60 ns tick), the next ID is the
// previous one plus a random step of 1 to 2^72: still strictly greater,
// and about 2^71 guesses away from its neighbour. Should a tick's space
// run out, the ID carries into the next tick, and the timestamp after it.
// If the clock steps back, IDs go on from the latest one, dated by the
// latest second seen, until the clock passes it again. Past the largest
// KSUID, New returns an error wrapping ErrExhausted. A monotonic generator
// serializes all calls.
func WithMonotonic() Option {
	return func(g *Generator) { g.monotonic = true }
}

// NewGenerator returns a Generator configured by opts. Without options it
// makes the same IDs as the package-level New, but returns an error rather
// than panic if the clock is out of range.
func NewGenerator(opts ...Option) *Generator {
	g := new(Generator)
	for _, opt := range opts {
		opt(g)
	}
	return g
}

// New returns a new KSUID. It returns an error, and no ID, if the clock
// reads a time a KSUID cannot hold (ErrTimeRange), if the random source
// fails or comes up short, or if a monotonic generator has passed the
// largest KSUID (ErrExhausted).
func (g *Generator) New() (KSUID, error) {
	var (
		sec  int64
		nsec int32
	)
	if g.now == nil {
		sec, nsec = wallclock.Now()
	} else {
		t := g.now()
		sec, nsec = t.Unix(), int32(t.Nanosecond())
	}
	ts, err := timestampOf(sec)
	if err != nil {
		return KSUID{}, err
	}
	if g.monotonic {
		return g.nextMonotonic(ts, nsec)
	}
	id := withTick(ts, nsec)
	if g.random != nil {
		g.mu.Lock()
		defer g.mu.Unlock()
	}
	if err := g.read(id[tickPrefix:]); err != nil {
		return KSUID{}, err
	}
	return id, nil
}

func (g *Generator) nextMonotonic(ts uint32, nsec int32) (KSUID, error) {
	// The tick: the timestamp and the fraction of the second in units of
	// 2^-24 s, the first 7 bytes of the ID as one number.
	tick := uint64(ts)<<24 | uint64(fractionOf(nsec))

	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.started || tick > tickOf(&g.last) {
		var id KSUID
		binary.BigEndian.PutUint64(id[:8], tick<<8)
		if err := g.read(id[tickPrefix:]); err != nil {
			return KSUID{}, err
		}
		g.last, g.started = id, true
		return id, nil
	}
	// The same tick as the last ID, or the clock stepped back: go on from
	// the last ID by a random step of 1 to 2^72.
	var step [stepSize]byte
	if err := g.read(step[:]); err != nil {
		return KSUID{}, err
	}
	id := g.last
	if carry := add(&id, step[:]); carry || add(&id, []byte{1}) { // the step is the bytes read plus one, never zero
		return KSUID{}, spec.Errorf("monotonic generator passed the largest KSUID", ErrExhausted)
	}
	g.last = id
	return id, nil
}

// fractionOf returns the fraction of the second that nsec nanoseconds
// are, in units of 2^-24 s.
func fractionOf(nsec int32) uint32 {
	return uint32(uint64(nsec) << 24 / 1e9)
}

// withTick returns the KSUID whose first 7 bytes are the timestamp ts and
// the fraction of the second nsec, and whose other 13 bytes are zero.
func withTick(ts uint32, nsec int32) KSUID {
	id := withTimestamp(ts)
	f := fractionOf(nsec)
	id[timestampSize], id[timestampSize+1], id[timestampSize+2] = byte(f>>16), byte(f>>8), byte(f)
	return id
}

// tickOf returns the first 7 bytes of id, timestamp and fraction, as one
// number.
func tickOf(id *KSUID) uint64 {
	return binary.BigEndian.Uint64(id[:8]) >> 8
}

// add adds the big-endian number n to id as a 160-bit number and reports
// whether the sum overflowed; id is then wrapped around.
func add(id *KSUID, n []byte) (carry bool) {
	var c uint16
	j := len(n) - 1
	for i := Size - 1; i >= 0; i-- {
		s := uint16(id[i]) + c
		if j >= 0 {
			s += uint16(n[j])
			j--
		} else if s <= 0xFF {
			id[i] = byte(s)
			return false
		}
		id[i], c = byte(s), s>>8
	}
	return c != 0
}

// read fills p from the generator's random source. With a custom source,
// and in a monotonic generator, the caller holds g.mu.
func (g *Generator) read(p []byte) error {
	if g.random == nil {
		if !g.monotonic {
			readRandom(p)
			return nil
		}
		// Calls are serialized already: a block of its own spares the
		// generator the shared pool.
		if g.block == nil {
			g.block = &randomBlock{off: randomBlockSize}
		}
		g.block.read(p)
		return nil
	}
	buf, err := g.readCustom(len(p))
	if err != nil {
		return err
	}
	copy(p, buf[:])
	return nil
}

// readCustom reads n bytes, at most PayloadSize, from the user's source.
// It is a function of its own because handing a buffer to an io.Reader
// moves the buffer to the heap; kept apart, only this path pays for that.
// Unlike io.ReadFull, it checks the counts the reader returns (a negative
// one would panic there) and gives up on a reader that keeps returning
// nothing.
func (g *Generator) readCustom(n int) (buf [PayloadSize]byte, err error) {
	p := buf[:n]
	for got, empty := 0, 0; got < n; {
		m, err := g.random.Read(p[got:])
		if m < 0 || m > n-got {
			return buf, errors.New("ksuid: random source returned a count of " + strconv.Itoa(m) + " for a read of " + strconv.Itoa(n-got) + " bytes")
		}
		got += m
		if got == n {
			return buf, nil
		}
		if err == io.EOF && got > 0 {
			err = io.ErrUnexpectedEOF
		}
		if err == nil && m == 0 {
			if empty++; empty == 100 {
				err = io.ErrNoProgress
			}
		}
		if err != nil {
			return buf, spec.Errorf("reading random payload: "+err.Error(), err)
		}
	}
	return buf, nil
}
