package main

import (
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// Bounds are the smallest and largest IDs of a time window, or, for a
// half-open window, its smallest ID and the smallest ID after it (Before).
type Bounds struct {
	Type   string `json:"type"`
	From   string `json:"from"`
	To     string `json:"to"`
	Min    string `json:"min"`
	Max    string `json:"max,omitempty"`
	Before string `json:"before,omitempty"`

	minBytes, maxBytes []byte
}

// asByteaHex returns b with Min and Max in PostgreSQL's hex form of a
// bytea, \x and two hex digits a byte, as a bytea column compares them.
func (b Bounds) asByteaHex() Bounds {
	b.Min = `\x` + hex.EncodeToString(b.minBytes)
	if b.Before != "" {
		b.Before = `\x` + hex.EncodeToString(b.maxBytes)
	} else {
		b.Max = `\x` + hex.EncodeToString(b.maxBytes)
	}
	return b
}

// halfOpenBounds returns the bounds of the IDs made from from up to, not
// including, before: the Window of the ID type.
func halfOpenBounds(kind string, from, before time.Time) (Bounds, error) {
	if !before.After(from) {
		return Bounds{}, fmt.Errorf("the window from %s up to %s holds no time: TO must be after FROM",
			from.UTC().Format(time.RFC3339Nano), before.UTC().Format(time.RFC3339Nano))
	}
	b := Bounds{Type: kind, From: from.UTC().Format(time.RFC3339), To: before.UTC().Format(time.RFC3339)}
	switch kind {
	case kindUUIDv7:
		lo, hi, err := uuidv7.Window(from, before)
		if err != nil {
			return Bounds{}, err
		}
		b.From, b.To = from.UTC().Format(uuidTimeLayout), before.UTC().Format(uuidTimeLayout)
		b.Min, b.Before, b.minBytes, b.maxBytes = lo.String(), hi.String(), lo[:], hi[:]
	case kindObjectID:
		lo, hi, err := objectid.Window(from, before)
		if err != nil {
			return Bounds{}, err
		}
		b.Min, b.Before, b.minBytes, b.maxBytes = lo.String(), hi.String(), lo[:], hi[:]
	default:
		lo, hi, err := ksuid.Window(from, before)
		if err != nil {
			return Bounds{}, err
		}
		b.Min, b.Before, b.minBytes, b.maxBytes = lo.String(), hi.String(), lo[:], hi[:]
	}
	return b, nil
}

// mongoFilter returns b as a mongosh filter on field. A KSUID field holds
// the string (what sortid and other languages store) and, in older
// collections, binary (what earlier versions of sortid wrote), so the
// filter matches either, as bsoncodec's KSUIDField.Between does; MongoDB
// compares values of one type only, so each branch keeps to its form.
func (b Bounds) mongoFilter(field string) string {
	f := strconv.Quote(field)
	upper, op := b.Max, "$lte"
	if b.Before != "" {
		upper, op = b.Before, "$lt"
	}
	switch b.Type {
	case kindObjectID:
		return fmt.Sprintf(`{%s: {$gte: ObjectId("%s"), %s: ObjectId("%s")}}`, f, b.Min, op, upper)
	case kindUUIDv7:
		// UUID() is binary of subtype 4, as bsoncodec stores UUIDv7s.
		return fmt.Sprintf(`{%s: {$gte: UUID("%s"), %s: UUID("%s")}}`, f, b.Min, op, upper)
	}
	return fmt.Sprintf(`{$or: [{%s: {$gte: HexData(0, "%x"), %s: HexData(0, "%x")}}, {%s: {$gte: "%s", %s: "%s"}}]}`,
		f, b.minBytes, op, b.maxBytes, f, b.Min, op, upper)
}

// bounds returns the IDs that bound the seconds from through to.
func bounds(kind string, from, to time.Time) (Bounds, error) {
	if to.Before(from) {
		return Bounds{}, fmt.Errorf("the window ends (%s) before it starts (%s)", to.Format(time.RFC3339), from.Format(time.RFC3339))
	}
	b := Bounds{Type: kind, From: from.UTC().Format(time.RFC3339), To: to.UTC().Format(time.RFC3339)}
	if kind == kindUUIDv7 {
		// A UUIDv7 holds the millisecond. A time given to the second
		// means all of it, as it does for KSUIDs and ObjectIDs.
		if to.Nanosecond() == 0 {
			to = to.Add(time.Second - time.Millisecond)
		}
		lo, err := uuidv7.MinAt(from)
		if err != nil {
			return Bounds{}, err
		}
		hi, err := uuidv7.MaxAt(to)
		if err != nil {
			return Bounds{}, err
		}
		b.From, b.To = from.UTC().Format(uuidTimeLayout), to.UTC().Format(uuidTimeLayout)
		b.Min, b.Max = lo.String(), hi.String()
		b.minBytes, b.maxBytes = lo[:], hi[:]
		return b, nil
	}
	if kind == kindObjectID {
		lo, err := objectid.MinAt(from)
		if err != nil {
			return Bounds{}, err
		}
		hi, err := objectid.MaxAt(to)
		if err != nil {
			return Bounds{}, err
		}
		b.Min, b.Max = lo.String(), hi.String()
		b.minBytes, b.maxBytes = lo[:], hi[:]
		return b, nil
	}
	lo, err := ksuid.MinAt(from)
	if err != nil {
		return Bounds{}, err
	}
	hi, err := ksuid.MaxAt(to)
	if err != nil {
		return Bounds{}, err
	}
	b.Min, b.Max = lo.String(), hi.String()
	b.minBytes, b.maxBytes = lo[:], hi[:]
	return b, nil
}

// splitTimeArgs separates the flags of fs, with their values, from the
// times among args. A time such as -1h looks like a flag to the flag
// package, but no flag starts with a digit; after "--" everything is a
// time.
func splitTimeArgs(fs *flag.FlagSet, args []string) (flagArgs, times []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return flagArgs, append(times, args[i+1:]...)
		case len(a) < 2 || a[0] != '-' || a[1] >= '0' && a[1] <= '9':
			times = append(times, a)
		default:
			flagArgs = append(flagArgs, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			// A flag that takes a value takes the next argument too.
			if f := fs.Lookup(name); f != nil && i+1 < len(args) {
				if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
					i++
					flagArgs = append(flagArgs, args[i])
				}
			}
		}
	}
	return flagArgs, times
}

