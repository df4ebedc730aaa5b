package main

import (
	"fmt"
	"io"
	"time"

	"github.com/sortid/sortid/pgsql"
)

// runPartitions prints the SQL that creates the range partitions of a
// table partitioned by its ID, for psql: sortid sql partitions TABLE.
func runPartitions(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("sortid sql partitions", stderr)
	kindFlag := fs.String("t", kindKSUID, "ID type of the table's key: ksuid, objectid or uuidv7")
	periodFlag := fs.String("period", "day", "one partition a day, week (from Monday) or month")
	back := fs.Int("back", 0, "periods before the current one to create")
	ahead := fs.Int("ahead", 3, "periods after the current one to create")
	withDefault := fs.Bool("default", false, "a DEFAULT partition for IDs outside every period (otherwise their inserts fail)")
	retain := fs.Int("retain", 0, "detach and drop the partitions older than this many periods before the current one (0: keep all)")
	tz := fs.String("tz", "UTC", "the time zone whose midnight starts a period")
	nowFlag := fs.String("now", "", "act as of this time instead of now (RFC 3339, a date, Unix seconds)")
	flagArgs, rest := splitTimeArgs(fs, args)
	if code := parseFlags(fs, flagArgs); code >= 0 {
		return code
	}
	if len(rest) != 1 {
		return usageError(stderr, "sql partitions takes one table, got %d arguments", len(rest))
	}
	kind, err := parseKind(*kindFlag)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	period, err := pgsql.ParsePeriod(*periodFlag)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	loc, err := time.LoadLocation(*tz)
	if err != nil {
		return usageError(stderr, "--tz %q: %v", *tz, err)
	}
	now := time.Now()
	if *nowFlag != "" {
		if now, _, err = parseTime(*nowFlag); err != nil {
			return usageError(stderr, "--now: %v", err)
		}
	}
	script, err := pgsql.PartitionsSQL(pgsql.PartitionSpec{
		Table: rest[0], IDType: kind, Period: period, Location: loc,
		Back: *back, Ahead: *ahead, Default: *withDefault, Retain: *retain,
	}, now)
	if err != nil {
		return usageError(stderr, "%v", err)
	}
	fmt.Fprint(stdout, script)
	return exitOK
}
