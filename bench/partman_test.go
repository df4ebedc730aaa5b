package bench

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

const (
	partmanRows = 1_000_000
	partmanDays = 30
)

// BenchmarkPostgresPartman compares three daily-partitioned tables on the
// PostgreSQL 18 test server (pg_partman 5.5) in 5 rounds, each loading
// all three afresh in an order that rotates:
//
//   - partman-ksuid: a KSUID key (text COLLATE "C" with the KSUID CHECK)
//     partitioned by pg_partman with ksuid_time_encoder/decoder;
//   - sortid-ksuid: the same table, partitioned by sqltype.Partitions
//     (`sortid sql partitions`);
//   - partman-timestamptz: a timestamptz key partitioned by pg_partman.
//
// Each load is a COPY of 1,000,000 rows in time order over the 30 days
// before now; then a one-day window (count of the rows of one day, 100
// times) reads its partitions. It reports the median rows/s of each load
// and of each window, the partitions the window reads, and the median,
// smallest and largest of the per-round ratios against partman-ksuid.
//
//	cd bench && env $(../scripts/testenv.sh) go test -run '^$' -bench PostgresPartman -benchtime 1x -timeout 60m
func BenchmarkPostgresPartman(b *testing.B) {
	pool := benchPostgres(b)
	ctx := context.Background()
	for _, sql := range []string{"CREATE SCHEMA IF NOT EXISTS partman", "CREATE EXTENSION IF NOT EXISTS pg_partman SCHEMA partman"} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			b.Fatalf("%s: %v", sql, err)
		}
	}
	now := time.Now().UTC()
	today := now.Truncate(24 * time.Hour)
	start := today.AddDate(0, 0, -partmanDays)
	step := time.Duration(partmanDays) * 24 * time.Hour / partmanRows
	ksuidRows := make([][]any, partmanRows)
	timeRows := make([][]any, partmanRows)
	for i := range partmanRows {
		at := start.Add(time.Duration(i) * step)
		id, err := ksuid.NewAt(at)
		if err != nil {
			b.Fatal(err)
		}
		ksuidRows[i] = []any{id.String(), i}
		timeRows[i] = []any{at, i}
	}
	day := today.AddDate(0, 0, -10)
	lo, _ := ksuid.MinAt(day)
	hi, _ := ksuid.MinAt(day.AddDate(0, 0, 1))
	const ksuidColumn = `id text COLLATE "C" NOT NULL CHECK (octet_length(id) = 27 AND id !~ '[^0-9A-Za-z]' AND id <= 'aWgEPTl1tmebfsQzFP4bxwgy80V')`

	type table struct {
		name, ddl, column string
		rows              [][]any
		window            string
		partition         func(name string) error
	}
	partman := func(encoded bool) func(string) error {
		return func(name string) error {
			var err error
			if encoded {
				_, err = pool.Exec(ctx, `SELECT partman.create_parent(p_parent_table := $1, p_control := 'id', p_interval := '1 day',
					p_premake := 3, p_start_partition := $2, p_time_encoder := 'public.ksuid_time_encoder', p_time_decoder := 'public.ksuid_time_decoder')`,
					"public."+name, start.Format("2006-01-02 15:04:05"))
			} else {
				_, err = pool.Exec(ctx, `SELECT partman.create_parent(p_parent_table := $1, p_control := 'ts', p_interval := '1 day',
					p_premake := 3, p_start_partition := $2)`, "public."+name, start.Format("2006-01-02 15:04:05"))
			}
			return err
		}
	}
	tables := []table{
		{
			name: "bench_partman_ksuid", column: "id", rows: ksuidRows,
			ddl:       "(" + ksuidColumn + ", n int NOT NULL, PRIMARY KEY (id)) PARTITION BY RANGE (id)",
			window:    fmt.Sprintf("id >= '%s' AND id < '%s'", lo, hi),
			partition: partman(true),
		},
		{
			name: "bench_sortid_ksuid", column: "id", rows: ksuidRows,
			ddl:    "(" + ksuidColumn + ", n int NOT NULL, PRIMARY KEY (id)) PARTITION BY RANGE (id)",
			window: fmt.Sprintf("id >= '%s' AND id < '%s'", lo, hi),
			partition: func(name string) error {
				return sqltype.Partitions(ctx, pool, sqltype.PartitionSpec{Table: name, IDType: "ksuid", Period: sqltype.Day, Back: partmanDays, Ahead: 3}, now)
			},
		},
		{
			name: "bench_partman_ts", column: "ts", rows: timeRows,
			ddl:       "(ts timestamptz NOT NULL, n int NOT NULL, PRIMARY KEY (ts)) PARTITION BY RANGE (ts)",
			window:    fmt.Sprintf("ts >= '%s' AND ts < '%s'", day.Format(time.RFC3339), day.AddDate(0, 0, 1).Format(time.RFC3339)),
			partition: partman(false),
		},
	}
	drop := func(name string) {
		pool.Exec(ctx, "DELETE FROM partman.part_config WHERE parent_table = $1", "public."+name)
		if _, err := pool.Exec(ctx, "DROP TABLE IF EXISTS "+name); err != nil {
			b.Fatal(err)
		}
	}
	// load makes t afresh and returns its COPY's rows/s, its one-day
	// window's rows/s, and the partitions the window reads.
	load := func(t table) (copyRate, windowRate float64, read int) {
		drop(t.name)
		if _, err := pool.Exec(ctx, "CREATE TABLE "+t.name+" "+t.ddl); err != nil {
			b.Fatal(err)
		}
		if err := t.partition(t.name); err != nil {
			b.Fatalf("partitioning %s: %v", t.name, err)
		}
		pool.Exec(ctx, "CHECKPOINT")
		t0 := time.Now()
		n, err := pool.CopyFrom(ctx, pgx.Identifier{t.name}, []string{t.column, "n"}, pgx.CopyFromRows(t.rows))
		took := time.Since(t0)
		if err != nil || n != partmanRows {
			b.Fatalf("COPY into %s: %d rows, %v", t.name, n, err)
		}
		// pg_partman's tables have a default partition; it must stay
		// empty (sortid's table has none, and the query's error leaves 0).
		var inDefault int
		pool.QueryRow(ctx, "SELECT count(*) FROM ONLY "+t.name+"_default").Scan(&inDefault)
		if inDefault != 0 {
			b.Fatalf("%s: %d rows in the default partition", t.name, inDefault)
		}
		if _, err := pool.Exec(ctx, "VACUUM ANALYZE "+t.name); err != nil {
			b.Fatal(err)
		}
		query := "SELECT count(*) FROM " + t.name + " WHERE " + t.window
		var plan []byte
		if err := pool.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+query).Scan(&plan); err != nil {
			b.Fatal(err)
		}
		read = countScans(plan)
		const queries = 100
		var count int
		t0 = time.Now()
		for range queries {
			if err := pool.QueryRow(ctx, query).Scan(&count); err != nil {
				b.Fatal(err)
			}
		}
		windowTook := time.Since(t0)
		if want := partmanRows / partmanDays; count < want-2 || count > want+2 {
			b.Fatalf("%s: the day's window counts %d rows, want about %d", t.name, count, want)
		}
		drop(t.name)
		return float64(partmanRows) / took.Seconds(), float64(count*queries) / windowTook.Seconds(), read
	}
	median := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2]
	}
	for b.Loop() {
		copies := make([][]float64, len(tables))
		windows := make([][]float64, len(tables))
		copyRatios := make([][]float64, len(tables))
		windowRatios := make([][]float64, len(tables))
		reads := make([]int, len(tables))
		for round := range 5 {
			c := make([]float64, len(tables))
			w := make([]float64, len(tables))
			for k := range tables {
				i := (round + k) % len(tables)
				c[i], w[i], reads[i] = load(tables[i])
			}
			for i := range tables {
				copies[i] = append(copies[i], c[i])
				windows[i] = append(windows[i], w[i])
				copyRatios[i] = append(copyRatios[i], c[i]/c[0])
				windowRatios[i] = append(windowRatios[i], w[i]/w[0])
			}
			b.Logf("round %d: COPY rows/s %.0f %.0f %.0f; window rows/s %.0f %.0f %.0f (%s, %s, %s)", round+1,
				c[0], c[1], c[2], w[0], w[1], w[2], tables[0].name, tables[1].name, tables[2].name)
		}
		for i, t := range tables {
			name := t.name[len("bench_"):]
			b.ReportMetric(median(copies[i]), name+"-copy-rows/s")
			b.ReportMetric(median(windows[i]), name+"-window-rows/s")
			b.ReportMetric(float64(reads[i]), name+"-window-partitions")
			if i > 0 {
				b.ReportMetric(median(copyRatios[i]), name+"-copy-ratio-median")
				b.ReportMetric(slices.Min(copyRatios[i]), name+"-copy-ratio-min")
				b.ReportMetric(slices.Max(copyRatios[i]), name+"-copy-ratio-max")
				b.ReportMetric(median(windowRatios[i]), name+"-window-ratio-median")
				b.ReportMetric(slices.Min(windowRatios[i]), name+"-window-ratio-min")
				b.ReportMetric(slices.Max(windowRatios[i]), name+"-window-ratio-max")
			}
		}
	}
}
