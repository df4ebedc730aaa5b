package containers

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// hypertableKey is an ID type as a TimescaleDB hypertable's key: its
// column, and the IDs of a time as bytes (which order as the IDs do) and
// as what pgx sends.
type hypertableKey struct {
	idType     string
	column     string // type and default
	partFunc   string // create_hypertable's partition_func, "" for none
	timeOf     string // the SQL function that gives an ID's time
	min, max   func(time.Time) any
	newAt      func(time.Time) any
	bytesOf    func(any) []byte
	resolution time.Duration
}

func hypertableKeys() []hypertableKey {
	ks := hypertableKey{
		idType: "ksuid", column: "ksuid NOT NULL DEFAULT ksuid_generate()", partFunc: "public.ksuid_hypertable_time", timeOf: "ksuid_time",
		min:     func(t time.Time) any { return must(ksuid.MinAt(t)) },
		max:     func(t time.Time) any { return must(ksuid.MaxAt(t)) },
		newAt:   func(t time.Time) any { return must(ksuid.NewAt(t)) },
		bytesOf: func(v any) []byte { id := v.(ksuid.KSUID); return id[:] },
		// One second.
		resolution: time.Second,
	}
	uu := hypertableKey{
		idType: "uuidv7", column: "uuid NOT NULL DEFAULT uuidv7_generate()", partFunc: "public.uuidv7_hypertable_time", timeOf: "uuidv7_time",
		min:        func(t time.Time) any { return must(uuidv7.MinAt(t)) },
		max:        func(t time.Time) any { return must(uuidv7.MaxAt(t)) },
		newAt:      func(t time.Time) any { return must(uuidv7.NewAt(t)) },
		bytesOf:    func(v any) []byte { id := v.(uuidv7.UUID); return id[:] },
		resolution: time.Millisecond,
	}
	return []hypertableKey{ks, uu}
}

// TestTimescaleHypertables keys TimescaleDB 2.31 hypertables by a KSUID
// and by a UUIDv7 with sortid's partitioning functions, with the
// extension and with the domains, on PostgreSQL 18: one chunk a day,
// bounded by midnight UTC; a window reads only its chunks; every
// comparison (<, <=, =, >=, >) of the key with each ID finds the rows
// Go's order says, also where the ID is in a chunk's first second or
// millisecond; drop_chunks by age keeps every newer row; and `sortid sql
// partitions` refuses the hypertable. Also: TimescaleDB's own
// partitioning of a uuid column gets id < X wrong there (the reason for
// uuidv7_hypertable_time).
func TestTimescaleHypertables(t *testing.T) {
	needServers(t)
	for _, install := range []string{"extension", "domains"} {
		t.Run(install, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			pool := installedDatabase(t, ctx, servers.ext18, install, "CREATE EXTENSION timescaledb")
			for _, key := range hypertableKeys() {
				t.Run(key.idType, func(t *testing.T) {
					testHypertable(t, ctx, pool, key, install)
				})
			}
			if install != "extension" {
				return
			}
			// The counter-cases: partitioned by the ID's time alone, the
			// same for every ID of its second or millisecond.
			for _, c := range []struct{ name, partFunc string }{
				{"ksuid by ksuid_time", "public.ksuid_time"},
				{"uuidv7 by timescaledb's own uuid partitioning", ""},
			} {
				t.Run(c.name, func(t *testing.T) {
					key := hypertableKeys()[0]
					if strings.HasPrefix(c.name, "uuidv7") {
						key = hypertableKeys()[1]
					}
					key.partFunc = c.partFunc
					table, ids := loadHypertable(t, ctx, pool, key, "plain")
					if wrong := compareEverywhere(t, ctx, pool, table, key, ids); len(wrong) == 0 {
						t.Errorf("%s now answers every comparison right: say so in docs/partitioning.md", c.name)
					} else {
						t.Logf("%s, wrong as docs/partitioning.md says: %s", c.name, strings.Join(wrong, "; "))
					}
				})
			}
		})
	}
}

// loadHypertable makes a hypertable of key, daily chunks, and fills it
// with the smallest, a random and the largest ID of each of the last 5
// days' first second or millisecond, and of its last; it returns the
// table's name and the IDs in Go's order.
func loadHypertable(t *testing.T, ctx context.Context, pool *pgxpool.Pool, key hypertableKey, name string) (string, []any) {
	t.Helper()
	table := "metrics_" + key.idType + "_" + name
	if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id "+key.column+", n int, PRIMARY KEY (id))"); err != nil {
		t.Fatal(err)
	}
	dim := "by_range('id', INTERVAL '1 day')"
	if key.partFunc != "" {
		dim = "by_range('id', INTERVAL '1 day', partition_func => '" + key.partFunc + "')"
	}
	if _, err := pool.Exec(ctx, "SELECT create_hypertable('"+table+"', "+dim+")"); err != nil {
		t.Fatalf("create_hypertable: %v", err)
	}
	today := time.Now().UTC().Truncate(24 * time.Hour)
	var ids []any
	for n := -4; n <= 0; n++ {
		first, last := today.AddDate(0, 0, n), today.AddDate(0, 0, n+1).Add(-key.resolution)
		ids = append(ids, key.min(first), key.newAt(first), key.max(first), key.min(last), key.max(last))
	}
	for i, id := range ids {
		if _, err := pool.Exec(ctx, "INSERT INTO "+table+" (id, n) VALUES ($1, $2)", id, i); err != nil {
			t.Fatal(err)
		}
	}
	slices.SortFunc(ids, func(a, b any) int { return bytes.Compare(key.bytesOf(a), key.bytesOf(b)) })
	return table, ids
}

