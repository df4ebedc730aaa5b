package sqltype

import (
	"context"
	"fmt"
	"time"

	"github.com/sortid/sortid/pgsql"
)

// Period is the span of time one partition holds.
type Period int

// The periods of a PartitionSpec. A week starts on Monday (ISO 8601).
const (
	Day   Period = Period(pgsql.Day)
	Week  Period = Period(pgsql.Week)
	Month Period = Period(pgsql.Month)
)

// String names the period: "day", "week" or "month".
func (p Period) String() string { return pgsql.Period(p).String() }

// ErrPartitions is wrapped by the error of PartitionsSQL and Partitions
// for a spec they do not take.
var ErrPartitions = pgsql.ErrPartitions

// PartitionSpec says which range partitions a table partitioned by its ID
// gets. The table must exist, partitioned BY RANGE on one column of the
// ID's type: for KSUIDs and ObjectIDs the ksuid or objectid type (the
// extension's or the domain) or text COLLATE "C", for UUIDv7s uuid.
//
//	CREATE TABLE events (id ksuid NOT NULL DEFAULT ksuid_generate(), body jsonb)
//		PARTITION BY RANGE (id);
//
// A period's partition runs from the smallest ID of its first instant
// (midnight in Location) to the smallest ID of the next period's, as
// FROM … TO … means: the partitions neither overlap nor leave a gap, and
// an ID belongs to the partition of the period it was made in. Each is
// named after the table and its period: events_p20261201 (Day),
// events_p2026w49 (Week), events_p202612 (Month), events_default.
type PartitionSpec struct {
	Table  string // the partitioned table, "events" or "app.events"
	IDType string // "ksuid", "objectid" or "uuidv7"
	Period Period // Day, Week or Month

	// Location is where periods start at midnight; nil is UTC.
	Location *time.Location

	// Back and Ahead are how many periods before and after the current
	// one get a partition; the current one always does.
	Back, Ahead int

	// Default adds a DEFAULT partition, which takes the rows whose ID
	// falls in no period. Without it such a row's insert fails.
	Default bool

	// Retain, above 0, detaches and drops the partitions that end at or
	// before the start of the period Retain periods before the current
	// one: with Day and Retain 30, today and the 30 days before it are
	// kept. The DEFAULT partition is never dropped.
	Retain int
}

// PartitionsSQL returns the SQL that brings spec's table to spec as of
// now, the text `sortid sql partitions` prints, for psql -v
// ON_ERROR_STOP=1. Its first statement creates the missing partitions of
// the periods from Back before now's to Ahead after it, and the DEFAULT
// partition if asked; with Retain, a second statement then detaches and
// drops the old ones. Each statement is a transaction of its own, so
// that a partition retention cannot drop (a foreign table, one locked
// for over 5 s) fails the run, loudly, after the new partitions are made,
// and drops nothing. It is idempotent: run again, it creates only what
// is missing. A table that is not partitioned by range on one column of
// the ID's type, or a table of a partition's name that is not a partition
// of it, is an error, and nothing is changed.
func PartitionsSQL(spec PartitionSpec, now time.Time) (string, error) {
	s, err := pgsql.PartitionsSQL(spec.internal(), now)
	if err != nil {
		return "", fmt.Errorf("sqltype: %w", err)
	}
	return s, nil
}

// Partitions runs the statements of PartitionsSQL(spec, now) on db, each
// as its own transaction, and stops at the first that fails. Run it from
// a daily job (time.Now()), with Ahead of a few periods, so that the
// partitions of the next periods exist before their rows come, and treat
// its error as the job's failure.
func Partitions(ctx context.Context, db Execer, spec PartitionSpec, now time.Time) error {
	stmts, err := pgsql.PartitionStatements(spec.internal(), now)
	if err != nil {
		return fmt.Errorf("sqltype: %w", err)
	}
	for i, st := range stmts {
		if _, err := db.Exec(ctx, st); err != nil {
			step := "creating the partitions"
			if i > 0 {
				step = "retention (the new partitions were made)"
			}
			return fmt.Errorf("sqltype: partitions of %s: %s: %w", spec.Table, step, err)
		}
	}
	return nil
}

func (spec PartitionSpec) internal() pgsql.PartitionSpec {
	return pgsql.PartitionSpec{
		Table: spec.Table, IDType: spec.IDType, Period: pgsql.Period(spec.Period), Location: spec.Location,
		Back: spec.Back, Ahead: spec.Ahead, Default: spec.Default, Retain: spec.Retain,
	}
}
