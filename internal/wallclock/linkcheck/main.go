// Command linkcheck reads the clock through wallclock and nothing else.
// make test links it for platforms other than linux/amd64: wallclock
// reaches the runtime's clock there through go:linkname, and a link is
// what fails if that symbol goes away. A program this small links in
// seconds, where a test binary would compile most of the standard library
// for each platform.
package main

import (
	"os"

	"github.com/sortid/sortid/internal/wallclock"
)

func main() {
	if sec, _ := wallclock.Now(); sec <= 0 {
		os.Exit(1)
	}
}
