package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// runInspect decodes each ID given, or each line of stdin, and goes on
// after a bad one; the exit code is 1 if any failed.
func runInspect(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("sortid inspect", stderr)
	asJSON := fs.Bool("json", false, "print one JSON object per ID")
	withHex := fs.Bool("hex", false, "also print the raw bytes in hex")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	code := exitOK
	each := func(s string) {
		info, err := inspect(s)
		if err != nil {
			fmt.Fprintln(stderr, "sortid: inspect:", err)
			code = exitError
			return
		}
		if *asJSON {
			err = writeJSON(stdout, info)
		} else {
			err = writeInfo(stdout, info, *withHex)
		}
		if err != nil {
			fmt.Fprintln(stderr, "sortid:", err)
			code = exitError
		}
	}
	if fs.NArg() > 0 {
		for _, s := range fs.Args() {
			each(s)
		}
		return code
	}
	sc := bufio.NewScanner(stdin)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" {
			each(line)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(stderr, "sortid: reading stdin:", err)
		return exitError
	}
	return code
}

// writeInfo prints info as an indented block of labelled lines.
func writeInfo(w io.Writer, info Info, withHex bool) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", info.ID)
	switch info.Type {
	case kindKSUID:
		fmt.Fprintf(&b, "  type       KSUID\n")
		fmt.Fprintf(&b, "  time       %s (unix %d)\n", info.Time, info.Unix)
		fmt.Fprintf(&b, "  timestamp  %d (seconds since 2014-05-13T16:53:20Z)\n", info.Timestamp)
		fmt.Fprintf(&b, "  payload    %s\n", info.Payload)
	case kindObjectID:
		fmt.Fprintf(&b, "  type       ObjectID\n")
		fmt.Fprintf(&b, "  time       %s (unix %d)\n", info.Time, info.Unix)
		fmt.Fprintf(&b, "  random     %s\n", info.Random)
		fmt.Fprintf(&b, "  counter    %d (0x%06x)\n", *info.Counter, *info.Counter)
		fmt.Fprintf(&b, "  legacy     machine %s, pid %d (0x%04x), counter %d\n",
			info.Legacy.Machine, info.Legacy.PID, info.Legacy.PID, info.Legacy.Counter)
	}
	if withHex {
		fmt.Fprintf(&b, "  hex        %s\n", info.Hex)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
