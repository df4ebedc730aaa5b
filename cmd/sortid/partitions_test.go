package main

import (
	"strings"
	"testing"
)

func TestSQLPartitions(t *testing.T) {
	out, errOut, code := sortid(t, "", "sql", "partitions", "-t", "objectid", "--period", "week", "--back", "1", "--ahead", "1",
		"--default", "--retain", "4", "--now", "2026-12-02", "app.events")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The weeks of 2026-11-23, -30 and 2026-12-07 (Mondays), whose first
	// ObjectIDs are their Unix seconds (0x6b038200, ...) and 8 zero bytes;
	// the retention cutoff is four weeks before 2026-11-30, 2026-11-02.
	for _, want := range []string{
		`'"app"."events"'::pg_catalog.regclass`,
		`('events_p2026w48', '6b0382000000000000000000', '6b0cbc800000000000000000')`,
		`('events_p2026w49', '6b0cbc800000000000000000', '6b15f7000000000000000000')`,
		`('events_p2026w50', '6b15f7000000000000000000', '6b1f31800000000000000000')`,
		`'events_default'`,
		`cutoff constant pg_catalog.text COLLATE "C" := '6ae7d2800000000000000000'`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the SQL lacks %q:\n%s", want, out)
		}
	}
	// Two transactions, each statement its own: no BEGIN that would make
	// a failed retention undo the new partitions.
	if strings.Contains(out, "BEGIN;") || strings.Count(out, "END $sortid$;") != 2 {
		t.Errorf("want two DO statements and no BEGIN:\n%s", out)
	}
	for _, args := range [][]string{
		{"sql", "partitions"},
		{"sql", "partitions", "a", "b"},
		{"sql", "partitions", "--period", "year", "events"},
		{"sql", "partitions", "-t", "ulid", "events"},
		{"sql", "partitions", "--tz", "Mars/Olympus", "events"},
		{"sql", "partitions", "--back", "-1", "events"},
		{"sql", "partitions", "--retain", "9223372036854775807", "events"},
	} {
		if _, errOut, code := sortid(t, "", args...); code != exitUsage || errOut == "" {
			t.Errorf("%v: exit %d, %q; want a usage error", args, code, errOut)
		}
	}
}
