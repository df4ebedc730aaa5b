package containers

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// partmanKey is an ID type as pg_partman takes it: a text column under
// "C" with the ID's grammar as a CHECK (pg_partman refuses the
// extension's types and the domains), or uuid; and the pair of functions
// sortid installs for it.
type partmanKey struct {
	idType    string
	column    string // the id column's definition
	generator string // a SQL default for the column, "" if there is none
	idAt      func(time.Time) any
	minAt     func(time.Time) string
}

var partmanKeys = []partmanKey{
	{
		idType:    "ksuid",
		column:    `id text COLLATE "C" NOT NULL CHECK (octet_length(id) = 27 AND id !~ '[^0-9A-Za-z]' AND id <= 'aWgEPTl1tmebfsQzFP4bxwgy80V')`,
		generator: "ksuid_generate()",
		idAt:      func(t time.Time) any { return must(ksuid.NewAt(t)) },
		minAt:     func(t time.Time) string { return must(ksuid.MinAt(t)).String() },
	},
	{
		idType: "objectid",
		column: `id text COLLATE "C" NOT NULL CHECK (octet_length(id) = 24 AND id !~ '[^0-9a-f]')`,
		idAt:   func(t time.Time) any { return must(objectid.NewAt(t)) },
		minAt:  func(t time.Time) string { return must(objectid.MinAt(t)).String() },
	},
	{
		idType:    "uuidv7",
		column:    "id uuid NOT NULL",
		generator: "uuidv7_generate()",
		idAt:      func(t time.Time) any { return must(uuidv7.NewAt(t)) },
		minAt:     func(t time.Time) string { return must(uuidv7.MinAt(t)).String() },
	},
}

// installedDatabase makes a database of t's own on ext's server, runs
// setup in it, and installs sortid: the extension, or `sortid sql`'s
// domains (install "extension" or "domains").
func installedDatabase(t *testing.T, ctx context.Context, ext *extServer, install string, setup ...string) *pgxpool.Pool {
	t.Helper()
	pool, _ := toExtensionDatabase(t, ctx, ext)
	if install == "extension" {
		setup = append(setup, "CREATE EXTENSION sortid")
	}
	for _, sql := range setup {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	if install == "domains" {
		if err := sqltype.Install(ctx, pool, ""); err != nil {
			t.Fatal(err)
		}
	}
	return pool
}

// partmanDatabase is an installedDatabase with pg_partman in the schema
// partman, its sessions in the time zone zone.
func partmanDatabase(t *testing.T, ctx context.Context, ext *extServer, install, zone string) *pgxpool.Pool {
	t.Helper()
	pool := installedDatabase(t, ctx, ext, install, "CREATE SCHEMA partman", "CREATE EXTENSION pg_partman SCHEMA partman")
	var db string
	if err := pool.QueryRow(ctx, "SELECT current_database()").Scan(&db); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "ALTER DATABASE "+db+" SET timezone = '"+zone+"'"); err != nil {
		t.Fatal(err)
	}
	pool.Reset() // new sessions, in the zone
	return pool
}

// TestPartmanByID has pg_partman manage tables keyed by each ID type, on
// PostgreSQL 18 (pg_partman 5.5) and 17 (5.2.4), with the extension and
// with the domains, in UTC and in a zone whose midnight is not UTC's:
// create_parent with daily partitions and sortid's encoder and decoder;
// every partition's bounds are the smallest IDs (Go's MinAt) of its day's
// midnight and the next; run_maintenance makes the partitions ahead; rows
// made in Go and by the SQL generator land in the partition of their
// day; a window reads only its partitions; retention drops the
// partitions wholly older than its cutoff and keeps every newer row; and
// `sortid sql partitions` refuses the table.
func TestPartmanByID(t *testing.T) {
	needServers(t)
	for _, ext := range []*extServer{servers.ext17, servers.ext18} {
		for _, v := range []struct{ install, zone string }{{"extension", "UTC"}, {"domains", "Asia/Kolkata"}} {
			t.Run(fmt.Sprintf("pg%d/%s", ext.major, v.install), func(t *testing.T) {
				t.Parallel()
				ctx := testContext(t)
				pool := partmanDatabase(t, ctx, ext, v.install, v.zone)
				zone := must(time.LoadLocation(v.zone))
				for _, key := range partmanKeys {
					t.Run(key.idType, func(t *testing.T) {
						testPartman(t, ctx, pool, key, zone)
					})
				}
				t.Run("refuses the ID types", func(t *testing.T) {
					testPartmanRefusesIDTypes(t, ctx, pool, v.install)
				})
			})
		}
	}
}

