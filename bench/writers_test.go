package bench

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sortid/sortid/ksuid"
)

// BenchmarkPostgresWriters loads loadRows KSUID keys into a bytea primary
// key from 1 and from 8 writers at once (8 connections, 8 generators,
// loadRows/8 rows each, COPY in batches of 20,000), as 8 instances of an
// application would, with idsPerSecond IDs per second of simulated time
// across all writers. It compares random payloads, the +1 sequence the
// monotonic generator made before (kept here for comparison), and today's
// monotonic generator (fraction of the second, then random bytes).
func BenchmarkPostgresWriters(b *testing.B) {
	pool := benchPostgres(b)
	ctx := context.Background()
	for _, writers := range []int{1, 8} {
		for _, kind := range []struct {
			name string
			make func(b *testing.B, writer, writers int) []ksuid.KSUID
		}{
			{"random", writerRandom},
			{"plus-one", writerPlusOne},
			{"monotonic", writerMonotonic},
		} {
			ids := make([][]ksuid.KSUID, writers)
			for w := range writers {
				ids[w] = kind.make(b, w, writers)
			}
			b.Run(fmt.Sprintf("%s-%dwriters", kind.name, writers), func(b *testing.B) {
				var indexBytes int64
				var loaded time.Duration
				for b.Loop() {
					b.StopTimer()
					table := "bench_" + fmt.Sprint(time.Now().UnixNano())
					if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id bytea PRIMARY KEY) WITH (autovacuum_enabled = false)"); err != nil {
						b.Fatal(err)
					}
					if _, err := pool.Exec(ctx, "CHECKPOINT"); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					start := time.Now()
					var wg sync.WaitGroup
					errs := make([]error, writers)
					for w := range writers {
						wg.Go(func() { errs[w] = copyInBatches(ctx, pool, table, ids[w]) })
					}
					wg.Wait()
					loaded += time.Since(start)
					b.StopTimer()
					for _, err := range errs {
						if err != nil {
							b.Fatal(err)
						}
					}
					var rows int64
					if err := pool.QueryRow(ctx, "SELECT count(*), pg_relation_size('"+table+"_pkey') FROM "+table).Scan(&rows, &indexBytes); err != nil {
						b.Fatal(err)
					}
					if rows != loadRows {
						b.Fatalf("%d rows, want %d", rows, loadRows)
					}
					if _, err := pool.Exec(ctx, "DROP TABLE "+table); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				b.ReportMetric(float64(loadRows)*float64(b.N)/loaded.Seconds(), "rows/s")
				b.ReportMetric(float64(indexBytes)/(1<<20), "index-MiB")
			})
		}
	}
}

const copyBatch = 20_000

// copyInBatches copies ids into table on one connection of the pool, in
// batches of copyBatch rows.
func copyInBatches(ctx context.Context, pool interface {
	CopyFrom(context.Context, pgx.Identifier, []string, pgx.CopyFromSource) (int64, error)
}, table string, ids []ksuid.KSUID) error {
	for len(ids) > 0 {
		batch := ids[:min(copyBatch, len(ids))]
		ids = ids[len(batch):]
		n, err := pool.CopyFrom(ctx, pgx.Identifier{table}, []string{"id"},
			pgx.CopyFromSlice(len(batch), func(i int) ([]any, error) { return []any{batch[i]}, nil }))
		if err != nil {
			return err
		}
		if n != int64(len(batch)) {
			return fmt.Errorf("COPY wrote %d rows, want %d", n, len(batch))
		}
	}
	return nil
}

// simulatedTime is when writer w makes its i-th ID: the writers take
// turns, idsPerSecond IDs per second in all.
func simulatedTime(i, w, writers int) time.Time {
	n := i*writers + w
	return streamStart.Add(time.Duration(n) * time.Second / idsPerSecond)
}

func writerRandom(b *testing.B, w, writers int) []ksuid.KSUID {
	ids := make([]ksuid.KSUID, loadRows/writers)
	payload := make([]byte, ksuid.PayloadSize)
	for i := range ids {
		rand.Read(payload)
		id, err := ksuid.FromParts(simulatedTime(i, w, writers), payload)
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}

// writerPlusOne is the monotonic generator as it was: the first ID of a
// second has a random payload, each next one of that second is one more.
func writerPlusOne(b *testing.B, w, writers int) []ksuid.KSUID {
	ids := writerRandom(b, w, writers)
	for i := 1; i < len(ids); i++ {
		if ids[i].Timestamp() == ids[i-1].Timestamp() {
			next, ok := ids[i-1].Next()
			if !ok {
				b.Fatal("ran past the largest KSUID")
			}
			ids[i] = next
		}
	}
	return ids
}

func writerMonotonic(b *testing.B, w, writers int) []ksuid.KSUID {
	var now time.Time
	g := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(func() time.Time { return now }))
	ids := make([]ksuid.KSUID, loadRows/writers)
	for i := range ids {
		now = simulatedTime(i, w, writers)
		id, err := g.New()
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}
