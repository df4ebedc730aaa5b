// Command sortid makes and reads KSUIDs and MongoDB ObjectIDs.
//
//	sortid                       one new KSUID
//	sortid -n 1000 -t objectid   a thousand new ObjectIDs, one per line
//	sortid --monotonic -n 5      strictly increasing KSUIDs
//	sortid --time 2024-01-01T00:00:00Z
//	sortid inspect 0qjBBlJIfbVLKwnJn4xpLGDr00e 60c468e6101bf215dc9fa835
//	sortid range 2024-01-01T00:00:00Z 2024-01-31T23:59:59Z
//	sortid serve --addr 127.0.0.1:8080
//	sortid page > sortid.html
//	sortid sql | psql -v ON_ERROR_STOP=1 "$DATABASE_URL"
//	sortid check "$DATABASE_URL"
//
// Run it with go run github.com/sortid/sortid/cmd/sortid, or go install it.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // the work failed, for example an ID did not decode
	exitUsage = 2 // the command line was wrong
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run runs the command with args and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		switch args[0] {
		case "inspect":
			return runInspect(args[1:], stdin, stdout, stderr)
		case "range":
			return runRange(args[1:], stdout, stderr)
		case "serve":
			return runServe(args[1:], stderr)
		case "page":
			return runPage(args[1:], stdout, stderr)
		case "sql":
			return runSQL(args[1:], stdout, stderr)
		case "check":
			return runCheck(args[1:], stdout, stderr)
		case "help":
			fmt.Fprint(stdout, usage)
			return exitOK
		case "version", "--version", "-version":
			fmt.Fprintln(stdout, version())
			return exitOK
		}
	}
	return runGenerate(args, stdout, stderr)
}

const usage = `sortid makes and reads sortable unique IDs: KSUIDs, MongoDB ObjectIDs and UUIDv7s.

Usage:
  sortid [-n N] [-t ksuid|objectid|uuidv7] [--monotonic] [--time T] [--json]
  sortid inspect [--json] [--hex] [ID ...]     (IDs from stdin, one per line, when none are given;
                                               also \x… hex as psql prints a bytea, and base64 as mongosh does)
  sortid range [-t ksuid|objectid|uuidv7] [--half-open] [--json] [--hex] [--mongo] FROM TO
                                              (--half-open: id >= first AND id < second, windows that tile;
                                               --hex: \x… for a bytea column; --mongo: a mongosh filter)
  sortid serve [--addr 127.0.0.1:8080]
  sortid page                                 (the page as one file: sortid page > sortid.html)
  sortid sql [--schema NAME] [ksuid|objectid|uuidv7|all ...]
                                              (PostgreSQL: the SQL functions of the ID types named, all by default;
                                               ksuid and objectid as domains, UUIDv7 in the uuid type)
  sortid sql partitions [-t TYPE] [--period day|week|month] [--back N] [--ahead N] [--default] [--retain N] TABLE
  sortid sql to-extension                     (converts the domains' columns to the sortid extension's types)
  sortid check [--json] DSN                   (reads a PostgreSQL database through psql, changing nothing, and names
                                               each ID column that can answer silently wrong, with the fix;
                                               exit status 1 when one can, 0 when none, 3 when it could not read it;
                                               a mongodb:// URI is read by sortid-check-mongodb, the same way)
  sortid --version
  sortid SUBCOMMAND -h                        (that subcommand's usage)

Times are RFC 3339 (2024-05-01T12:00:00Z), a date (2024-05-01), Unix
seconds, now, or a duration from now (-1h).

Examples:
  sortid                                   one new KSUID
  sortid -n 1000 > ids.txt                 a thousand, one per line
  sortid -t objectid --time 1700000000     an ObjectID for that second
  sortid --monotonic -n 3                  strictly increasing KSUIDs
  sortid -t uuidv7                         one new UUIDv7
  sortid inspect 0qjBBlJIfbVLKwnJn4xpLGDr00e
  grep -o '[0-9A-Za-z]\{27\}' app.log | sortid inspect --json
  sortid range --half-open 2024-05-01 2024-05-02   the IDs of 2024-05-01 and 2024-05-02, half-open
  sortid serve                             a page to generate, inspect and range IDs
  sortid page > sortid.html                the same page as a file, to open offline
  sortid sql | psql -v ON_ERROR_STOP=1 "$DATABASE_URL"
                                           install the domains and SQL functions of all three
  sortid sql uuidv7 | psql -v ON_ERROR_STOP=1 "$DATABASE_URL"
                                           only the uuidv7_ functions, on the uuid type
  sortid sql partitions --back 30 --ahead 3 --retain 30 events | psql -v ON_ERROR_STOP=1 "$DATABASE_URL"
                                           daily partitions of events, 30 days kept
  (without -v ON_ERROR_STOP=1, psql exits 0 after an error: a cron job
  would never see it fail)

Exit status: 0 on success, 1 if an ID could not be made or read, 2 on a usage error
(sortid check: 1 for a silent finding, 3 when it could not read the database).
`

