package bench

import (
	"context"
	"crypto/rand"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/ksuid"
)

// BenchmarkPostgresWriters loads loadRows keys into a primary key made by
// 1 and by 8 writers (8 generators, loadRows/8 IDs each), two ways:
//
//   - interleaved: the writers make their IDs on a simulated clock,
//     idsPerSecond in all, and the rows reach the server in the order they
//     were made, the 8 writers' IDs interleaved, COPY in batches of
//     20,000 on one connection. This is what an ID design can influence:
//     whether rows made later get larger keys, across writers.
//   - concurrent: 8 connections at once, each making writerBatch IDs with
//     the real clock and COPYing them at once, as 8 instances of a
//     service would. Here the server also sees rows out of order by
//     roughly the rows in flight, whatever the ID.
//
// It compares 128-bit random payloads (other KSUID libraries), the +1
// sequence the monotonic
// generator made before (kept for comparison), today's monotonic
// generator (fraction of the second, then random bytes), and, for the
// concurrent case, UUIDv7 into a uuid column as the reference.
func BenchmarkPostgresWriters(b *testing.B) {
	pool := benchPostgres(b)
	for _, writers := range []int{1, 8} {
		for _, kind := range []struct {
			name string
			make func(b *testing.B, w, writers int) []ksuid.KSUID
		}{
			{"random", writerRandom},
			{"plus-one", writerPlusOne},
			{"monotonic", writerMonotonic},
		} {
			b.Run(fmt.Sprintf("interleaved-%s-%dwriters", kind.name, writers), func(b *testing.B) {
				perWriter := make([][]ksuid.KSUID, writers)
				for w := range writers {
					perWriter[w] = kind.make(b, w, writers)
				}
				// Writer w's i-th ID is the (i*writers + w)-th made.
				ids := make([]any, 0, loadRows)
				for i := range loadRows / writers {
					for w := range writers {
						ids = append(ids, perWriter[w][i])
					}
				}
				loadAndMeasure(b, pool, "bytea", 1, func(ctx context.Context, conn *pgxpool.Conn, table string, _ int) error {
					return copyBatches(ctx, conn, table, ids, interleavedBatch)
				})
			})
		}
	}
	for _, writers := range []int{1, 8} {
		for _, kind := range []struct {
			name, column string
			gen          func() func() any
		}{
			{"random", "bytea", func() func() any { return func() any { return randomPayloadKSUID(time.Now()) } }},
			{"plus-one", "bytea", func() func() any {
				g := new(plusOneGenerator)
				return func() any { return g.New() }
			}},
			{"monotonic", "bytea", func() func() any {
				g := ksuid.NewGenerator(ksuid.WithMonotonic())
				return func() any {
					id, err := g.New()
					if err != nil {
						panic(err)
					}
					return id
				}
			}},
			{"uuidv7", "uuid", func() func() any {
				return func() any { return pgtype.UUID{Bytes: uuid.Must(uuid.NewV7()), Valid: true} }
			}},
		} {
			b.Run(fmt.Sprintf("concurrent-%s-%dwriters", kind.name, writers), func(b *testing.B) {
				loadAndMeasure(b, pool, kind.column, writers, func(ctx context.Context, conn *pgxpool.Conn, table string, n int) error {
					newID := kind.gen()
					batch := make([]any, 0, writerBatch)
					for n > 0 {
						batch = batch[:0]
						for range min(writerBatch, n) {
							batch = append(batch, newID())
						}
						n -= len(batch)
						if err := copyBatches(ctx, conn, table, batch, writerBatch); err != nil {
							return err
						}
					}
					return nil
				})
			})
		}
	}
}

// loadAndMeasure creates a table keyed by column, runs write on writers
// connections at once, each for loadRows/writers rows, and reports rows/s
// and the size of the primary-key index.
func loadAndMeasure(b *testing.B, pool *pgxpool.Pool, column string, writers int,
	write func(ctx context.Context, conn *pgxpool.Conn, table string, n int) error) {
	ctx := context.Background()
	var indexBytes int64
	var loaded time.Duration
	for b.Loop() {
		b.StopTimer()
		table := "bench_" + fmt.Sprint(time.Now().UnixNano())
		if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id "+column+" PRIMARY KEY) WITH (autovacuum_enabled = false)"); err != nil {
			b.Fatal(err)
		}
		if _, err := pool.Exec(ctx, "CHECKPOINT"); err != nil {
			b.Fatal(err)
		}
		conns := make([]*pgxpool.Conn, writers)
		for w := range conns {
			c, err := pool.Acquire(ctx)
			if err != nil {
				b.Fatal(err)
			}
			conns[w] = c
		}
		b.StartTimer()
		start := time.Now()
		var wg sync.WaitGroup
		errs := make([]error, writers)
		for w := range writers {
			wg.Go(func() { errs[w] = write(ctx, conns[w], table, loadRows/writers) })
		}
		wg.Wait()
		loaded += time.Since(start)
		b.StopTimer()
		for _, c := range conns {
			c.Release()
		}
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
}

// interleavedBatch is the COPY batch of the interleaved loads.
const interleavedBatch = 20_000

// copyBatches copies values into table, size rows per COPY.
func copyBatches(ctx context.Context, conn *pgxpool.Conn, table string, values []any, size int) error {
	for len(values) > 0 {
		batch := values[:min(size, len(values))]
		values = values[len(batch):]
		n, err := conn.CopyFrom(ctx, pgx.Identifier{table}, []string{"id"},
			pgx.CopyFromSlice(len(batch), func(i int) ([]any, error) {
				// A KSUID goes to the bytea column as its raw bytes,
				// said as such: sqltype refuses a typed ID there.
				if id, ok := batch[i].(ksuid.KSUID); ok {
					return []any{id[:]}, nil
				}
				return []any{batch[i]}, nil
			}))
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

// randomPayloadKSUID returns a KSUID of the second of t with 16 random
// payload bytes, the layout of other KSUID libraries (and of ksuid.New
// before it ordered to the fraction of a second).
func randomPayloadKSUID(t time.Time) ksuid.KSUID {
	var payload [ksuid.PayloadSize]byte
	rand.Read(payload[:])
	id, err := ksuid.FromParts(t, payload[:])
	if err != nil {
		panic(err)
	}
	return id
}

// writerPlusOne is the old monotonic sequence on the simulated clock.
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

// writerBatch is how many rows a writer makes and COPYs at a time.
const writerBatch = 100

// plusOneGenerator is the monotonic generator as it was before: the first
// ID of a second has a random payload, each next one of that second is
// the one before plus one.
type plusOneGenerator struct {
	last ksuid.KSUID
}

func (g *plusOneGenerator) New() ksuid.KSUID {
	id := randomPayloadKSUID(time.Now())
	if id.Timestamp() > g.last.Timestamp() {
		g.last = id
		return id
	}
	next, ok := g.last.Next()
	if !ok {
		panic("ran past the largest KSUID")
	}
	g.last = next
	return next
}