func testPartman(t *testing.T, ctx context.Context, pool *pgxpool.Pool, key partmanKey, zone *time.Location) {
	table := "events_" + key.idType
	column := key.column
	if key.generator != "" {
		column += " DEFAULT " + key.generator
	}
	if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" ("+column+", n int NOT NULL, PRIMARY KEY (id)) PARTITION BY RANGE (id)"); err != nil {
		t.Fatal(err)
	}
	var now time.Time
	if err := pool.QueryRow(ctx, "SELECT now()").Scan(&now); err != nil {
		t.Fatal(err)
	}
	now = now.In(zone)
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, zone)
	day := func(n int) time.Time { return today.AddDate(0, 0, n) }
	if _, err := pool.Exec(ctx, `SELECT partman.create_parent(p_parent_table := $1, p_control := 'id', p_interval := '1 day',
		p_premake := 2, p_start_partition := $2, p_time_encoder := $3, p_time_decoder := $4)`,
		"public."+table, day(-4).Format("2006-01-02 15:04:05"), "public."+key.idType+"_time_encoder", "public."+key.idType+"_time_decoder"); err != nil {
		t.Fatalf("create_parent: %v", err)
	}
	// Two more days ahead, made by maintenance.
	if _, err := pool.Exec(ctx, "UPDATE partman.part_config SET premake = 4, infinite_time_partitions = true WHERE parent_table = $1", "public."+table); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "SELECT partman.run_maintenance($1)", "public."+table); err != nil {
		t.Fatalf("run_maintenance: %v", err)
	}
	name := func(d time.Time) string { return table + "_p" + d.Format("20060102") }
	// Maintenance makes premake partitions beyond today's (or one more):
	// the days from 4 before today to at least 4 after, each from the
	// smallest ID of its midnight to the next one's.
	bounds := partitionsOf(t, ctx, pool, table)
	want := []string{table + "_default DEFAULT"}
	for n := -4; len(want) < len(bounds) || n <= 4; n++ {
		want = append(want, fmt.Sprintf("%s FOR VALUES FROM ('%s') TO ('%s')", name(day(n)), key.minAt(day(n)), key.minAt(day(n+1))))
	}
	slices.Sort(want)
	if !slices.Equal(bounds, want) {
		t.Fatalf("partitions after create_parent and run_maintenance:\n%s\nwant the days from 4 before today to 4 or more after, each from the smallest ID of its midnight in %s:\n%s",
			strings.Join(bounds, "\n"), zone, strings.Join(want, "\n"))
	}

	// Rows made in Go at the first and last second of each day and at its
	// noon, typed; each lands in its day's partition.
	type row struct {
		at time.Time
		id any
	}
	var rows []row
	for n := -4; n <= 4; n++ {
		for _, at := range []time.Time{day(n), day(n).Add(12 * time.Hour), day(n + 1).Add(-time.Second)} {
			rows = append(rows, row{at, key.idAt(at)})
		}
	}
	for i, r := range rows {
		var part string
		if err := pool.QueryRow(ctx, "INSERT INTO "+table+" (id, n) VALUES ($1, $2) RETURNING tableoid::regclass::text", r.id, i).Scan(&part); err != nil {
			t.Fatalf("insert %v (%s): %v", r.id, r.at, err)
		}
		if want := name(r.at); part != want {
			t.Errorf("%v, made at %s, is in %s, want %s", r.id, r.at, part, want)
		}
	}
	if key.generator != "" {
		var part string
		var at time.Time
		if err := pool.QueryRow(ctx, "INSERT INTO "+table+" (n) VALUES (-1) RETURNING tableoid::regclass::text, "+key.idType+"_time_decoder(id::text)").Scan(&part, &at); err != nil {
			t.Fatalf("insert with DEFAULT %s: %v", key.generator, err)
		}
		if want := name(at.In(zone)); part != want || at.Before(now.Add(-time.Minute)) || at.After(now.Add(time.Minute)) {
			t.Errorf("DEFAULT %s made an ID of %s in %s, want one of now (%s) in %s", key.generator, at, part, now, want)
		}
	}
	var inDefault int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table+"_default").Scan(&inDefault); err != nil || inDefault != 0 {
		t.Errorf("the default partition holds %d rows (%v), want none", inDefault, err)
	}

	// A window from noon of yesterday to noon of today reads two
	// partitions, with constants and with a generic plan's parameters.
	lo, hi := key.minAt(day(-1).Add(12*time.Hour)), key.minAt(day(0).Add(12*time.Hour))
	var plan []byte
	if err := pool.QueryRow(ctx, fmt.Sprintf("EXPLAIN (FORMAT JSON) SELECT * FROM %s WHERE id >= '%s' AND id < '%s'", table, lo, hi)).Scan(&plan); err != nil {
		t.Fatal(err)
	}
	if got, _ := explainedPartitions(plan); !slices.Equal(got, []string{name(day(-1)), name(day(0))}) {
		t.Errorf("a window from noon to noon reads %v, want %s and %s", got, name(day(-1)), name(day(0)))
	}
	var count int
	// (n >= 0: the generated row, of now, falls in the window before noon.)
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id >= $1 AND id < $2 AND n >= 0", lo, hi).Scan(&count); err != nil || count != 3 {
		t.Errorf("the window counts %d of the rows made in Go (%v), want 3 (yesterday's noon and last second, today's midnight)", count, err)
	}

	// `sortid sql partitions` refuses a table pg_partman manages, and
	// changes nothing.
	err := sqltype.Partitions(ctx, pool, sqltype.PartitionSpec{Table: table, IDType: key.idType, Period: sqltype.Day, Back: 10, Ahead: 10, Retain: 1, Location: zone}, now)
	if err == nil || !strings.Contains(err.Error(), "managed by pg_partman") {
		t.Errorf("sortid sql partitions on pg_partman's table: %v, want an error saying pg_partman manages it", err)
	}
	if after := partitionsOf(t, ctx, pool, table); !slices.Equal(after, bounds) {
		t.Errorf("sortid sql partitions changed pg_partman's partitions:\n%s", strings.Join(after, "\n"))
	}

	// Retention of 3 days drops the partitions that end before now minus
	// 3 days, and keeps every row made since.
	if _, err := pool.Exec(ctx, "UPDATE partman.part_config SET retention = '3 days', retention_keep_table = false WHERE parent_table = $1", "public."+table); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "SELECT partman.run_maintenance($1)", "public."+table); err != nil {
		t.Fatalf("run_maintenance with retention: %v", err)
	}
	cutoff := now.Add(-72 * time.Hour)
	for i, r := range rows {
		var n int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id = $1", r.id).Scan(&n); err != nil {
			t.Fatal(err)
		}
		partEnd := time.Date(r.at.Year(), r.at.Month(), r.at.Day()+1, 0, 0, 0, 0, zone)
		switch {
		case !r.at.Before(cutoff) && n != 1:
			t.Errorf("row %d, made at %s, after the cutoff %s, is gone", i, r.at, cutoff)
		case partEnd.Before(cutoff) && n != 0:
			t.Errorf("row %d, made at %s, in a partition wholly before the cutoff %s, is kept", i, r.at, cutoff)
		}
	}
	// The oldest day ends before the cutoff and goes; the next ends after
	// it and stays.
	after := strings.Join(partitionsOf(t, ctx, pool, table), "\n")
	if strings.Contains(after, name(day(-4))+" ") || !strings.Contains(after, name(day(-3))+" ") {
		t.Errorf("after retention with the cutoff %s:\n%s\nwant %s dropped and %s kept", cutoff, after, name(day(-4)), name(day(-3)))
	}
}