// parseWindow reads the two ends of a time window as parseTime does; a bare
// date as the end (toDate) means the whole of that day: its last second,
// or with halfOpen the next midnight.
func parseWindow(fromText, toText string, halfOpen bool) (from, to time.Time, toDate bool, err error) {
	from, _, err = parseTime(fromText)
	if err != nil {
		return time.Time{}, time.Time{}, false, fmt.Errorf("from: %w", err)
	}
	to, toDate, err = parseTime(toText)
	if err != nil {
		return time.Time{}, time.Time{}, false, fmt.Errorf("to: %w", err)
	}
	switch {
	case toDate && halfOpen:
		to = to.Add(24 * time.Hour)
	case toDate:
		to = to.Add(24*time.Hour - time.Second)
	}
	return from, to, toDate, nil
}

// runRange prints the bounds of a time window: the smallest ID on the
// first line, the largest on the second; with --half-open, the smallest
// ID of TO's second (millisecond) on the second.
func runRange(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sortid range", stderr)
	kindFlag := fs.String("t", kindKSUID, "ID type: ksuid, objectid or uuidv7")
	asJSON := fs.Bool("json", false, "print JSON")
	asHex := fs.Bool("hex", false, `print the bounds as \x hex, for a bytea column in psql`)
	asMongo := fs.Bool("mongo", false, "print a mongosh filter that matches the window in either stored form")
	halfOpen := fs.Bool("half-open", false, "print MinAt(FROM) and MinAt(TO), for id >= first AND id < second: windows that tile")
	field := fs.String("field", "_id", "the field of the --mongo filter")
	flagArgs, times := splitTimeArgs(fs, args)
	if code := parseFlags(fs, flagArgs); code >= 0 {
		return code
	}
	if len(times) != 2 {
		return usageError(stderr, "range takes two times, FROM and TO")
	}
	if *asMongo && (*asHex || *asJSON) {
		return usageError(stderr, "--mongo prints a filter; it does not go with --hex or --json")
	}
	kind, err := parseKind(*kindFlag)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	from, to, toDate, err := parseWindow(times[0], times[1], *halfOpen)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	if toDate {
		// SQL's ksuid_min_at('2024-03-02') is that day's first ID: say
		// that a date as TO takes in the whole day.
		end := "through the end of " + times[1]
		if *halfOpen {
			end = "up to, not including, " + to.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(stderr, "sortid: range: from %s %s (a date as TO is the whole day)\n", from.UTC().Format(time.RFC3339), end)
	}
	var b Bounds
	if *halfOpen {
		b, err = halfOpenBounds(kind, from, to)
	} else {
		b, err = bounds(kind, from, to)
	}
	if err != nil {
		fmt.Fprintln(stderr, "sortid: range:", err)
		return exitError
	}
	if *asHex {
		b = b.asByteaHex()
	}
	switch {
	case *asMongo:
		_, err = fmt.Fprintln(stdout, b.mongoFilter(*field))
	case *asJSON:
		err = writeJSON(stdout, b)
	default:
		_, err = fmt.Fprintf(stdout, "%s\n%s\n", b.Min, b.Max+b.Before)
	}
	if err != nil {
		fmt.Fprintln(stderr, "sortid:", err)
		return exitError
	}
	return exitOK
}
