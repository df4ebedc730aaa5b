package uuidv7

// SetState puts g at a tick and rand_b, to reach the end of the range
// without making 2^60 IDs.
func (g *Generator) SetState(tick, randB uint64) { g.tick, g.randB = tick, randB }

const MaxTick = maxTick
