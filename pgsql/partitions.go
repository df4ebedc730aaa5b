package pgsql

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

// Period is the span of time one partition holds.
type Period int

// The periods of Partitions. A week starts on Monday (ISO 8601).
const (
	Day Period = iota + 1
	Week
	Month
)

// String names the period as the command's --period flag does.
func (p Period) String() string {
	switch p {
	case Day:
		return "day"
	case Week:
		return "week"
	case Month:
		return "month"
	}
	return fmt.Sprintf("Period(%d)", int(p))
}

// ParsePeriod reads "day", "week" or "month".
func ParsePeriod(s string) (Period, error) {
	switch strings.ToLower(s) {
	case "day", "daily":
		return Day, nil
	case "week", "weekly":
		return Week, nil
	case "month", "monthly":
		return Month, nil
	}
	return 0, fmt.Errorf("period %q: %w (want day, week or month)", s, ErrPartitions)
}

// ErrPartitions is wrapped by the errors of PartitionsSQL for a spec it
// does not take. Like ErrSchemaName it has no package prefix: its
// callers add theirs.
var ErrPartitions = errors.New("invalid partition spec")

// PartitionSpec says which partitions a table keyed by an ID should
// have; sqltype.PartitionSpec and the flags of `sortid sql partitions`
// mirror it.
type PartitionSpec struct {
	Table  string // the partitioned table, "events" or "app.events"
	IDType string // "ksuid", "objectid" or "uuidv7"
	Period Period // Day, Week or Month

	// Location is where periods start at midnight; nil is UTC.
	Location *time.Location

	// Back and Ahead are how many periods before and after the current
	// one get a partition; the current one always does.
	Back, Ahead int

	// Default adds a DEFAULT partition for the rows whose ID falls in no
	// period.
	Default bool

	// Retain, above 0, detaches and drops the partitions that end at or
	// before the start of the period Retain periods before the current
	// one. The DEFAULT partition is never dropped.
	Retain int
}

// partitionRange is one partition: its name and the smallest ID of its
// period and of the next, the bounds FROM … TO … takes.
type partitionRange struct {
	name       string
	start, end time.Time
	lo, hi     string // SQL literals of the bounds
}

// PartitionsSQL returns the SQL that brings spec's table to spec as of
// now: PartitionStatements, one after another, under a comment that
// names the spec. Run by psql, each statement commits on its own.
func PartitionsSQL(spec PartitionSpec, now time.Time) (string, error) {
	stmts, err := PartitionStatements(spec, now)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "-- sortid: %s partitions of %s by %s, %s\n", spec.Period, strings.Join(strings.Fields(spec.Table), " "), spec.IDType, now.In(spec.location()).Format(time.RFC3339))
	b.WriteString("-- Each statement is a transaction of its own: the partitions are made\n")
	b.WriteString("-- even when retention then fails. Pipe it into psql -v ON_ERROR_STOP=1.\n")
	for _, st := range stmts {
		b.WriteString(st)
	}
	return b.String(), nil
}

