package bench

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkPostgresDefaultsPaired measures ksuid_generate() against
// uuidv7() as column defaults in pairs: each of 5 rounds loads both keys,
// one after the other (which goes first alternates), with INSERT ...
// SELECT of 500,000 and of 1,000,000 rows. The ratio of each pair shares
// the machine's state of the moment, which on a small shared machine
// moves more than the difference measured. It reports the median rows/s
// of each key and the median, smallest and largest of the 5 ratios.
//
//	cd bench && env $(../scripts/testenv.sh) go test -run '^$' -bench PostgresDefaultsPaired -benchtime 1x -timeout 60m
func BenchmarkPostgresDefaultsPaired(b *testing.B) {
	pool := benchPostgres(b)
	ctx := context.Background()
	load := func(column string, rows int64) float64 {
		table := "bench_" + fmt.Sprint(time.Now().UnixNano())
		if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id "+column+" PRIMARY KEY, n int) WITH (autovacuum_enabled = false)"); err != nil {
			b.Fatal(err)
		}
		defer pool.Exec(ctx, "DROP TABLE "+table)
		if _, err := pool.Exec(ctx, "CHECKPOINT"); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		tag, err := pool.Exec(ctx, "INSERT INTO "+table+" (n) SELECT g FROM generate_series(1, $1) g", rows)
		took := time.Since(start)
		if err != nil || tag.RowsAffected() != rows {
			b.Fatalf("INSERT: %v rows, %v", tag.RowsAffected(), err)
		}
		return float64(rows) / took.Seconds()
	}
	median := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2]
	}
	for _, rows := range []int64{500_000, 1_000_000} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			for b.Loop() {
				var uuids, ksuids, ratios []float64
				for round := range 5 {
					var u, k float64
					if round%2 == 0 {
						u, k = load("uuid DEFAULT uuidv7()", rows), load("ksuid DEFAULT ksuid_generate()", rows)
					} else {
						k, u = load("ksuid DEFAULT ksuid_generate()", rows), load("uuid DEFAULT uuidv7()", rows)
					}
					uuids, ksuids, ratios = append(uuids, u), append(ksuids, k), append(ratios, k/u)
					b.Logf("round %d: uuidv7() %.0f rows/s, ksuid_generate() %.0f rows/s, ratio %.3f", round+1, u, k, k/u)
				}
				b.ReportMetric(median(uuids), "uuidv7-rows/s")
				b.ReportMetric(median(ksuids), "ksuid_generate-rows/s")
				b.ReportMetric(median(ratios), "ratio-median")
				b.ReportMetric(slices.Min(ratios), "ratio-min")
				b.ReportMetric(slices.Max(ratios), "ratio-max")
			}
		})
	}
}