// subcommandUsage is what `sortid SUBCOMMAND -h` prints above the flags.
var subcommandUsage = map[string]string{
	"sortid inspect": `Usage: sortid inspect [--json] [--hex] [ID ...]

Decodes KSUIDs, ObjectIDs and UUIDs (any version; the time of versions
7, 6 and 1): their type, time and parts. IDs come from the
arguments, or from stdin, one per line, when none are given. Besides the
text forms it reads \x hex as psql prints a bytea, 40 hex digits, base64,
and the shell forms mongosh prints: Binary.createFromBase64("...", 0),
BinData(0, "..."), HexData(0, "...") and ObjectId("...") (subtype 4 and
UUID("...") for UUIDs).
`,
	"sortid range": `Usage: sortid range [-t ksuid|objectid|uuidv7] [--half-open] [--json] [--hex] [--mongo [--field F]] FROM TO

With --half-open, prints the smallest ID of FROM's second and the smallest
of TO's, the bounds of WHERE id >= first AND id < second: windows that
meet at a time share no ID, so a job that walks hour by hour counts each
row once. Without it, prints the smallest ID of FROM's second and the
largest of TO's, the bounds of WHERE id BETWEEN first AND second (TO's
second included). KSUIDs and ObjectIDs hold the second, UUIDv7s the
millisecond: the times are truncated to it. Times are RFC 3339, a date (a
date as TO means the whole day), Unix seconds, now, or a duration from now
(-1h).
--hex prints the bounds as \x hex for a bytea column in psql. --mongo
prints a mongosh filter on the field F (default _id) instead; for KSUIDs it
matches both stored forms, binary and the string:
  db.events.find(<the filter>)
`,
	"sortid serve": `Usage: sortid serve [--addr 127.0.0.1:8080]

Serves the page (see sortid page), and a JSON API for programs, on a
loopback address. With port 0 it prints the port it got.
`,
	"sortid page": `Usage: sortid page

Writes the page that generates, inspects and ranges IDs as one HTML file:
sortid page > sortid.html. It makes IDs in the browser, from the browser's
clock and Web Crypto random source, and needs no server or network.
`,
	"sortid sql": `Usage: sortid sql [--schema NAME] [ksuid|objectid|uuidv7|all ...]

Prints the PostgreSQL install script of the ID types named; with none, or
all, of all three:
  ksuid     the domain ksuid (text COLLATE "C", 27 base62 characters),
            ksuid_generate, ksuid_to_text, ksuid_from_text, ksuid_to_bytea,
            bytea_to_ksuid, ksuid_time, ksuid_min_at, ksuid_max_at,
            ksuid_time_encoder, ksuid_time_decoder; creates pgcrypto
  objectid  the domain objectid (text COLLATE "C", 24 lowercase hex
            digits), objectid_to_text, objectid_from_text,
            objectid_to_bytea, bytea_to_objectid, objectid_time,
            objectid_min_at, objectid_max_at, objectid_time_encoder,
            objectid_time_decoder
  uuidv7    uuidv7_generate, uuidv7_time, uuidv7_min_at, uuidv7_max_at,
            uuidv7_time_encoder, uuidv7_time_decoder on the uuid type; no
            domain; pgcrypto only before PostgreSQL 18
            (on 18, DEFAULT uuidv7() needs no install at all)
It needs no superuser and can run again. Pipe it to psql, stopping at an
error: sortid sql uuidv7 | psql -v ON_ERROR_STOP=1 "$DATABASE_URL".
Where the server can load the sortid extension (extension/ in sortid's
source), use CREATE EXTENSION sortid instead: real types, not domains. On a
database that has the extension, the script changes nothing and fails.
`,
	"sortid check": `Usage: sortid check [--json] [--psql PROGRAM] DSN
       sortid check [--json] [--mongodb PROGRAM] mongodb://host/database

Reads a PostgreSQL database through psql, every schema, in one SELECT in
a READ ONLY transaction, and names each column that holds IDs where an
answer can be silently wrong: KSUIDs as text under a collation that does
not sort them by time, IDs in bytea. Each finding gives the fix (the
online one first) and what a conversion must carry. It needs only USAGE
on the schemas and SELECT on the tables.

A mongodb:// or mongodb+srv:// URI is read by sortid-check-mongodb, which
sortid check runs (install it with go install
github.com/sortid/sortid/bsoncodec/cmd/sortid-check-mongodb@latest; it
holds the MongoDB driver, which this command does not). It samples each
collection of the URI's database for fields that hold KSUIDs or
ObjectIDs, counts their stored forms, and names binary KSUIDs, hex
ObjectIDs, collations other than simple, zero KSUIDs, and normalizations
left stopped or running.

Exit status: 1 when a finding can give a silent wrong answer, 0 when none
can, 3 when the database could not be read, 2 on a usage error.
`,
	"sortid sql to-extension": `Usage: sortid sql to-extension

Prints the script that converts a database from the domains of sortid sql
to the sortid extension's types, in place and in one transaction: it
renames the domains and functions aside, creates the extension, converts
every column (partitioned tables get a new parent with their partitions
attached), puts back defaults and foreign keys, and drops the old objects.
The extension's files must be installed on the server, and the role must
be allowed to CREATE EXTENSION. Every converted table is rewritten under
an exclusive lock: run it in a maintenance window.

  sortid sql to-extension | psql -v ON_ERROR_STOP=1 "$DATABASE_URL"
`,
	"sortid sql partitions": `Usage: sortid sql partitions [-t ksuid|objectid|uuidv7] [--period day|week|month]
       [--back N] [--ahead N] [--default] [--retain N] [--tz ZONE] [--now T] TABLE

Prints the SQL that creates the range partitions of TABLE, a table
partitioned BY RANGE on its ID, for the periods from --back before the
current one to --ahead after it: each from the smallest ID of its first
midnight to the smallest ID of the next period's. It is idempotent, for a
daily job:

  sortid sql partitions --back 30 --ahead 3 --retain 30 events | psql -q -v ON_ERROR_STOP=1 "$DATABASE_URL"

--retain N detaches and drops the partitions older than N periods before
the current one, with their rows.
`,
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints the usage of the command or subcommand on -h.
func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		text, ok := subcommandUsage[name]
		if !ok {
			fmt.Fprint(stderr, usage)
			return
		}
		fmt.Fprint(stderr, text+"\nFlags:\n")
		fs.PrintDefaults()
	}
	return fs
}

// version is the module version the command was built from, and the Go
// version that built it.
func version() string {
	v := "(devel)"
	goVersion := ""
	if info, ok := debug.ReadBuildInfo(); ok {
		if info.Main.Version != "" {
			v = info.Main.Version
		}
		goVersion = info.GoVersion
	}
	return "sortid " + v + " " + goVersion
}

// parseFlags parses args and returns the exit code to stop with, or -1 to
// go on.
func parseFlags(fs *flag.FlagSet, args []string) int {
	err := fs.Parse(args)
	switch {
	case err == nil:
		return -1
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	default:
		return exitUsage
	}
}

func usageError(stderr io.Writer, format string, args ...any) int {
	fmt.Fprintf(stderr, "sortid: "+format+"\n", args...)
	fmt.Fprintln(stderr, "Run 'sortid -h' for usage.")
	return exitUsage
}