// PartitionStatements returns the statements that bring spec's table to
// spec as of now, each to run as a transaction of its own, in order,
// stopping at the first that fails:
//
//  1. create each missing partition of the periods from Back before
//     now's to Ahead after it, and the DEFAULT partition if asked;
//  2. with Retain, detach and drop the partitions whose upper bound is at
//     or before the cutoff, all or none: a partition it cannot drop (a
//     foreign table, one locked for longer than 5 s) fails the statement
//     with an error naming it, after step 1 has made the new partitions.
//
// Each period runs from the smallest ID of its first instant (midnight
// in spec.Location, or the first instant after a midnight the zone
// skips) to the smallest ID of the next period's, so periods neither
// overlap nor leave a gap. Bounds are compared as values of the column's
// type, whatever the session's bytea_output, standard_conforming_strings
// or search_path. The statements are idempotent. A table of the same
// name that is not a partition of the table, or the table not
// partitioned by range on one column, is an error, and nothing is
// changed.
func PartitionStatements(spec PartitionSpec, now time.Time) ([]string, error) {
	ranges, cutoff, err := spec.plan(now)
	if err != nil {
		return nil, err
	}
	table := quoteQualified(spec.Table)
	// The block's own settings, after the table's name is resolved by the
	// caller's search path: built-in functions only, and bounds printed
	// in the one form the retention reads.
	const settings = `	PERFORM pg_catalog.set_config('search_path', 'pg_catalog', true);
	PERFORM set_config('bytea_output', 'hex', true);
	PERFORM set_config('standard_conforming_strings', 'on', true);
`
	header := "DO $sortid$\nDECLARE\n\tparent constant regclass := " + literal(table) + "::pg_catalog.regclass;\n" +
		"\tns text;\n\tp record;\n\tchild regclass;\n\tpartman text;\n\tmanaged boolean;\n"
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("BEGIN\n" + settings)
	b.WriteString("\tns := (SELECT nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent);\n")
	b.WriteString(checkParentSQL(spec.IDType))
	b.WriteString(notPartmanSQL)
	b.WriteString("\tFOR p IN SELECT * FROM (VALUES\n")
	for i, r := range ranges {
		sep := ","
		if i == len(ranges)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "\t\t(%s, %s, %s)%s -- %s to %s\n", literal(r.name), r.lo, r.hi, sep,
			r.start.Format(time.RFC3339), r.end.Format(time.RFC3339))
	}
	b.WriteString("\t) AS v(name, lo, hi) LOOP\n")
	b.WriteString(`		child := to_regclass(format('%I.%I', ns, p.name));
		IF child IS NULL THEN
			EXECUTE format('CREATE TABLE %I.%I PARTITION OF %s FOR VALUES FROM (%L) TO (%L)', ns, p.name, parent, p.lo, p.hi);
		ELSIF NOT EXISTS (SELECT FROM pg_inherits WHERE inhrelid = child AND inhparent = parent) THEN
			RAISE EXCEPTION 'sortid: % exists and is not a partition of %', child, parent;
		END IF;
	END LOOP;
`)
	if spec.Default {
		defName := literal(partitionName(spec.Table, "default"))
		b.WriteString("\tchild := to_regclass(format('%I.%I', ns, " + defName + "));\n")
		b.WriteString("\tIF child IS NULL THEN\n")
		b.WriteString("\t\tEXECUTE format('CREATE TABLE %I.%I PARTITION OF %s DEFAULT', ns, " + defName + ", parent);\n")
		b.WriteString("\tELSIF NOT EXISTS (SELECT FROM pg_inherits WHERE inhrelid = child AND inhparent = parent) THEN\n")
		b.WriteString("\t\tRAISE EXCEPTION 'sortid: % exists and is not a partition of %', child, parent;\n\tEND IF;\n")
	}
	b.WriteString("END $sortid$;\n")
	stmts := []string{b.String()}
	if spec.Retain > 0 && cutoff.lo != "" {
		b.Reset()
		// A partition's upper bound is read from pg_get_expr, printed
		// under the block's settings, and compared with the cutoff as a
		// value of the column's type.
		valueType := `text COLLATE "C"`
		if spec.IDType == "uuidv7" {
			valueType = "uuid"
		}
		b.WriteString(header)
		b.WriteString("\tcutoff constant pg_catalog." + valueType + " := " + cutoff.lo + ";\n\thi pg_catalog." + valueType + ";\n\tkeytype regtype;\n")
		b.WriteString("BEGIN\n" + settings)
		b.WriteString("\tPERFORM set_config('lock_timeout', '5s', true);\n")
		b.WriteString(notPartmanSQL)
		// The bound is printed in the key type's text form, the ID's text
		// for the domains, a text column and the extension's types alike;
		// read as the key type (which checks it), then compared as text
		// in byte order.
		b.WriteString(`	keytype := (SELECT a.atttypid::regtype FROM pg_partitioned_table pt
		JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0] WHERE pt.partrelid = parent);
`)
		fmt.Fprintf(&b, `	-- Retention: the partitions that end at or before %s.
	FOR p IN SELECT c.oid::regclass AS part, c.relkind,
			substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']*)''\)') AS hi_text
		FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = parent LOOP
		CONTINUE WHEN p.hi_text IS NULL; -- DEFAULT, MINVALUE, MAXVALUE
		EXECUTE format('SELECT %%L::%%s::pg_catalog.%s', p.hi_text, keytype) INTO hi;
		CONTINUE WHEN %s OR hi > cutoff;
		IF p.relkind NOT IN ('r', 'p') THEN
			RAISE EXCEPTION 'sortid: retention of %%: partition %% is not an ordinary table (relkind %%); detach it yourself (ALTER TABLE %% DETACH PARTITION %%), then run again', parent, p.part, p.relkind, parent, p.part;
		END IF;
		EXECUTE format('ALTER TABLE %%s DETACH PARTITION %%s', parent, p.part);
		EXECUTE format('DROP TABLE %%s', p.part);
	END LOOP;
END $sortid$;
`, cutoff.start.Format(time.RFC3339), valueType, lengthMismatch(valueType))
		stmts = append(stmts, b.String())
	}
	return stmts, nil
}

