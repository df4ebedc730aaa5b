package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

const (
	partitionDays   = 30
	partitionPerDay = 100_000 // 3,000,000 rows over the 30 days
)

// BenchmarkPostgresPartitions compares a table partitioned by day on its
// KSUID (30 partitions from sqltype.Partitions) with the same table
// unpartitioned, both keyed by the ksuid domain, on one server in one
// run. Each iteration:
//
//   - loads 3,000,000 rows in time order by COPY into each (the two in
//     turn, which one first alternating), and reports rows/s of each;
//   - runs a one-hour window query (BETWEEN MinAt and MaxAt, an hour that
//     straddles midnight) 200 times on each, and reports the partitions
//     the plan reads and the mean time;
//   - removes one day (100,000 rows): DETACH and DROP of its partition,
//     against DELETE … WHERE id BETWEEN … and VACUUM of the plain table.
//
// Run it with -benchtime 1x (make bench-postgres runs it).
func BenchmarkPostgresPartitions(b *testing.B) {
	pool := benchPostgres(b)
	ctx := context.Background()
	start := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	rows := make([][]any, 0, partitionDays*partitionPerDay)
	// In time order: one ID every 864 ms, whose fraction of the second
	// NewAt keeps, so that the IDs sort as they are made.
	step := 24 * time.Hour / partitionPerDay
	for i := range partitionDays * partitionPerDay {
		id, err := ksuid.NewAt(start.Add(time.Duration(i) * step))
		if err != nil {
			b.Fatal(err)
		}
		rows = append(rows, []any{id[:], i})
	}
	now := start.AddDate(0, 0, partitionDays-1)
	windowFrom := start.AddDate(0, 0, 15).Add(-30 * time.Minute)
	lo, _ := ksuid.MinAt(windowFrom)
	hi, _ := ksuid.MaxAt(windowFrom.Add(time.Hour - time.Second))
	dropDay := start.AddDate(0, 0, 3)
	dropLo, _ := ksuid.MinAt(dropDay)
	dropHi, _ := ksuid.MaxAt(dropDay.AddDate(0, 0, 1).Add(-time.Second))

	type result struct{ load, window, remove time.Duration }
	setUp := func(partitioned bool) string {
		name := "bench_plain"
		ddl := "CREATE TABLE bench_plain (id ksuid PRIMARY KEY, n int NOT NULL)"
		if partitioned {
			name = "bench_parted"
			ddl = "CREATE TABLE bench_parted (id ksuid PRIMARY KEY, n int NOT NULL) PARTITION BY RANGE (id)"
		}
		if _, err := pool.Exec(ctx, "DROP TABLE IF EXISTS "+name); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Exec(ctx, ddl); err != nil {
			b.Fatal(err)
		}
		if partitioned {
			spec := sqltype.PartitionSpec{Table: name, IDType: "ksuid", Period: sqltype.Day, Back: partitionDays - 1}
			if err := sqltype.Partitions(ctx, pool, spec, now); err != nil {
				b.Fatal(err)
			}
		}
		pool.Exec(ctx, "CHECKPOINT")
		return name
	}
	run := func(partitioned bool) (r result, scanned int) {
		table := setUp(partitioned)
		t0 := time.Now()
		n, err := pool.CopyFrom(ctx, pgx.Identifier{table}, []string{"id", "n"}, pgx.CopyFromRows(rows))
		r.load = time.Since(t0)
		if err != nil || n != int64(len(rows)) {
			b.Fatalf("COPY into %s: %d rows, %v", table, n, err)
		}
		if _, err := pool.Exec(ctx, "VACUUM ANALYZE "+table); err != nil {
			b.Fatal(err)
		}
		window := fmt.Sprintf("SELECT count(*) FROM %s WHERE id BETWEEN '\\x%x' AND '\\x%x'", table, lo[:], hi[:])
		var plan []byte
		if err := pool.QueryRow(ctx, "EXPLAIN (FORMAT JSON) "+window).Scan(&plan); err != nil {
			b.Fatal(err)
		}
		scanned = countScans(plan)
		const queries = 200
		var count int
		t0 = time.Now()
		for range queries {
			if err := pool.QueryRow(ctx, window).Scan(&count); err != nil {
				b.Fatal(err)
			}
		}
		r.window = time.Since(t0) / queries
		if want := 3600 * partitionPerDay / 86400; count < want-1 || count > want+1 {
			b.Fatalf("the window counts %d rows, want %d", count, want)
		}
		t0 = time.Now()
		if partitioned {
			part := fmt.Sprintf("%s_p%s", table, dropDay.Format("20060102"))
			if _, err := pool.Exec(ctx, "ALTER TABLE "+table+" DETACH PARTITION "+part); err != nil {
				b.Fatal(err)
			}
			if _, err := pool.Exec(ctx, "DROP TABLE "+part); err != nil {
				b.Fatal(err)
			}
		} else {
			tag, err := pool.Exec(ctx, fmt.Sprintf("DELETE FROM %s WHERE id BETWEEN '\\x%x' AND '\\x%x'", table, dropLo[:], dropHi[:]))
			if err != nil || tag.RowsAffected() != partitionPerDay {
				b.Fatalf("DELETE of a day: %v rows, %v", tag.RowsAffected(), err)
			}
			if _, err := pool.Exec(ctx, "VACUUM "+table); err != nil {
				b.Fatal(err)
			}
		}
		r.remove = time.Since(t0)
		var left int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&left); err != nil || left != len(rows)-partitionPerDay {
			b.Fatalf("%s holds %d rows after removing a day, want %d (%v)", table, left, len(rows)-partitionPerDay, err)
		}
		pool.Exec(ctx, "DROP TABLE "+table)
		return r, scanned
	}
	i := 0
	for b.Loop() {
		var parted, plain result
		var scanned int
		if i%2 == 0 {
			parted, scanned = run(true)
			plain, _ = run(false)
		} else {
			plain, _ = run(false)
			parted, scanned = run(true)
		}
		i++
		b.ReportMetric(float64(len(rows))/parted.load.Seconds(), "partitioned-rows/s")
		b.ReportMetric(float64(len(rows))/plain.load.Seconds(), "plain-rows/s")
		b.ReportMetric(parted.load.Seconds()/plain.load.Seconds(), "load-time-ratio")
		b.ReportMetric(float64(scanned), "window-partitions")
		b.ReportMetric(float64(parted.window.Microseconds()), "partitioned-window-µs")
		b.ReportMetric(float64(plain.window.Microseconds()), "plain-window-µs")
		b.ReportMetric(float64(parted.remove.Milliseconds()), "detach-drop-ms")
		b.ReportMetric(float64(plain.remove.Milliseconds()), "delete-vacuum-ms")
	}
}

// countScans counts the relations an EXPLAIN (FORMAT JSON) plan reads.
func countScans(plan []byte) int {
	var doc []struct{ Plan map[string]any }
	if json.Unmarshal(plan, &doc) != nil || len(doc) == 0 {
		return -1
	}
	n := 0
	var walk func(map[string]any)
	walk = func(node map[string]any) {
		if _, ok := node["Relation Name"]; ok {
			n++
		}
		if kids, ok := node["Plans"].([]any); ok {
			for _, k := range kids {
				if m, ok := k.(map[string]any); ok {
					walk(m)
				}
			}
		}
	}
	walk(doc[0].Plan)
	return n
}
