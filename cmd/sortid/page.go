package main

import (
	"fmt"
	"io"
)

// page returns the page of `sortid page` and `sortid serve`: one file
// that makes, inspects and ranges IDs in the browser, with nothing to
// fetch.
func page() []byte {
	b, err := webFiles.ReadFile("web/index.html")
	if err != nil {
		panic("sortid: the page is not embedded: " + err.Error())
	}
	return b
}

// runPage writes the page to stdout, to be saved and opened from disk.
func runPage(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sortid page", stderr)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "page takes no arguments; redirect its output: sortid page > sortid.html")
	}
	if _, err := stdout.Write(page()); err != nil {
		fmt.Fprintln(stderr, "sortid: page:", err)
		return exitError
	}
	return exitOK
}