// lengthMismatch is the SQL that skips a bound of another length than
// the cutoff's (a table of the wrong ID type); uuids have one length.
func lengthMismatch(valueType string) string {
	if valueType == "uuid" {
		return "false"
	}
	return "length(hi) <> length(cutoff)"
}

// notPartmanSQL is the part of each DO block that refuses a table
// pg_partman manages (a row of its part_config names it): two managers
// would each make and drop the other's partitions, by rules that differ.
const notPartmanSQL = `	partman := (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_partman');
	IF partman IS NOT NULL THEN
		EXECUTE format('SELECT EXISTS (SELECT FROM %I.part_config WHERE pg_catalog.to_regclass(parent_table) = $1)', partman)
			INTO managed USING parent;
		IF managed THEN
			RAISE EXCEPTION 'sortid: % is managed by pg_partman (%.part_config names it); nothing was changed', parent, partman
				USING HINT = 'Let pg_partman''s run_maintenance() make and drop its partitions, or stop it managing the table (remove its part_config row) before using sortid sql partitions.';
		END IF;
	END IF;
`

// checkParentSQL is the part of the DO block that refuses a table that is
// not partitioned by range on one column of the ID's type.
func checkParentSQL(idType string) string {
	// A KSUID or ObjectID key is text in byte order: the domain (over text
	// COLLATE "C"), a text or varchar column with that collation (GORM's
	// where nothing is installed), or the sortid extension's base type.
	// Under any other collation the bounds would not be time order.
	key := fmt.Sprintf(`(t.oid IN ('text'::regtype, 'varchar'::regtype) OR t.typbasetype IN ('text'::regtype, 'varchar'::regtype))
					AND pt.partcollation[0] = 'pg_catalog."C"'::regcollation
				OR t.typtype = 'b' AND t.typname = %s AND EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
					WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND e.extname = 'sortid')`, literal(idType))
	want := `a ksuid or objectid column, or text COLLATE "C"`
	if idType == "uuidv7" {
		key = "t.oid = 'uuid'::regtype OR t.typbasetype = 'uuid'::regtype"
		want = "a uuid column"
	}
	return fmt.Sprintf(`	IF NOT EXISTS (SELECT FROM pg_partitioned_table pt
			JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0]
			JOIN pg_type t ON t.oid = a.atttypid
			WHERE pt.partrelid = parent AND pt.partstrat = 'r' AND pt.partnatts = 1
				AND (%s)) THEN
		RAISE EXCEPTION 'sortid: %% is not partitioned BY RANGE on %s', parent;
	END IF;
`, key, want)
}

func (spec PartitionSpec) location() *time.Location {
	if spec.Location == nil {
		return time.UTC
	}
	return spec.Location
}

// maxRetain bounds Retain: some 270 years of days. A larger value is an
// error rather than a date that wraps around past now.
const maxRetain = 100_000

