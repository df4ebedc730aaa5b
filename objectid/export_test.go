package objectid

// Hooks for the tests, to reach states that take 2^24 calls otherwise.

// ProcessGenerator is the generator behind New.
func ProcessGenerator() *Generator { return processGenerator }

// BackfillGenerator is the generator behind NewAt.
func BackfillGenerator() *Generator { return backfillGenerator }

// LeaveCounterValues makes sec the generator's current second, with only
// n of its 2^24 counter values left, and returns the counter value the
// next ID will take.
func LeaveCounterValues(g *Generator, sec uint32, n uint32) uint32 {
	for {
		s := g.state.Load()
		if s != nil && s.sec == sec {
			s.used.Store(counterSpace - n)
			return (s.first + counterSpace - n) % counterSpace
		}
		g.moveTo(s, sec)
	}
}
