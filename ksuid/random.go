package ksuid

import (
	"crypto/rand"
	"sync"
)

// randomBlockSize is how many bytes of crypto/rand one refill reads: the
// payloads of 128 KSUIDs. A 16-byte read costs more than twice the rest of
// New, most of it per call; large reads amortize that overhead.
const randomBlockSize = 4096

// randomBlock holds bytes from crypto/rand not yet handed out. Each byte
// is handed out once: the block is refilled, never reread.
type randomBlock struct {
	buf [randomBlockSize]byte
	off int
}

// randomBlocks keeps one block per P in the common case, so concurrent
// callers neither lock nor share a cache line.
var randomBlocks = sync.Pool{
	New: func() any { return &randomBlock{off: randomBlockSize} },
}

// readRandom fills p, at most randomBlockSize bytes, from crypto/rand.
// crypto/rand.Read does not fail (since Go 1.24 it crashes the program
// rather than return weak bytes), so neither does readRandom.
func readRandom(p []byte) {
	b := randomBlocks.Get().(*randomBlock)
	b.read(p)
	randomBlocks.Put(b)
}

// read fills p, at most randomBlockSize bytes, from the block, refilling
// it from crypto/rand when it holds too few.
func (b *randomBlock) read(p []byte) {
	if b.off+len(p) > randomBlockSize {
		rand.Read(b.buf[:])
		b.off = 0
	}
	b.off += copy(p, b.buf[b.off:])
}
