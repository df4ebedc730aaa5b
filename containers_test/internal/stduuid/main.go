//go:build go1.27

// Command stduuid answers each line on its standard input with a UUID of
// Go 1.27's standard library, uuid.NewV7(), one per line, for the
// cross-checks of containers_test, which run it under GOTOOLCHAIN=go1.27.3
// because the module's own floor is Go 1.26.
package main

import (
	"bufio"
	"fmt"
	"os"
	"uuid"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		fmt.Fprintln(out, uuid.NewV7())
		out.Flush()
	}
}
