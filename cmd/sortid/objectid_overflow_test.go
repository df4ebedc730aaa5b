//go:build !race

package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/sortid/sortid/objectid"
)

// TestObjectIDsForOneSecondNeverRepeat is the command that used to print
// the same ObjectID first and last: 2^24+1 IDs for one second. It makes
// 16.7 million IDs, so it runs without the race detector.
func TestObjectIDsForOneSecondNeverRepeat(t *testing.T) {
	var out counterSet
	var stderr strings.Builder
	code := run([]string{"-t", "objectid", "--time", "2024-01-01T00:00:00Z", "-n", "16777217"}, strings.NewReader(""), &out, &stderr)
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	if out.lines != 1<<24 || out.dups != 0 || out.bad != 0 {
		t.Errorf("%d IDs printed, %d repeated, %d unreadable; want 2^24 distinct", out.lines, out.dups, out.bad)
	}
	if !strings.Contains(stderr.String(), "2^24 counter values of second 2024-01-01T00:00:00Z") {
		t.Errorf("stderr %q does not say why", stderr.String())
	}
}

// counterSet reads the printed ObjectIDs, which share a second and a
// random value, and marks their counters off.
type counterSet struct {
	seen        []bool
	partial     []byte
	lines, dups int
	bad         int
}

func (c *counterSet) Write(p []byte) (int, error) {
	if c.seen == nil {
		c.seen = make([]bool, 1<<24)
	}
	data := append(c.partial, p...)
	for {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			break
		}
		id, err := objectid.Parse(string(data[:i]))
		data = data[i+1:]
		c.lines++
		if err != nil {
			c.bad++
			continue
		}
		if c.seen[id.Counter()] {
			c.dups++
		}
		c.seen[id.Counter()] = true
	}
	c.partial = append(c.partial[:0], data...)
	return len(p), nil
}