// testPartmanRefusesIDTypes records that pg_partman refuses a column of
// the extension's ksuid type and of the ksuid domain, which is why the
// tables above key by text.
func testPartmanRefusesIDTypes(t *testing.T, ctx context.Context, pool *pgxpool.Pool, install string) {
	if _, err := pool.Exec(ctx, "CREATE TABLE typed_events (id ksuid NOT NULL, PRIMARY KEY (id)) PARTITION BY RANGE (id)"); err != nil {
		t.Fatal(err)
	}
	_, err := pool.Exec(ctx, `SELECT partman.create_parent(p_parent_table := 'public.typed_events', p_control := 'id', p_interval := '1 day',
		p_time_encoder := 'public.ksuid_time_encoder', p_time_decoder := 'public.ksuid_time_decoder')`)
	if err == nil || !strings.Contains(err.Error(), "Supplied column is of type ksuid") {
		t.Errorf("create_parent on a column of the %s's ksuid: %v, want pg_partman's refusal of the type", install, err)
	}
}

// partitionsOf lists the partitions of table, each as its name and its
// bound as PostgreSQL prints it, sorted.
func partitionsOf(t *testing.T, ctx context.Context, pool *pgxpool.Pool, table string) []string {
	t.Helper()
	rows, err := pool.Query(ctx, `SELECT c.relname || ' ' || pg_get_expr(c.relpartbound, c.oid)
		FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`, table)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return out
}
