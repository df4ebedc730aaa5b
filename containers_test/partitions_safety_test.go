package containers

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// TestPartitionRetentionSessionSettings: retention drops exactly the
// partitions past the cutoff, whatever the session's bytea_output,
// standard_conforming_strings, DateStyle, TimeZone and search_path (set
// for the role, as a database's or role's defaults are). Before, with
// bytea_output = 'escape' it silently dropped nothing.
func TestPartitionRetentionSessionSettings(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	for _, settings := range []string{
		"bytea_output = 'escape'",
		"standard_conforming_strings = off",
		"DateStyle = 'SQL, DMY'",
		"TimeZone = 'Pacific/Kiritimati'",
		"search_path = pg_catalog, public",
	} {
		for _, kind := range partitionKinds {
			t.Run(settings+"/"+kind.idType, func(t *testing.T) {
				table := partitionedTable(t, ctx, kind.column)
				spec := sqltype.PartitionSpec{Table: "public." + table, IDType: kind.idType, Period: sqltype.Day, Back: 10, Ahead: 1}
				if err := sqltype.Partitions(ctx, servers.pg, spec, partitionNow); err != nil {
					t.Fatal(err)
				}
				conn := connWith(t, ctx, settings)
				spec.Retain = 4
				if err := sqltype.Partitions(ctx, conn, spec, partitionNow); err != nil {
					t.Fatalf("retention under %s: %v", settings, err)
				}
				// Kept: the 4 days before 2026-12-02, the day, and the one ahead.
				if n := len(partitionBounds(t, ctx, table)); n != 6 {
					t.Errorf("under %s: %d partitions left, want 6: %v", settings, n, partitionBounds(t, ctx, table))
				}
			})
		}
	}
}

// connWith is a connection to the test database with a session setting.
func connWith(t *testing.T, ctx context.Context, setting string) *pgx.Conn {
	t.Helper()
	cfg := servers.pgConfig.ConnConfig.Copy()
	name, value, _ := strings.Cut(setting, " = ")
	cfg.RuntimeParams[strings.ToLower(name)] = strings.Trim(value, "'")
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	var got string
	if err := conn.QueryRow(ctx, "SELECT current_setting($1)", name).Scan(&got); err != nil || !strings.EqualFold(got, strings.Trim(value, "'")) {
		t.Fatalf("%s is %q (%v)", name, got, err)
	}
	return conn
}

