package pgsql

import (
	"encoding/hex"
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

// PartitionSpec is sqltype.PartitionSpec, which documents each field for
// users; the command fills it from its flags.
type PartitionSpec struct {
	Table, IDType string
	Period        Period
	Location      *time.Location // nil: UTC
	Back, Ahead   int
	Default       bool
	Retain        int
}

// partitionRange is one partition: its name and the smallest ID of its
// period and of the next, the bounds FROM … TO … takes.
type partitionRange struct {
	name       string
	start, end time.Time
	lo, hi     string // SQL literals of the bounds
}

// PartitionsSQL returns the SQL that brings spec's table to spec as of
// now: it creates each missing partition of the periods from Back before
// now's to Ahead after it, the DEFAULT partition if asked, and, with
// Retain, detaches and drops the old ones. Each period runs from the
// smallest ID of its first instant (midnight in spec.Location) to the
// smallest ID of the next period's, so periods neither overlap nor leave
// a gap. The SQL is idempotent: run again, it creates only what is
// missing. A table of the same name that is not a partition of the
// table, or the table not partitioned by range on one column, is an
// error when the SQL runs, and nothing is changed.
func PartitionsSQL(spec PartitionSpec, now time.Time) (string, error) {
	ranges, cutoff, err := spec.plan(now)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	table := quoteQualified(spec.Table)
	fmt.Fprintf(&b, "-- sortid: %s partitions of %s by %s, %s\n", spec.Period, strings.Join(strings.Fields(spec.Table), " "), spec.IDType, now.In(spec.location()).Format(time.RFC3339))
	b.WriteString("BEGIN;\n")
	b.WriteString("DO $sortid$\nDECLARE\n\tparent constant regclass := " + literal(table) + "::regclass;\n")
	b.WriteString("\tns constant text := (SELECT nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = parent);\n")
	b.WriteString("\tp record;\n\tchild regclass;\nBEGIN\n")
	b.WriteString(checkParentSQL(spec.IDType))
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
	if spec.Retain > 0 {
		// A partition's upper bound, as pg_get_expr prints it, is the
		// lowercase text of a bytea or uuid of fixed length, which
		// compares as its bytes do.
		fmt.Fprintf(&b, `	-- Retention: the partitions that end at or before %s.
	FOR p IN SELECT c.oid::regclass AS part, substring(pg_get_expr(c.relpartbound, c.oid) FROM 'TO \(''([^'']*)''') AS hi
		FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = parent LOOP
		IF p.hi IS NOT NULL AND length(p.hi) = length(%s) AND p.hi <= %s THEN
			EXECUTE format('ALTER TABLE %%s DETACH PARTITION %%s', parent, p.part);
			EXECUTE format('DROP TABLE %%s', p.part);
		END IF;
	END LOOP;
`, cutoff.start.Format(time.RFC3339), cutoff.lo, cutoff.lo)
	}
	b.WriteString("END $sortid$;\nCOMMIT;\n")
	return b.String(), nil
}

// checkParentSQL is the part of the DO block that refuses a table that is
// not partitioned by range on one column of the ID's type.
func checkParentSQL(idType string) string {
	types := "'bytea'::regtype"
	want := "a ksuid, objectid or bytea column"
	if idType == "uuidv7" {
		types = "'uuid'::regtype"
		want = "a uuid column"
	}
	return fmt.Sprintf(`	IF NOT EXISTS (SELECT FROM pg_partitioned_table pt
			JOIN pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0]
			JOIN pg_type t ON t.oid = a.atttypid
			WHERE pt.partrelid = parent AND pt.partstrat = 'r' AND pt.partnatts = 1
				AND (t.oid = %[1]s OR t.typbasetype = %[1]s)) THEN
		RAISE EXCEPTION 'sortid: %% is not partitioned BY RANGE on %s', parent;
	END IF;
`, types, want)
}

func (spec PartitionSpec) location() *time.Location {
	if spec.Location == nil {
		return time.UTC
	}
	return spec.Location
}

// plan returns the partitions of spec as of now, and the period whose
// start is the retention cutoff.
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
	case spec.Back+spec.Ahead > 10000:
		return nil, cutoff, bad("%d partitions; at most 10,001 in one call", spec.Back+spec.Ahead+1)
	}
	if n := len(partitionName(spec.Table, "p2006w01")); n > 63 {
		return nil, cutoff, bad("partition names would be %d bytes, over PostgreSQL's 63", n)
	}
	current := spec.periodStart(now)
	first := -spec.Back
	if spec.Retain > 0 {
		if cutoff, err = spec.rangeAt(current, -spec.Retain); err != nil {
			return nil, cutoff, bad("%v", err)
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

// periodStart is the first instant of the period that holds t.
func (spec PartitionSpec) periodStart(t time.Time) time.Time {
	t = t.In(spec.location())
	y, m, d := t.Date()
	switch spec.Period {
	case Week:
		day := time.Date(y, m, d, 0, 0, 0, 0, t.Location())
		back := (int(day.Weekday()) + 6) % 7 // days since Monday
		return day.AddDate(0, 0, -back)
	case Month:
		return time.Date(y, m, 1, 0, 0, 0, 0, t.Location())
	}
	return time.Date(y, m, d, 0, 0, 0, 0, t.Location())
}

// add moves a period start by n periods.
func (spec PartitionSpec) add(start time.Time, n int) time.Time {
	switch spec.Period {
	case Week:
		return start.AddDate(0, 0, 7*n)
	case Month:
		return start.AddDate(0, n, 0)
	}
	return start.AddDate(0, 0, n)
}

// rangeAt is the partition n periods from the one starting at current.
func (spec PartitionSpec) rangeAt(current time.Time, n int) (partitionRange, error) {
	start := spec.add(current, n)
	end := spec.add(current, n+1)
	lo, err := boundLiteral(spec.IDType, start)
	if err != nil {
		return partitionRange{}, err
	}
	hi, err := boundLiteral(spec.IDType, end)
	if err != nil {
		return partitionRange{}, err
	}
	var suffix string
	switch spec.Period {
	case Day:
		suffix = start.Format("p20060102")
	case Week:
		y, w := start.ISOWeek()
		suffix = fmt.Sprintf("p%04dw%02d", y, w)
	case Month:
		suffix = start.Format("p200601")
	}
	return partitionRange{name: partitionName(spec.Table, suffix), start: start, end: end, lo: lo, hi: hi}, nil
}

// boundLiteral is the SQL literal of the smallest ID of t: \x hex for the
// bytea-based KSUID and ObjectID columns, the text form for uuid.
func boundLiteral(idType string, t time.Time) (string, error) {
	switch idType {
	case "ksuid":
		id, err := ksuid.MinAt(t)
		if err != nil {
			return "", err
		}
		return literal(`\x` + hex.EncodeToString(id[:])), nil
	case "objectid":
		id, err := objectid.MinAt(t)
		if err != nil {
			return "", err
		}
		return literal(`\x` + hex.EncodeToString(id[:])), nil
	case "uuidv7":
		id, err := uuidv7.MinAt(t)
		if err != nil {
			return "", err
		}
		return literal(id.String()), nil
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
		parts[i] = `"` + strings.ReplaceAll(p, `"`, `""`) + `"`
	}
	return strings.Join(parts, ".")
}

// literal quotes s as an SQL string literal (standard_conforming_strings).
func literal(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
