package ksuid

import (
	"io"
	"sync"
	"time"
)

// New returns a KSUID for the current second with a payload of 16 bytes
// from crypto/rand. It is safe for concurrent use and takes no lock.
//
// New panics only if the system clock reads a time a KSUID cannot hold
// (before 2014-05-13 or after 2150-06-19). Use a Generator to get an error
// instead.
func New() KSUID {
	ts, err := timestampOf(unixNow())
	if err != nil {
		panic(err)
	}
	id := withTimestamp(ts)
	readRandom(id[timestampSize:])
	return id
}

// A Generator makes KSUIDs from a clock and a source of randomness, either
// of which can be replaced, for example to make IDs for a fixed time in
// tests. A Generator is safe for concurrent use.
type Generator struct {
	random    io.Reader        // nil: crypto/rand, without a lock
	now       func() time.Time // nil: the system clock
	monotonic bool

	mu      sync.Mutex // serializes reads from random; guards last and started
	last    KSUID      // the latest ID of a monotonic generator
	started bool       // whether last holds an ID
}

// An Option configures a Generator.
type Option func(*Generator)

// WithRand makes the generator read payloads from r instead of
// crypto/rand. Reads from r are serialized, so r need not be safe for
// concurrent use. If r returns an error or too few bytes, New returns an
// error and no ID.
func WithRand(r io.Reader) Option {
	return func(g *Generator) { g.random = r }
}

// WithClock makes the generator take the time from now instead of the
// system clock. A generator used by several goroutines calls now from all
// of them, so now must be safe for concurrent use.
func WithClock(now func() time.Time) Option {
	return func(g *Generator) { g.now = now }
}

// WithMonotonic makes every ID from the generator sort strictly after the
// one before, even within one second, so that ID order is creation order.
//
// The first ID of each second has a random payload; the next IDs of that
// second are the previous ID plus one (see KSUID.Next). They are therefore
// easy to guess from their neighbours: use a plain generator where IDs
// must not be guessable. Should a second's payload space run out, the ID
// carries into the next second's timestamp and continues from there. If
// the clock steps back, IDs keep counting up from the latest one, dated by
// the latest second seen, until the clock passes it again. A monotonic
// generator serializes all calls.
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
// largest KSUID (ErrOverflow).
func (g *Generator) New() (KSUID, error) {
	var sec int64
	if g.now == nil {
		sec = unixNow()
	} else {
		sec = g.now().Unix()
	}
	ts, err := timestampOf(sec)
	if err != nil {
		return KSUID{}, err
	}
	if g.monotonic {
		return g.nextMonotonic(ts)
	}
	id := withTimestamp(ts)
	if g.random != nil {
		g.mu.Lock()
		defer g.mu.Unlock()
	}
	if err := g.readPayload(&id); err != nil {
		return KSUID{}, err
	}
	return id, nil
}

func (g *Generator) nextMonotonic(ts uint32) (KSUID, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.started || ts > g.last.Timestamp() {
		id := withTimestamp(ts)
		if err := g.readPayload(&id); err != nil {
			return KSUID{}, err
		}
		g.last, g.started = id, true
		return id, nil
	}
	next := g.last.Next()
	if next.IsZero() {
		return KSUID{}, &wrapError{msg: "ksuid: monotonic generator passed the largest KSUID", err: ErrOverflow}
	}
	g.last = next
	return next, nil
}

// readPayload fills the payload of id. With a custom source the caller
// holds g.mu.
func (g *Generator) readPayload(id *KSUID) error {
	if g.random == nil {
		readRandom(id[timestampSize:])
		return nil
	}
	p, err := g.readCustom()
	if err != nil {
		return err
	}
	copy(id[timestampSize:], p[:])
	return nil
}

// readCustom reads a payload from the user's source. It is a function of
// its own because handing a buffer to an io.Reader moves the buffer to the
// heap; kept apart, only this path pays for that.
func (g *Generator) readCustom() (p [PayloadSize]byte, err error) {
	if _, err := io.ReadFull(g.random, p[:]); err != nil {
		return p, &wrapError{msg: "ksuid: reading random payload: " + err.Error(), err: err}
	}
	return p, nil
}
