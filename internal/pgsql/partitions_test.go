package pgsql

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// The periods and names, worked out by calendar: a week of 2026-12-02
// (a Wednesday) starts on Monday 2026-11-30, ISO week 49; 2027-01-01 is a
// Friday in ISO week 53 of 2026.
func TestPartitionPlan(t *testing.T) {
	now := time.Date(2026, 12, 2, 10, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		period Period
		back   int
		ahead  int
		names  []string
		first  time.Time
	}{
		{Day, 1, 1, []string{"events_p20261201", "events_p20261202", "events_p20261203"}, time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		{Week, 0, 5, []string{"events_p2026w49", "events_p2026w50", "events_p2026w51", "events_p2026w52", "events_p2026w53", "events_p2027w01"}, time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)},
		{Month, 11, 1, []string{"events_p202601", "events_p202602", "events_p202603", "events_p202604", "events_p202605", "events_p202606",
			"events_p202607", "events_p202608", "events_p202609", "events_p202610", "events_p202611", "events_p202612", "events_p202701"}, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		spec := PartitionSpec{Table: "app.events", IDType: "uuidv7", Period: tc.period, Back: tc.back, Ahead: tc.ahead}
		ranges, _, err := spec.plan(now)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for i, r := range ranges {
			names = append(names, r.name)
			if i > 0 && r.lo != ranges[i-1].hi {
				t.Errorf("%v: %s starts at %s, the one before ends at %s", tc.period, r.name, r.lo, ranges[i-1].hi)
			}
		}
		if strings.Join(names, " ") != strings.Join(tc.names, " ") || !ranges[0].start.Equal(tc.first) {
			t.Errorf("%v: partitions %v from %v, want %v from %v", tc.period, names, ranges[0].start, tc.names, tc.first)
		}
	}
}

// A period starts at midnight where the spec says: in New York, the day
// of 2026-12-02 03:00 UTC is December 1st, from 05:00 UTC.
func TestPartitionLocation(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone database:", err) // never on Debian, which has tzdata
	}
	spec := PartitionSpec{Table: "events", IDType: "ksuid", Period: Day, Location: ny}
	ranges, _, err := spec.plan(time.Date(2026, 12, 2, 3, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	// 2026-12-01 05:00 UTC is 1,796,101,200 Unix seconds: KSUID seconds
	// 396,101,200 = 0x179c0650.
	if r := ranges[0]; r.name != "events_p20261201" || r.lo != `'\x179c065000000000000000000000000000000000'` {
		t.Errorf("got %s from %s", r.name, r.lo)
	}
}

func TestPartitionSpecRefused(t *testing.T) {
	now := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	for _, spec := range []PartitionSpec{
		{IDType: "ksuid", Period: Day},
		{Table: "events", IDType: "ulid", Period: Day},
		{Table: "events", IDType: "ksuid"},
		{Table: "events", IDType: "ksuid", Period: Day, Back: -1},
		{Table: strings.Repeat("e", 60), IDType: "ksuid", Period: Day},
		{Table: "events", IDType: "objectid", Period: Day, Back: 100000},
		{Table: "events", IDType: "ksuid", Period: Month, Back: 200}, // before the KSUID epoch
	} {
		if _, err := PartitionsSQL(spec, now); !errors.Is(err, ErrPartitions) {
			t.Errorf("%+v: %v, want ErrPartitions", spec, err)
		}
	}
}

// Retention keeps Retain periods before the current one, and does not
// make the partitions it would drop.
func TestPartitionRetention(t *testing.T) {
	spec := PartitionSpec{Table: "events", IDType: "objectid", Period: Day, Back: 5, Ahead: 1, Retain: 2}
	ranges, cutoff, err := spec.plan(time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	if len(ranges) != 4 || ranges[0].name != "events_p20261130" || !cutoff.start.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) {
		t.Errorf("%d partitions from %s, cutoff %v", len(ranges), ranges[0].name, cutoff.start)
	}
	// 2026-11-30 is 1,795,996,800 Unix seconds: the ObjectID 0x6b0cbc80 and 8 zero bytes.
	sql, _ := PartitionsSQL(spec, time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC))
	if !strings.Contains(sql, `p.hi <= '\x6b0cbc800000000000000000'`) {
		t.Errorf("the retention does not compare with the cutoff's lower bound:\n%s", sql)
	}
}
