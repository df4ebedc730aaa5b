package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/sortid/sortid/internal/excerpt"
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
	if err := eachLine(stdin, each, func(n int, start []byte) {
		fmt.Fprintf(stderr, "sortid: inspect: line %d starting %s is over %d bytes: not an ID\n", n, excerpt.Text(start), maxLine)
		code = exitError
	}); err != nil {
		fmt.Fprintln(stderr, "sortid: reading stdin:", err)
		return exitError
	}
	return code
}

// maxLine is the longest line inspect reads from stdin; an ID is far
// shorter, and a longer line is reported and skipped, not fatal.
const maxLine = 64 << 10

// eachLine calls f with each non-blank line of r, trimmed, and tooLong
// with the line number and the start of each line over maxLine bytes,
// which it skips. It returns only a read error.
func eachLine(r io.Reader, f func(string), tooLong func(n int, start []byte)) error {
	br := bufio.NewReaderSize(r, maxLine)
	for n := 1; ; n++ {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			tooLong(n, line[:min(len(line), excerpt.MaxBytes)])
			for err == bufio.ErrBufferFull { // skip the rest of the line
				_, err = br.ReadSlice('\n')
			}
			line = nil
		}
		if s := strings.TrimSpace(string(line)); s != "" {
			f(s)
		}
		switch err {
		case nil:
		case io.EOF:
			return nil
		default:
			return err
		}
	}
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
		// Drivers since 2018 write 5 random bytes where older ones wrote a
		// machine hash and a pid; the bytes cannot tell which, so the old
		// reading is offered as a reading, not as facts.
		fmt.Fprintf(&b, "  if legacy  machine %s, pid %d (0x%04x), counter %d (the layout of drivers before 2018)\n",
			info.Legacy.Machine, info.Legacy.PID, info.Legacy.PID, info.Legacy.Counter)
	case kindUUIDv7, kindUUID:
		fmt.Fprintf(&b, "  type       UUID version %d, variant %s\n", *info.Version, info.Variant)
		switch {
		case info.Type == kindUUIDv7:
			fmt.Fprintf(&b, "  time       %s (unix %d; the millisecond in the first 48 bits)\n", info.Time, info.Unix)
		case info.Time != "":
			fmt.Fprintf(&b, "  time       %s (unix %d; 100 ns since 1582-10-15)\n", info.Time, info.Unix)
		default:
			fmt.Fprintf(&b, "  time       none (this version holds no time)\n")
		}
	}
	if withHex {
		fmt.Fprintf(&b, "  hex        %s\n", info.Hex)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