// plan returns the partitions of spec as of now, and the period whose
// start is the retention cutoff (with an empty lo where that start is
// before the ID type's first time, so that no partition can end before
// it).
func (spec PartitionSpec) plan(now time.Time) (ranges []partitionRange, cutoff partitionRange, err error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("partitions of %q: "+format+": %w", append(append([]any{spec.Table}, args...), ErrPartitions)...)
	}
	switch {
	case spec.Table == "":
		return nil, cutoff, bad("no table")
	case spec.Period < Day || spec.Period > Month:
		return nil, cutoff, bad("period %d (want Day, Week or Month)", int(spec.Period))
	case spec.Back < 0 || spec.Ahead < 0 || spec.Retain < 0:
		return nil, cutoff, bad("Back, Ahead and Retain must not be negative")
	case spec.Back > 10000 || spec.Ahead > 10000 || spec.Back+spec.Ahead > 10000:
		return nil, cutoff, bad("%d partitions; at most 10,001 in one call", spec.Back+spec.Ahead+1)
	case spec.Retain > maxRetain:
		return nil, cutoff, bad("Retain %d is out of range (at most %d periods)", spec.Retain, maxRetain)
	}
	if n := len(partitionName(spec.Table, spec.longestSuffix())); n > 63 {
		return nil, cutoff, bad("partition names would be %d bytes, over PostgreSQL's 63", n)
	}
	current := spec.periodOf(now)
	first := -spec.Back
	if spec.Retain > 0 {
		start := spec.shift(current, -spec.Retain)
		cutoff = partitionRange{start: start.firstInstant(spec.location())}
		if !cutoff.start.Before(current.firstInstant(spec.location())) {
			return nil, cutoff, bad("the retention cutoff %v is not before now's period", cutoff.start)
		}
		if lo, err := boundLiteral(spec.IDType, cutoff.start); err == nil {
			cutoff.lo = lo
		} else if _, err := boundLiteral(spec.IDType, now); err != nil {
			return nil, cutoff, bad("%v", err) // the ID type itself is wrong
		}
		// Retention would drop what is older at once: not made.
		first = max(first, -spec.Retain)
	}
	for i := first; i <= spec.Ahead; i++ {
		r, err := spec.rangeAt(current, i)
		if err != nil {
			return nil, cutoff, bad("%v", err)
		}
		ranges = append(ranges, r)
	}
	return ranges, cutoff, nil
}

// longestSuffix is the longest name suffix of spec's partitions.
func (spec PartitionSpec) longestSuffix() string {
	suffix := "default"
	switch spec.Period {
	case Day:
		suffix = "p20060102"
	case Week:
		suffix = "p2006w01"
	}
	return suffix
}

// civilDate is a date of the calendar, in no time zone: periods are
// counted in dates, and only their first instants are times.
type civilDate struct {
	year  int
	month time.Month
	day   int
}

func dateOf(t time.Time) civilDate {
	y, m, d := t.Date()
	return civilDate{y, m, d}
}

// addDays and addMonths count in UTC, which skips no day.
func (c civilDate) addDays(n int) civilDate {
	return dateOf(time.Date(c.year, c.month, c.day+n, 12, 0, 0, 0, time.UTC))
}

func (c civilDate) addMonths(n int) civilDate {
	return dateOf(time.Date(c.year, c.month+time.Month(n), 1, 12, 0, 0, 0, time.UTC))
}

// firstInstant is the first instant of date c in loc: its midnight, or,
// where loc skips midnight (Cairo, Havana, Santiago, the Azores at the
// start of summer time), the first instant after the gap. It walks loc's
// offsets around the date, as time.Date alone may move a missing
// midnight an hour either way.
func (c civilDate) firstInstant(loc *time.Location) time.Time {
	midnight := time.Date(c.year, c.month, c.day, 0, 0, 0, 0, time.UTC) // its clock reading, as if in UTC
	u, end := midnight.Add(-30*time.Hour), midnight.Add(30*time.Hour)
	for u.Before(end) {
		t := u.In(loc)
		_, offset := t.Zone()
		_, next := t.ZoneBounds()
		if next.IsZero() || next.After(end) {
			next = end
		}
		// The instant whose clock reads c's midnight at this offset.
		if at := midnight.Add(-time.Duration(offset) * time.Second); !at.Before(u) && at.Before(next) {
			return at.In(loc)
		}
		// An offset that starts within the day: midnight was skipped.
		if dateOf(t) == c {
			return t
		}
		u = next
	}
	return time.Date(c.year, c.month, c.day, 0, 0, 0, 0, loc) // not reached for real zones
}

