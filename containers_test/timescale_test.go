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

// hypertableKey is an ID type as the key of a TimescaleDB hypertable: its
// column, and the IDs of a time as bytes (which order as the IDs do).
type hypertableKey struct {
	idType     string
	column     string // type and default
	timeOf     string // the SQL function that gives an ID's time
	min, max   func(time.Time) any
	newAt      func(time.Time) any
	bytesOf    func(any) []byte
	resolution time.Duration
}

func hypertableKeys() []hypertableKey {
	ks := hypertableKey{
		idType: "ksuid", column: "ksuid NOT NULL DEFAULT ksuid_generate()", timeOf: "ksuid_time",
		min:        func(t time.Time) any { return must(ksuid.MinAt(t)) },
		max:        func(t time.Time) any { return must(ksuid.MaxAt(t)) },
		newAt:      func(t time.Time) any { return must(ksuid.NewAt(t)) },
		bytesOf:    func(v any) []byte { id := v.(ksuid.KSUID); return id[:] },
		resolution: time.Second,
	}
	uu := hypertableKey{
		idType: "uuidv7", column: "uuid NOT NULL DEFAULT uuidv7_generate()", timeOf: "uuidv7_time",
		min:        func(t time.Time) any { return must(uuidv7.MinAt(t)) },
		max:        func(t time.Time) any { return must(uuidv7.MaxAt(t)) },
		newAt:      func(t time.Time) any { return must(uuidv7.NewAt(t)) },
		bytesOf:    func(v any) []byte { id := v.(uuidv7.UUID); return id[:] },
		resolution: time.Millisecond,
	}
	return []hypertableKey{ks, uu}
}

// TestTimescaleHypertables keys TimescaleDB 2.31 hypertables by a KSUID
// and by a UUIDv7 as docs/partitioning.md shows, with the extension and
// with the domains, on PostgreSQL 18: the hypertable's dimension is a
// timestamptz column, the ID its key. Every comparison of the ID (each
// operator, BETWEEN, IN, NOT IN, = ANY, a join, ORDER BY id LIMIT, windows
// inside one second or millisecond) finds the rows Go's order says, in
// custom and generic plans; a day's window on the time column reads one
// chunk; drop_chunks keeps every newer row; `sortid sql partitions`
// refuses the hypertable.
//
// The counter-cases: a hypertable whose dimension is the ID itself (by
// the ID's time, or TimescaleDB's own uuid partitioning) answers some of
// the same comparisons wrong, which is why sortid ships no partitioning
// function for it. The test fails the day TimescaleDB answers them
// right, so that the docs follow.
func TestTimescaleHypertables(t *testing.T) {
	needServers(t)
	for _, install := range []string{"extension", "domains"} {
		t.Run(install, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			pool := installedDatabase(t, ctx, servers.ext18, install, "CREATE EXTENSION timescaledb")
			for _, key := range hypertableKeys() {
				t.Run(key.idType, func(t *testing.T) {
					testHypertable(t, ctx, pool, key)
				})
			}
			if install != "extension" {
				return
			}
			for _, c := range []struct{ name, dim string }{
				{"ksuid dimension by ksuid_time", "by_range('id', INTERVAL '1 day', partition_func => 'public.ksuid_time')"},
				{"uuidv7 dimension by timescaledb's own uuid partitioning", "by_range('id', INTERVAL '1 day')"},
			} {
				t.Run(c.name, func(t *testing.T) {
					key := hypertableKeys()[0]
					if strings.HasPrefix(c.name, "uuidv7") {
						key = hypertableKeys()[1]
					}
					table, ids := loadHypertable(t, ctx, pool, key, "by_id", "id "+key.column+", n int, PRIMARY KEY (id)", c.dim)
					if wrong := compareEverywhere(t, ctx, pool, table, ids); len(wrong) == 0 {
						t.Errorf("%s now answers every comparison right: say so in docs/partitioning.md", c.name)
					} else {
						t.Logf("%s: %d comparisons wrong, as docs/partitioning.md says; the first: %s", c.name, len(wrong), wrong[0])
					}
				})
			}
		})
	}
}

