// Command sortid prints a new KSUID.
//
//	go run github.com/sortid/sortid/cmd/sortid
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/sortid/sortid/ksuid"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "sortid:", err)
		os.Exit(1)
	}
}

// run writes one new KSUID and a newline to w.
func run(w io.Writer) error {
	id, err := ksuid.NewGenerator().New()
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, id)
	return err
}
