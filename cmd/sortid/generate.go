package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// runGenerate prints new IDs, one per line, streamed so that any count
// runs in constant memory.
func runGenerate(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sortid", stderr)
	n := fs.Int("n", 1, "how many IDs to print")
	kindFlag := fs.String("t", kindKSUID, "ID type: ksuid, objectid or uuidv7")
	monotonic := fs.Bool("monotonic", false, "strictly increasing KSUIDs, even within a second (UUIDv7s always are)")
	atFlag := fs.String("time", "", "make IDs for this time (RFC 3339 or Unix seconds) instead of now")
	asJSON := fs.Bool("json", false, "print one JSON object per line")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() > 0 {
		return usageError(stderr, "unexpected argument %q", fs.Arg(0))
	}
	if *n < 0 {
		return usageError(stderr, "-n must not be negative")
	}
	kind, err := parseKind(*kindFlag)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	var at *time.Time
	if *atFlag != "" {
		t, _, err := parseTime(*atFlag)
		if err != nil {
			return usageError(stderr, "%v", err)
		}
		at = &t
	}
	maker, err := newIDMaker(kind, at, *monotonic)
	if err != nil {
		return usageError(stderr, "%v", err)
	}

	w := bufio.NewWriterSize(stdout, 64<<10)
	line := make([]byte, 0, 128)
	jsonPrefix := `{"type":"` + kind + `","id":"`
	for range *n {
		line = line[:0]
		if *asJSON {
			line = append(line, jsonPrefix...)
		}
		if line, err = maker.appendNew(line); err != nil {
			w.Flush()
			fmt.Fprintln(stderr, "sortid:", err)
			return exitError
		}
		if *asJSON {
			line = append(line, `"}`...)
		}
		line = append(line, '\n')
		if _, err := w.Write(line); err != nil {
			fmt.Fprintln(stderr, "sortid:", err)
			return exitError
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(stderr, "sortid:", err)
		return exitError
	}
	return exitOK
}

// writeJSON writes v as one line of JSON.
func writeJSON(w io.Writer, v any) error {
	return json.NewEncoder(w).Encode(v)
}
