package pgsql

import (
	"errors"
	"math"
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
	// 396,101,200 = 0x179c0650, and 16 zero bytes: in base62 (worked out
	// apart, in Python), 3MrGJOCcOYKVVxcbEeDVQ3af1MG.
	if r := ranges[0]; r.name != "events_p20261201" || r.lo != `'3MrGJOCcOYKVVxcbEeDVQ3af1MG'` {
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
		// "Keep forever" values that wrapped around to a cutoff after now.
		{Table: "events", IDType: "ksuid", Period: Day, Retain: math.MaxInt},        // 9223372036854775807 on 64 bits
		{Table: "events", IDType: "uuidv7", Period: Day, Retain: math.MaxInt/2 + 2}, // 4611686018427387905 on 64 bits
		{Table: "events", IDType: "uuidv7", Period: Month, Retain: maxRetain + 1},
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
	if !strings.Contains(sql, `cutoff constant pg_catalog.text COLLATE "C" := '6b0cbc800000000000000000'`) || !strings.Contains(sql, "hi > cutoff") {
		t.Errorf("the retention does not compare with the cutoff's lower bound:\n%s", sql)
	}
}

// Retention never moves the cutoff past now: the largest Retain taken
// keeps everything (its cutoff is before any ID of the type, so no
// retention statement is made), and every value in between cuts before
// the current period.
func TestPartitionRetentionRange(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, idType := range []string{"ksuid", "objectid", "uuidv7"} {
		for _, period := range []Period{Day, Week, Month} {
			for _, retain := range []int{1, 2, 30, 365, 4000, 30000, maxRetain} {
				spec := PartitionSpec{Table: "events", IDType: idType, Period: period, Retain: retain}
				stmts, err := PartitionStatements(spec, now)
				if err != nil {
					t.Fatalf("%s %v Retain %d: %v", idType, period, retain, err)
				}
				_, cutoff, _ := spec.plan(now)
				if !cutoff.start.Before(spec.periodOf(now).firstInstant(time.UTC)) {
					t.Errorf("%s %v Retain %d: cutoff %v is not before now's period", idType, period, retain, cutoff.start)
				}
				if (len(stmts) == 2) != (cutoff.lo != "") {
					t.Errorf("%s %v Retain %d: %d statements with cutoff %q", idType, period, retain, len(stmts), cutoff.lo)
				}
			}
		}
	}
}

// Partition names fit PostgreSQL's 63 bytes for every period, or the
// table is refused: table names of 53 to 63 bytes.
func TestPartitionNameLength(t *testing.T) {
	now := time.Date(2026, 12, 31, 12, 0, 0, 0, time.UTC)
	for n := 53; n <= 63; n++ {
		for _, period := range []Period{Day, Week, Month} {
			spec := PartitionSpec{Table: "app." + strings.Repeat("t", n), IDType: "ksuid", Period: period, Back: 20, Ahead: 20, Default: true}
			ranges, _, err := spec.plan(now)
			suffix := map[Period]int{Day: 9, Week: 8, Month: 7}[period]
			fits := n+1+max(suffix, len("default")) <= 63
			if fits != (err == nil) {
				t.Errorf("%d-byte table, %v: %v; want refused: %v", n, period, err, !fits)
				continue
			}
			for _, r := range ranges {
				if len(r.name) > 63 {
					t.Errorf("%d-byte table, %v: %s is %d bytes", n, period, r.name, len(r.name))
				}
			}
		}
	}
}

// zonesUnderTest have days whose midnight does not exist (Cairo, Beirut,
// Havana, Santiago, the Azores, Asuncion), odd offsets (Kathmandu,
// Lord Howe's half hour), New York, and UTC.
var zonesUnderTest = []string{"Africa/Cairo", "Asia/Beirut", "America/Havana", "America/Santiago", "Atlantic/Azores",
	"America/Asuncion", "UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"}

// A daily job run at every hour of two spans of 75 days (weeks 120,
// months 400) around each zone's changes of clock: each run's partitions are consecutive,
// with no gap or overlap; a period's partition is the same whichever day
// the job runs; every hour falls in exactly one partition, the one of
// its own period; and each period starts at the first instant of its
// date in the zone.
func TestPartitionZones(t *testing.T) {
	for _, name := range zonesUnderTest {
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatalf("%s: %v (Debian's tzdata is a dependency of the test machines)", name, err)
		}
		for _, tc := range []struct {
			period     Period
			days, back int
		}{{Day, 75, 3}, {Week, 120, 2}, {Month, 400, 1}} {
			spec := PartitionSpec{Table: "events", IDType: "uuidv7", Period: tc.period, Location: loc, Back: tc.back, Ahead: 3, Retain: 30}
			seen := map[string]partitionRange{}
			// From March 1st and September 1st: the windows hold each
			// zone's changes of clock in 2026 (Havana March 8th, Beirut
			// and the Azores March 29th, Santiago April 5th and
			// September 6th, Cairo April 24th and October 29th).
			for h := 0; h < 2*tc.days*24; h++ {
				begin := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
				if h >= tc.days*24 {
					begin = time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC).Add(-time.Duration(tc.days*24) * time.Hour)
				}
				now := begin.Add(time.Duration(h) * time.Hour)
				ranges, cutoff, err := spec.plan(now)
				if err != nil {
					t.Fatalf("%s %v at %v: %v", name, tc.period, now, err)
				}
				holding := 0
				for i, r := range ranges {
					if i > 0 && (!r.start.Equal(ranges[i-1].end) || r.lo != ranges[i-1].hi || r.name == ranges[i-1].name) {
						t.Fatalf("%s %v at %v: %s %v and %s %v are not consecutive", name, tc.period, now, ranges[i-1].name, ranges[i-1].end, r.name, r.start)
					}
					if old, ok := seen[r.name]; ok && (!old.start.Equal(r.start) || !old.end.Equal(r.end)) {
						t.Fatalf("%s %v: %s is %v to %v on one run and %v to %v on another", name, tc.period, r.name, old.start, old.end, r.start, r.end)
					}
					seen[r.name] = r
					if !now.Before(r.start) && now.Before(r.end) {
						holding++
						if spec.periodOf(now) != spec.periodDate(dateOf(r.start.In(loc))) {
							t.Fatalf("%s %v: %v lands in %s", name, tc.period, now, r.name)
						}
					}
					if prev := r.start.Add(-time.Second).In(loc); dateOf(prev) == dateOf(r.start.In(loc)) && r.start.In(loc).Second() == 0 {
						t.Fatalf("%s %v: %s starts at %v, but its date began before", name, tc.period, r.name, r.start.In(loc))
					}
				}
				if holding != 1 {
					t.Fatalf("%s %v: %v lies in %d partitions", name, tc.period, now, holding)
				}
				if !cutoff.start.Before(ranges[0].end) || cutoff.start.After(ranges[0].start) {
					t.Fatalf("%s %v at %v: cutoff %v, first partition %v to %v", name, tc.period, now, cutoff.start, ranges[0].start, ranges[0].end)
				}
			}
		}
	}
}

// The days whose midnight the zone skips start at the first instant
// after the gap, named by their own date: Cairo's summer time in 2026
// begins at midnight on Friday, April 24th.
func TestPartitionMissingMidnight(t *testing.T) {
	cairo, err := time.LoadLocation("Africa/Cairo")
	if err != nil {
		t.Fatal(err)
	}
	got := civilDate{2026, time.April, 24}.firstInstant(cairo)
	if want := time.Date(2026, 4, 23, 22, 0, 0, 0, time.UTC); !got.Equal(want) || got.In(cairo).Hour() != 1 {
		t.Errorf("the first instant of 2026-04-24 in Cairo: %v (%v), want %v, 01:00 local", got, got.UTC(), want)
	}
}