// compareEverywhere counts the rows each comparison of the key with each
// stored ID finds, against Go's order, and returns what differs.
func compareEverywhere(t *testing.T, ctx context.Context, pool *pgxpool.Pool, table string, key hypertableKey, ids []any) (wrong []string) {
	t.Helper()
	for i, x := range ids {
		want := map[string]int{"<": i, "<=": i + 1, "=": 1, ">=": len(ids) - i, ">": len(ids) - i - 1}
		for _, op := range []string{"<", "<=", "=", ">=", ">"} {
			// A literal, so that TimescaleDB excludes chunks as it plans.
			var got int
			if err := pool.QueryRow(ctx, fmt.Sprintf("SELECT count(*) FROM %s WHERE id %s '%v'", table, op, x)).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != want[op] {
				wrong = append(wrong, fmt.Sprintf("id %s '%v': %d rows, want %d", op, x, got, want[op]))
			}
		}
	}
	return wrong
}

func testHypertable(t *testing.T, ctx context.Context, pool *pgxpool.Pool, key hypertableKey, install string) {
	table, ids := loadHypertable(t, ctx, pool, key, "sortid")
	today := time.Now().UTC().Truncate(24 * time.Hour)

	// One chunk a day, from midnight UTC to the next, each row in the
	// chunk of its day.
	var misplaced int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM `+table+` m JOIN timescaledb_information.chunks c
		ON format('%I.%I', c.chunk_schema, c.chunk_name)::regclass = m.tableoid
		WHERE NOT (`+key.timeOf+`(m.id) >= c.range_start AND `+key.timeOf+`(m.id) < c.range_end)
			OR c.range_start <> date_trunc('day', c.range_start, 'UTC') OR c.range_end <> c.range_start + interval '1 day'`).Scan(&misplaced); err != nil {
		t.Fatal(err)
	}
	var chunks int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM show_chunks($1)", table).Scan(&chunks); err != nil {
		t.Fatal(err)
	}
	if misplaced != 0 || chunks != 5 {
		t.Errorf("%d chunks, %d rows outside their day's chunk; want 5 daily chunks from midnight UTC", chunks, misplaced)
	}

	// A day's window, from its smallest ID to the next day's, finds the
	// day's 5 rows and reads one chunk; with the domain, TimescaleDB sees
	// a comparison of text, not of the key, and reads every chunk (still
	// finding the 5 rows), unless the window also bounds the
	// partitioning function's value.
	from, to := today.AddDate(0, 0, -2), today.AddDate(0, 0, -1)
	partFunc := strings.TrimPrefix(key.partFunc, "public.")
	windows := []struct {
		where  string
		chunks int
	}{
		{fmt.Sprintf("id >= '%v' AND id < '%v'", key.min(from), key.min(to)), 1},
		{fmt.Sprintf("%[1]s(id) >= '%[2]s' AND %[1]s(id) < '%[3]s'", partFunc, from.Format(time.RFC3339), to.Format(time.RFC3339)), 1},
	}
	if install == "domains" && key.idType == "ksuid" {
		windows[0].chunks = 5
	}
	for _, w := range windows {
		var plan []byte
		if err := pool.QueryRow(ctx, "EXPLAIN (FORMAT JSON) SELECT * FROM "+table+" WHERE "+w.where).Scan(&plan); err != nil {
			t.Fatal(err)
		}
		read, _ := explainedPartitions(plan)
		var count int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE "+w.where).Scan(&count); err != nil {
			t.Fatal(err)
		}
		if count != 5 || len(read) != w.chunks {
			t.Errorf("WHERE %s finds %d rows (want 5) and reads %d chunks %v (want %d)", w.where, count, len(read), read, w.chunks)
		}
	}

	// Each comparison with each ID, chunks excluded as planned.
	if wrong := compareEverywhere(t, ctx, pool, table, key, ids); len(wrong) > 0 {
		t.Errorf("comparisons that find the wrong rows:\n%s", strings.Join(wrong, "\n"))
	}

	// The generator's IDs land in today's chunk.
	var at time.Time
	if err := pool.QueryRow(ctx, "INSERT INTO "+table+" (n) VALUES (-1) RETURNING "+key.timeOf+"(id)").Scan(&at); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM show_chunks($1)", table).Scan(&chunks); err != nil || chunks != 5 {
		t.Errorf("after a row of now (%s): %d chunks (%v), want 5", at, chunks, err)
	}

	// sortid sql partitions refuses a hypertable.
	err := sqltype.Partitions(ctx, pool, sqltype.PartitionSpec{Table: table, IDType: key.idType, Period: sqltype.Day, Back: 1, Ahead: 1}, time.Now())
	if err == nil || !strings.Contains(err.Error(), "is not partitioned BY RANGE") {
		t.Errorf("sortid sql partitions on a hypertable: %v, want a refusal", err)
	}

	// drop_chunks older than 2 days and a half drops the chunks that end
	// before then, and keeps every row made since.
	cutoff := time.Now().Add(-60 * time.Hour)
	if _, err := pool.Exec(ctx, "SELECT drop_chunks($1, older_than => $2::timestamptz)", table, cutoff); err != nil {
		t.Fatal(err)
	}
	rows, err := pool.Query(ctx, "SELECT "+key.timeOf+"(id) FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := pgx.CollectRows(rows, pgx.RowTo[time.Time])
	if err != nil {
		t.Fatal(err)
	}
	var wantKept int
	for n := -4; n <= 0; n++ {
		if !today.AddDate(0, 0, n+1).Before(cutoff) {
			wantKept += 5
		}
	}
	if len(kept) != wantKept+1 {
		t.Errorf("after drop_chunks older than %s: %d rows, want %d (the days whose chunk ends after it, and the generated row)", cutoff, len(kept), wantKept+1)
	}
}