// periodDate is the first date of the period that holds date c.
func (spec PartitionSpec) periodDate(c civilDate) civilDate {
	switch spec.Period {
	case Week:
		wd := time.Date(c.year, c.month, c.day, 12, 0, 0, 0, time.UTC).Weekday()
		return c.addDays(-((int(wd) + 6) % 7)) // back to Monday
	case Month:
		return civilDate{c.year, c.month, 1}
	}
	return c
}

// shift moves a period's first date by n periods.
func (spec PartitionSpec) shift(c civilDate, n int) civilDate {
	switch spec.Period {
	case Week:
		return c.addDays(7 * n)
	case Month:
		return c.addMonths(n)
	}
	return c.addDays(n)
}

// periodOf is the first date of the period that holds the instant t: by
// the date t reads in spec's zone, and the next period where t is past
// that one's first instant (after a clock set back across midnight, a
// day's first hour reads as the day before).
func (spec PartitionSpec) periodOf(t time.Time) civilDate {
	loc := spec.location()
	p := spec.periodDate(dateOf(t.In(loc)))
	if next := spec.shift(p, 1); !t.Before(next.firstInstant(loc)) {
		return next
	}
	return p
}

// rangeAt is the partition n periods from the one starting on current.
func (spec PartitionSpec) rangeAt(current civilDate, n int) (partitionRange, error) {
	loc := spec.location()
	first := spec.shift(current, n)
	start := first.firstInstant(loc)
	end := spec.shift(current, n+1).firstInstant(loc)
	lo, err := boundLiteral(spec.IDType, start)
	if err != nil {
		return partitionRange{}, err
	}
	hi, err := boundLiteral(spec.IDType, end)
	if err != nil {
		return partitionRange{}, err
	}
	noon := time.Date(first.year, first.month, first.day, 12, 0, 0, 0, time.UTC)
	var suffix string
	switch spec.Period {
	case Day:
		suffix = noon.Format("p20060102")
	case Week:
		y, w := noon.ISOWeek()
		suffix = fmt.Sprintf("p%04dw%02d", y, w)
	case Month:
		suffix = noon.Format("p200601")
	}
	return partitionRange{name: partitionName(spec.Table, suffix), start: start, end: end, lo: lo, hi: hi}, nil
}

// boundLiteral is the SQL value of the smallest ID of t: its text form,
// for the KSUID and ObjectID columns (the domains over text COLLATE "C",
// the extension's types), a uuid for UUIDv7. Neither holds a backslash
// or a quote, so no setting changes what it reads.
func boundLiteral(idType string, t time.Time) (string, error) {
	switch idType {
	case "ksuid":
		id, err := ksuid.MinAt(t)
		if err != nil {
			return "", err
		}
		return literal(id.String()), nil
	case "objectid":
		id, err := objectid.MinAt(t)
		if err != nil {
			return "", err
		}
		return literal(id.String()), nil
	case "uuidv7":
		id, err := uuidv7.MinAt(t)
		if err != nil {
			return "", err
		}
		return literal(id.String()) + "::pg_catalog.uuid", nil
	}
	return "", fmt.Errorf("ID type %q (want ksuid, objectid or uuidv7)", idType)
}

// partitionName is the parent's name, without its schema, and suffix.
func partitionName(table, suffix string) string {
	if i := strings.LastIndexByte(table, '.'); i >= 0 {
		table = table[i+1:]
	}
	return table + "_" + suffix
}

// quoteQualified quotes "schema.table" or "table" as identifiers.
func quoteQualified(table string) string {
	parts := strings.Split(table, ".")
	for i, p := range parts {
		parts[i] = quoteIdent(p)
	}
	return strings.Join(parts, ".")
}

// quoteIdent quotes one name as an identifier, whatever it holds.
func quoteIdent(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// literal quotes s as an SQL string literal (standard_conforming_strings).
func literal(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