// TestPartitionRetentionForeignTable: a foreign-table partition past the
// cutoff cannot be dropped; the run fails, naming it, but the new
// partitions are made first, so inserts go on. Before, the whole run
// rolled back every day.
func TestPartitionRetentionForeignTable(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	table := partitionedTable(t, ctx, "ksuid NOT NULL DEFAULT ksuid_generate()")
	spec := sqltype.PartitionSpec{Table: table, IDType: "ksuid", Period: sqltype.Day, Back: 0, Ahead: 0}
	if err := sqltype.Partitions(ctx, servers.pg, spec, partitionNow.AddDate(0, 0, -10)); err != nil {
		t.Fatal(err)
	}
	old := table + "_p" + partitionNow.AddDate(0, 0, -10).Format("20060102")
	_, err := servers.pg.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS postgres_fdw;
		DO $$ BEGIN CREATE SERVER sortid_elsewhere FOREIGN DATA WRAPPER postgres_fdw; EXCEPTION WHEN duplicate_object THEN NULL; END $$;
		ALTER TABLE `+table+` DETACH PARTITION `+old+`;
		DROP TABLE `+old+`;
		CREATE FOREIGN TABLE `+old+` PARTITION OF `+table+` FOR VALUES FROM (ksuid_min_at('`+partitionNow.AddDate(0, 0, -10).Format("2006-01-02")+`'))
			TO (ksuid_min_at('`+partitionNow.AddDate(0, 0, -9).Format("2006-01-02")+`')) SERVER sortid_elsewhere`)
	if err != nil {
		t.Fatal(err)
	}
	spec.Ahead, spec.Retain = 2, 3
	err = sqltype.Partitions(ctx, servers.pg, spec, partitionNow)
	if err == nil || !strings.Contains(err.Error(), old) || !strings.Contains(err.Error(), "DETACH PARTITION") {
		t.Fatalf("retention over a foreign table: %v; want an error naming %s and the fix", err, old)
	}
	bounds := partitionBounds(t, ctx, table)
	for i := 0; i <= 2; i++ {
		name := table + "_p" + partitionNow.AddDate(0, 0, i).Format("20060102")
		if _, ok := bounds[name]; !ok {
			t.Errorf("%s was not made: %v", name, bounds)
		}
	}
	if _, ok := bounds[old]; !ok {
		t.Errorf("the foreign partition %s is gone", old)
	}
	// psql sees it too, with ON_ERROR_STOP: exit 3.
	out, err := exec.CommandContext(ctx, "go", "run", "github.com/sortid/sortid/cmd/sortid", "sql", "partitions",
		"--ahead", "2", "--retain", "3", "--now", partitionNow.Format(time.RFC3339), table).Output()
	if err != nil {
		t.Fatal(err)
	}
	c := servers.pgConfig.ConnConfig
	cmd := exec.CommandContext(ctx, "psql", "-q", "-v", "ON_ERROR_STOP=1",
		fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, c.Database))
	cmd.Stdin = strings.NewReader(string(out))
	msg, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 3 || !strings.Contains(string(msg), old) {
		t.Errorf("psql: %v, %q; want exit 3 and the partition named", err, msg)
	}
}

// TestPartitionDailyJobInZones is a daily job of 75 days in each zone
// whose midnights go missing (and a few more), run at 03:00 local time,
// with a row inserted at every hour: every run succeeds, every insert
// finds its partition, and retention never drops a row made at or after
// the cutoff. Before, in Cairo 34 of 75 runs and 747 of 1,800 inserts
// failed.
func TestPartitionDailyJobInZones(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	for _, zone := range []string{"Africa/Cairo", "Asia/Beirut", "America/Havana", "America/Santiago", "Atlantic/Azores",
		"America/Asuncion", "UTC", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"} {
		t.Run(zone, func(t *testing.T) {
			loc, err := time.LoadLocation(zone)
			if err != nil {
				t.Fatal(err)
			}
			table := partitionedTable(t, ctx, "uuid NOT NULL")
			spec := sqltype.PartitionSpec{Table: table, IDType: "uuidv7", Period: sqltype.Day, Location: loc, Back: 30, Ahead: 3, Retain: 30}
			// From 2026-03-01, past the spring changes of every zone.
			day := time.Date(2026, 3, 1, 3, 0, 0, 0, loc)
			var made []time.Time // the times of the rows inserted
			failedRuns, failedInserts := 0, 0
			for range 75 {
				if err := sqltype.Partitions(ctx, servers.pg, spec, day); err != nil {
					failedRuns++
					t.Logf("run of %v: %v", day, err)
				}
				rows := make([][]any, 24)
				for h := range rows {
					at := day.Add(time.Duration(h) * time.Hour)
					rows[h] = []any{must(uuidv7.NewAt(at))}
					made = append(made, at)
				}
				if _, err := servers.pg.CopyFrom(ctx, pgx.Identifier{table}, []string{"id"}, pgx.CopyFromRows(rows)); err != nil {
					failedInserts += len(rows)
					t.Logf("inserts of %v: %v", day, err)
				}
				// The next run at 03:00 local, whatever the clock did.
				y, m, d := day.Date()
				day = time.Date(y, m, d+1, 3, 0, 0, 0, loc)
			}
			// The cutoff of the last run: every row made at or after it
			// must still be there.
			// The cutoff of the last run: midnight 30 days before its
			// day (no zone here skips a midnight in mid-April).
			y, m, d := day.AddDate(0, 0, -1).Date()
			cutoff := time.Date(y, m, d-30, 0, 0, 0, 0, loc)
			if cutoff.Hour() != 0 {
				t.Fatalf("%v is no midnight", cutoff)
			}
			kept := 0
			for _, at := range made {
				if !at.Before(cutoff) {
					kept++
				}
			}
			var n int
			if err := servers.pg.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id >= $1", must(uuidv7.MinAt(cutoff))).Scan(&n); err != nil {
				t.Fatal(err)
			}
			if failedRuns != 0 || failedInserts != 0 || n != kept {
				t.Errorf("%d failed runs, %d failed inserts, %d of %d rows younger than the cutoff %v kept", failedRuns, failedInserts, n, kept, cutoff)
			}
		})
	}
}

// TestPartitionRetentionLocked: a partition past the cutoff that a long
// transaction reads (as a report would) is not waited for: retention
// fails within its 5 s lock timeout, naming nothing dropped, after the
// new partitions are made; once the reader ends, the next run drops it.
func TestPartitionRetentionLocked(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	table := partitionedTable(t, ctx, "ksuid NOT NULL DEFAULT ksuid_generate()")
	spec := sqltype.PartitionSpec{Table: table, IDType: "ksuid", Period: sqltype.Day, Back: 10, Ahead: 0}
	if err := sqltype.Partitions(ctx, servers.pg, spec, partitionNow); err != nil {
		t.Fatal(err)
	}
	old := table + "_p" + partitionNow.AddDate(0, 0, -10).Format("20060102")
	reader, err := servers.pg.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := reader.Exec(ctx, "SELECT count(*) FROM "+old); err != nil {
		t.Fatal(err)
	}
	spec.Ahead, spec.Retain = 2, 3
	start := time.Now()
	err = sqltype.Partitions(ctx, servers.pg, spec, partitionNow)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "lock timeout") || took > 30*time.Second {
		t.Errorf("retention under a reader's lock: %v after %v; want the lock timeout", err, took)
	}
	bounds := partitionBounds(t, ctx, table)
	if _, ok := bounds[table+"_p"+partitionNow.AddDate(0, 0, 2).Format("20060102")]; !ok {
		t.Errorf("the partitions ahead were not made: %v", bounds)
	}
	if n := len(bounds); n != 13 {
		t.Errorf("%d partitions after the failed retention; want all 11 old and new, and 2 ahead: none dropped", n)
	}
	reader.Rollback(ctx)
	if err := sqltype.Partitions(ctx, servers.pg, spec, partitionNow); err != nil {
		t.Fatalf("the run after the reader: %v", err)
	}
	if n := len(partitionBounds(t, ctx, table)); n != 6 {
		t.Errorf("%d partitions after retention, want the 3 days kept, today and 2 ahead", n)
	}
}