// loadHypertable makes a hypertable of columns with the dimension dim,
// daily chunks, and fills it with IDs of each of the last 5 days (UTC):
// the smallest, a random and the largest of the day's first second or
// millisecond, of its noon and of its last, each with its own time as at
// where the table has that column. It returns the table's name and the
// IDs in Go's order.
func loadHypertable(t *testing.T, ctx context.Context, pool *pgxpool.Pool, key hypertableKey, name, columns, dim string) (string, []any) {
	t.Helper()
	table := "metrics_" + key.idType + "_" + name
	if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" ("+columns+")"); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "SELECT create_hypertable('"+table+"', "+dim+")"); err != nil {
		t.Fatalf("create_hypertable: %v", err)
	}
	withAt := strings.Contains(columns, " at timestamptz")
	today := time.Now().UTC().Truncate(24 * time.Hour)
	var ids []any
	for n := -4; n <= 0; n++ {
		for _, at := range []time.Time{today.AddDate(0, 0, n), today.AddDate(0, 0, n).Add(12 * time.Hour), today.AddDate(0, 0, n+1).Add(-key.resolution)} {
			for _, id := range []any{key.min(at), key.newAt(at), key.max(at)} {
				ids = append(ids, id)
				var err error
				if withAt {
					_, err = pool.Exec(ctx, "INSERT INTO "+table+" (id, at, n) VALUES ($1, $2, $3)", id, at, len(ids))
				} else {
					_, err = pool.Exec(ctx, "INSERT INTO "+table+" (id, n) VALUES ($1, $2)", id, len(ids))
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	slices.SortFunc(ids, func(a, b any) int { return bytes.Compare(key.bytesOf(a), key.bytesOf(b)) })
	return table, ids
}

// idProbe is a query of the table's IDs: its WHERE clause (or the rest
// of the statement after the FROM) with $n placeholders, the values, and
// the IDs it must return in that order (or as a set, for no ORDER BY).
type idProbe struct {
	tail    string
	args    []any
	want    []any
	ordered bool
}

// idProbes returns the probes of ids (in Go's order): each operator with
// each ID; windows from one ID to the next few, which lie in one second
// or millisecond where the IDs were made so; BETWEEN, IN, NOT IN, = ANY,
// a join with a VALUES list; the first and last three by ORDER BY id
// LIMIT, and a page after each ID.
func idProbes(ids []any) []idProbe {
	var probes []idProbe
	for i, x := range ids {
		probes = append(probes,
			idProbe{tail: "WHERE id < $1", args: []any{x}, want: ids[:i]},
			idProbe{tail: "WHERE id <= $1", args: []any{x}, want: ids[:i+1]},
			idProbe{tail: "WHERE id = $1", args: []any{x}, want: ids[i : i+1]},
			idProbe{tail: "WHERE id <> $1", args: []any{x}, want: slices.Concat(ids[:i], ids[i+1:])},
			idProbe{tail: "WHERE id >= $1", args: []any{x}, want: ids[i:]},
			idProbe{tail: "WHERE id > $1", args: []any{x}, want: ids[i+1:]},
			idProbe{tail: "WHERE id > $1 ORDER BY id LIMIT 3", args: []any{x}, want: ids[i+1 : min(i+4, len(ids))], ordered: true},
		)
		for _, j := range []int{i + 1, i + 2} {
			if j < len(ids) {
				probes = append(probes,
					idProbe{tail: "WHERE id >= $1 AND id < $2", args: []any{x, ids[j]}, want: ids[i:j]},
					idProbe{tail: "WHERE id BETWEEN $1 AND $2", args: []any{x, ids[j]}, want: ids[i : j+1]},
					idProbe{tail: "WHERE id IN ($1, $2)", args: []any{x, ids[j]}, want: []any{x, ids[j]}},
					idProbe{tail: "WHERE id NOT IN ($1, $2)", args: []any{x, ids[j]}, want: slices.Concat(ids[:i], ids[i+1:j], ids[j+1:])},
					idProbe{tail: "WHERE id = ANY(ARRAY[$1, $2]::{type}[])", args: []any{x, ids[j]}, want: []any{x, ids[j]}},
					idProbe{tail: "JOIN (VALUES ($1), ($2)) AS v(k) ON id = v.k::text::{type}", args: []any{x, ids[j]}, want: []any{x, ids[j]}},
				)
			}
		}
	}
	n := len(ids)
	return append(probes,
		idProbe{tail: "ORDER BY id LIMIT 3", want: ids[:3], ordered: true},
		idProbe{tail: "ORDER BY id DESC LIMIT 3", want: []any{ids[n-1], ids[n-2], ids[n-3]}, ordered: true},
	)
}

// compareEverywhere runs every probe of ids against table three ways:
// with the values written into the SQL (TimescaleDB excludes chunks as
// it plans), and as parameters in a custom and in a generic plan. It
// returns each probe that found other rows than Go's order says.
func compareEverywhere(t *testing.T, ctx context.Context, pool *pgxpool.Pool, table string, ids []any) (wrong []string) {
	t.Helper()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	defer conn.Exec(context.Background(), "RESET plan_cache_mode")
	var typ string
	if err := conn.QueryRow(ctx, "SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'id'", table).Scan(&typ); err != nil {
		t.Fatal(err)
	}
	runs := []struct {
		plan    string
		literal bool
	}{{"force_custom_plan", true}, {"force_custom_plan", false}, {"force_generic_plan", false}}
	for _, run := range runs {
		if _, err := conn.Exec(ctx, "SET plan_cache_mode = "+run.plan); err != nil {
			t.Fatal(err)
		}
		for _, p := range idProbes(ids) {
			want := textsOf(p.want)
			// AS t: a bare "ORDER BY id" would otherwise sort the output column
			// id::text, under the database's collation.
			sql := "SELECT id::text AS t FROM " + table + " " + strings.ReplaceAll(p.tail, "{type}", typ)
			args := p.args
			if run.literal {
				for i := len(args); i > 0; i-- {
					sql = strings.ReplaceAll(sql, fmt.Sprintf("$%d", i), fmt.Sprintf("'%v'::%s", args[i-1], typ))
				}
				args = nil
			}
			rows, err := conn.Query(ctx, sql, args...)
			if err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			got, err := pgx.CollectRows(rows, pgx.RowTo[string])
			if err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
			if !p.ordered {
				slices.Sort(got)
				slices.Sort(want)
			}
			if !slices.Equal(got, want) {
				if args != nil {
					sql += fmt.Sprintf(" %v (%s)", args, run.plan)
				}
				wrong = append(wrong, fmt.Sprintf("%s: %d rows, want %d", sql, len(got), len(want)))
				if p.ordered {
					wrong[len(wrong)-1] += fmt.Sprintf(" (got %v, want %v)", got, want)
				}
			}
		}
	}
	return wrong
}

// textsOf returns the text of each ID.
func textsOf(ids []any) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = fmt.Sprint(id)
	}
	return out
}

func testHypertable(t *testing.T, ctx context.Context, pool *pgxpool.Pool, key hypertableKey) {
	table, ids := loadHypertable(t, ctx, pool, key, "by_at",
		"id "+key.column+", at timestamptz NOT NULL DEFAULT now(), n int, PRIMARY KEY (id, at)",
		"by_range('at', INTERVAL '1 day')")
	today := time.Now().UTC().Truncate(24 * time.Hour)

	// One chunk a day, each row in the chunk of its ID's day.
	var misplaced int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM `+table+` m JOIN timescaledb_information.chunks c
		ON format('%I.%I', c.chunk_schema, c.chunk_name)::regclass = m.tableoid
		WHERE NOT (`+key.timeOf+`(m.id) >= c.range_start AND `+key.timeOf+`(m.id) < c.range_end)`).Scan(&misplaced); err != nil {
		t.Fatal(err)
	}
	var chunks int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM show_chunks($1)", table).Scan(&chunks); err != nil {
		t.Fatal(err)
	}
	if misplaced != 0 || chunks != 5 {
		t.Errorf("%d chunks, %d rows outside their day's chunk; want 5 daily chunks", chunks, misplaced)
	}

	// A day's window on the time column finds the day's 9 rows and reads
	// one chunk.
	from, to := today.AddDate(0, 0, -2), today.AddDate(0, 0, -1)
	where := fmt.Sprintf("at >= '%s' AND at < '%s'", from.Format(time.RFC3339), to.Format(time.RFC3339))
	var plan []byte
	if err := pool.QueryRow(ctx, "EXPLAIN (FORMAT JSON) SELECT * FROM "+table+" WHERE "+where).Scan(&plan); err != nil {
		t.Fatal(err)
	}
	read, _ := explainedPartitions(plan)
	var count int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE "+where).Scan(&count); err != nil {
		t.Fatal(err)
	}
	if count != 9 || len(read) != 1 {
		t.Errorf("WHERE %s finds %d rows (want 9) and reads %d chunks %v (want 1)", where, count, len(read), read)
	}

	// Every comparison of the ID, in each kind of plan.
	if wrong := compareEverywhere(t, ctx, pool, table, ids); len(wrong) > 0 {
		t.Errorf("%d comparisons find the wrong rows:\n%s", len(wrong), strings.Join(wrong, "\n"))
	}

	// A row made by the defaults lands in today's chunk.
	if _, err := pool.Exec(ctx, "INSERT INTO "+table+" (n) VALUES (-1)"); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM show_chunks($1)", table).Scan(&chunks); err != nil || chunks != 5 {
		t.Errorf("after a row of now: %d chunks (%v), want 5", chunks, err)
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
	var kept int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&kept); err != nil {
		t.Fatal(err)
	}
	var wantKept int
	for n := -4; n <= 0; n++ {
		if !today.AddDate(0, 0, n+1).Before(cutoff) {
			wantKept += 9
		}
	}
	if kept != wantKept+1 {
		t.Errorf("after drop_chunks older than %s: %d rows, want %d (the days whose chunk ends after it, and the generated row)", cutoff, kept, wantKept+1)
	}
}
