package uuidv7

import (
	"crypto/rand"
	"encoding/binary"
	"io"
	"sync"
	"time"

	"github.com/sortid/sortid/internal/wallclock"
)

const (
	// A tick is 2^-12 ms (about 244 ns): the millisecond and the 12-bit
	// fraction of rand_a, read as one 60-bit number.
	maxTick = MaxUnixMilli<<12 | 0x0FFF

	// randBMax bounds rand_b, 62 bits.
	randBMax = 1<<62 - 1

	// A new tick starts rand_b at a random value below 2^61, so at least
	// 2^61 remain for the steps of later IDs in the same tick.
	startBits = 61

	// Later IDs of a tick step by 1 to 2^40 at random: a neighbour is
	// about 2^39 guesses away, and a tick holds at least 2^21 IDs, far
	// more than a process can make in 244 ns, before a step carries.
	stepBits = 40
)

// A Generator makes UUIDv7s that are strictly increasing: each is greater
// than the one before it from the same Generator. It is safe for
// concurrent use.
//
// Each ID holds the millisecond and its fraction to 2^-12 ms from the
// clock, so IDs of different Generators, in other processes or on other
// machines, sort by their clocks to about 244 ns. An ID of the same tick
// as the one before is that ID plus a random step of 1 to 2^40. If the
// clock steps back, IDs go on from the latest tick seen.
type Generator struct {
	mu      sync.Mutex
	clock   func() time.Time // nil: the system's real-time clock
	rand    io.Reader        // nil: crypto/rand, through buf
	tick    uint64
	randB   uint64
	buf     [4096]byte // bytes from crypto/rand not yet used
	off     int
	scratch [8]byte
}

// An Option configures a Generator.
type Option func(*Generator)

// WithClock makes the generator date IDs by now instead of the system's
// real-time clock.
func WithClock(now func() time.Time) Option { return func(g *Generator) { g.clock = now } }

// WithRand makes the generator read its random bits from r instead of
// crypto/rand. New returns r's errors, and a short read as
// io.ErrUnexpectedEOF.
func WithRand(r io.Reader) Option { return func(g *Generator) { g.rand = r } }

// NewGenerator returns a Generator configured by opts.
func NewGenerator(opts ...Option) *Generator {
	g := &Generator{off: len(Generator{}.buf)}
	for _, opt := range opts {
		opt(g)
	}
	return g
}

var defaultGenerator = NewGenerator()

// New returns a new UUIDv7 from a process-wide Generator: strictly
// increasing within the process, and ordered by the clock to about 244 ns
// across processes. It panics only if the clock reads a time before 1970
// or after year 10889.
func New() UUID {
	id, err := defaultGenerator.New()
	if err != nil {
		panic(err)
	}
	return id
}

// New returns the next UUIDv7. It returns an error, and no ID, if the
// clock reads a time a UUIDv7 cannot hold (ErrTimeRange), if the random
// source fails, or past the largest UUIDv7 (ErrExhausted).
func (g *Generator) New() (UUID, error) {
	tick, err := g.now()
	if err != nil {
		return UUID{}, err
	}
	g.mu.Lock()
	id, err := g.next(tick)
	g.mu.Unlock()
	return id, err
}

// next returns the ID after the latest for the clock's tick. It is
// called with g.mu held.
func (g *Generator) next(tick uint64) (UUID, error) {
	if tick > g.tick {
		start, err := g.random(startBits)
		if err != nil {
			return UUID{}, err
		}
		g.tick, g.randB = tick, start
	} else {
		step, err := g.random(stepBits)
		if err != nil {
			return UUID{}, err
		}
		if g.randB += 1 + step; g.randB > randBMax {
			// Carry into the next tick: dated at most a tick
			// ahead of the latest time seen.
			if g.tick == maxTick {
				g.randB -= 1 + step
				return UUID{}, spec.Errorf("monotonic generator passed the largest UUIDv7", ErrExhausted)
			}
			start, err := g.random(startBits)
			if err != nil {
				return UUID{}, err
			}
			g.tick, g.randB = g.tick+1, start
		}
	}
	return layout(g.tick>>12, uint16(g.tick&0x0FFF), g.randB), nil
}

// now returns the clock's tick.
func (g *Generator) now() (uint64, error) {
	if g.clock != nil {
		return tickOf(g.clock())
	}
	sec, nsec := wallclock.Now()
	ms := sec*1000 + int64(nsec)/1e6
	if sec < 0 || ms > MaxUnixMilli {
		return 0, timeError(time.Unix(sec, int64(nsec)))
	}
	return uint64(ms)<<12 | uint64(nsec%1e6)<<12/1e6, nil
}

func tickOf(t time.Time) (uint64, error) {
	ms, err := milliOf(t)
	if err != nil {
		return 0, err
	}
	frac := uint64(t.Nanosecond()%1e6) << 12 / 1e6
	return ms<<12 | frac, nil
}

// random returns a random number below 2^bits, bits at most 64. It is
// called with g.mu held.
func (g *Generator) random(bits uint) (uint64, error) {
	if g.rand != nil {
		// Into a field, not a local: a local passed to an io.Reader
		// escapes, and New would allocate.
		if _, err := io.ReadFull(g.rand, g.scratch[:]); err != nil {
			return 0, err
		}
		return binary.BigEndian.Uint64(g.scratch[:]) >> (64 - bits), nil
	}
	if g.off+8 > len(g.buf) {
		rand.Read(g.buf[:])
		g.off = 0
	}
	v := binary.BigEndian.Uint64(g.buf[g.off:])
	g.off += 8
	return v >> (64 - bits), nil
}

// NewAt returns a UUIDv7 for the time t, for backfills: its millisecond
// and the fraction of it to 2^-12 ms, then 62 random bits. IDs made by
// NewAt sort as their times do to about 244 ns, and interleave in time
// order with IDs from New. A time before 1970 or after year 10889 is an
// error wrapping ErrTimeRange.
func NewAt(t time.Time) (UUID, error) {
	tick, err := tickOf(t)
	if err != nil {
		return UUID{}, err
	}
	var b [8]byte
	rand.Read(b[:])
	return layout(tick>>12, uint16(tick&0x0FFF), binary.BigEndian.Uint64(b[:])>>2), nil
}
