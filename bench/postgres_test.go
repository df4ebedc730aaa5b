package bench

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testcontainers/testcontainers-go"
	tclog "github.com/testcontainers/testcontainers-go/log"
	"github.com/testcontainers/testcontainers-go/modules/postgres"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

// BenchmarkPostgresLoad loads loadRows rows through pgx.CopyFrom into a
// table keyed by each kind of ID, as a steady stream of idsPerSecond IDs
// per second of simulated time, and reports rows/s, the size of the
// primary-key index after the load, and the time of one query for a
// ten-second window. It needs a PostgreSQL: SORTID_BENCH_POSTGRES_URL, or
// a container from SORTID_TEST_POSTGRES_IMAGE (default postgres:18); run
// it with make bench-postgres.
func BenchmarkPostgresLoad(b *testing.B) {
	pool := benchPostgres(b)
	ctx := context.Background()
	var version string
	if err := pool.QueryRow(ctx, "SHOW server_version").Scan(&version); err != nil {
		b.Fatal(err)
	}
	b.Logf("PostgreSQL %s, %d rows per load", version, loadRows)

	ids := streamKSUIDs(b)
	mono := monotonicKSUIDs(b)
	newLayout := newLayoutKSUIDs(b)
	raw := make([][]byte, len(ids))
	for i := range ids {
		raw[i] = ids[i][:]
	}
	// UUIDs go in as pgtype.UUID, pgx's direct path for the uuid type.
	v7 := make([]pgtype.UUID, loadRows)
	v4 := make([]pgtype.UUID, loadRows)
	bigints := make([]int64, loadRows)
	for i := range loadRows {
		v7[i] = pgtype.UUID{Bytes: uuid.Must(uuid.NewV7()), Valid: true}
		v4[i] = pgtype.UUID{Bytes: uuid.New(), Valid: true}
		bigints[i] = int64(i)
	}
	// The window: ten seconds of simulated time in the middle.
	from := streamStart.Add(loadRows / idsPerSecond / 2 * time.Second)
	lo, _ := ksuid.MinAt(from)
	hi, _ := ksuid.MaxAt(from.Add(9 * time.Second))

	for _, tc := range []struct {
		name, column string
		value        func(i int) any
		lo, hi       any
	}{
		{"bigint", "bigint", func(i int) any { return bigints[i] }, int64(loadRows / 2), int64(loadRows/2 + 10*idsPerSecond - 1)},
		// A bytea column takes the raw bytes as []byte: sqltype refuses
		// a typed ID there (sqltype.ErrByteaParameter).
		{"ksuid-bytea-plain-bytes", "bytea", func(i int) any { return raw[i] }, lo[:], hi[:]},
		{"ksuid-monotonic-bytea", "bytea", func(i int) any { return mono[i][:] }, lo[:], hi[:]},
		{"ksuid-monotonic-domain", "ksuid", func(i int) any { return mono[i] }, lo, hi},
		{"ksuid-new-domain", "ksuid", func(i int) any { return newLayout[i] }, lo, hi},
		{"ksuid-text-collate-C", `text COLLATE "C"`, func(i int) any { return ids[i] }, lo, hi},
		{"uuidv7", "uuid", func(i int) any { return v7[i] }, v7[loadRows/2], v7[loadRows/2+10*idsPerSecond-1]},
		{"uuidv4", "uuid", func(i int) any { return v4[i] }, nil, nil},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var indexBytes int64
			var window time.Duration
			var loaded time.Duration
			for b.Loop() {
				b.StopTimer()
				table := "bench_" + fmt.Sprint(time.Now().UnixNano())
				// Each load starts from the same server state: no dirty
				// pages from the last one, no autovacuum in the middle.
				if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id "+tc.column+" PRIMARY KEY) WITH (autovacuum_enabled = false)"); err != nil {
					b.Fatal(err)
				}
				if _, err := pool.Exec(ctx, "CHECKPOINT"); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				start := time.Now()
				n, err := pool.CopyFrom(ctx, pgx.Identifier{table}, []string{"id"},
					pgx.CopyFromSlice(loadRows, func(i int) ([]any, error) { return []any{tc.value(i)}, nil }))
				loaded += time.Since(start)
				b.StopTimer()
				if err != nil || n != loadRows {
					b.Fatalf("COPY: %d rows, %v", n, err)
				}
				if err := pool.QueryRow(ctx, "SELECT pg_relation_size('"+table+"_pkey')").Scan(&indexBytes); err != nil {
					b.Fatal(err)
				}
				if tc.lo != nil {
					pool.Exec(ctx, "VACUUM ANALYZE "+table)
					var count int
					start := time.Now()
					if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id BETWEEN $1 AND $2", tc.lo, tc.hi).Scan(&count); err != nil {
						b.Fatal(err)
					}
					window = time.Since(start)
					if count != 10*idsPerSecond {
						b.Fatalf("window query counted %d rows, want %d", count, 10*idsPerSecond)
					}
				}
				if _, err := pool.Exec(ctx, "DROP TABLE "+table); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(loadRows)*float64(b.N)/loaded.Seconds(), "rows/s")
			b.ReportMetric(float64(indexBytes)/(1<<20), "index-MiB")
			if tc.lo != nil {
				b.ReportMetric(float64(window.Microseconds())/1000, "window-ms")
			}
		})
	}
}

const (
	loadRows     = 1_000_000
	idsPerSecond = 2_000
)

var streamStart = time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)

// streamKSUIDs returns KSUIDs with 128-bit random payloads (the layout of
// other KSUID libraries), idsPerSecond to a second of simulated time, in
// the order they were made.
func streamKSUIDs(b *testing.B) []ksuid.KSUID {
	ids := make([]ksuid.KSUID, loadRows)
	payload := make([]byte, ksuid.PayloadSize)
	for i := range ids {
		rand.Read(payload)
		id, err := ksuid.FromParts(streamStart.Add(time.Duration(i/idsPerSecond)*time.Second), payload)
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}

// monotonicKSUIDs is streamKSUIDs from a monotonic generator.
func monotonicKSUIDs(b *testing.B) []ksuid.KSUID {
	i := 0
	clock := func() time.Time { return streamStart.Add(time.Duration(i/idsPerSecond) * time.Second) }
	g := ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(clock))
	ids := make([]ksuid.KSUID, loadRows)
	for ; i < loadRows; i++ {
		id, err := g.New()
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}

// newLayoutKSUIDs is streamKSUIDs laid out as ksuid.New lays out its IDs
// (the fraction of the second, then random bits), from NewAt at the
// simulated time of each ID: idsPerSecond evenly spread over each second.
func newLayoutKSUIDs(b *testing.B) []ksuid.KSUID {
	ids := make([]ksuid.KSUID, loadRows)
	for i := range ids {
		id, err := ksuid.NewAt(streamStart.Add(time.Duration(i) * time.Second / idsPerSecond))
		if err != nil {
			b.Fatal(err)
		}
		ids[i] = id
	}
	return ids
}

var (
	pgOnce sync.Once
	pgPool *pgxpool.Pool
	pgErr  error
)

// benchPostgres returns a pool with sqltype registered, on the server
// named by SORTID_BENCH_POSTGRES_URL or in a container started once.
func benchPostgres(b *testing.B) *pgxpool.Pool {
	pgOnce.Do(func() {
		ctx := context.Background()
		url := os.Getenv("SORTID_BENCH_POSTGRES_URL")
		if url == "" {
			image := os.Getenv("SORTID_TEST_POSTGRES_IMAGE")
			if image == "" {
				image = "postgres:18"
			}
			if url, pgErr = runPostgres(ctx, image); pgErr != nil {
				return
			}
		}
		cfg, err := pgxpool.ParseConfig(url)
		if err != nil {
			pgErr = err
			return
		}
		// The domains and functions of `sortid sql`, before the pool's
		// connections are made, so that AfterConnect registers them.
		conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
		if err != nil {
			pgErr = err
			return
		}
		pgErr = sqltype.Install(ctx, conn, "")
		conn.Close(ctx)
		if pgErr != nil {
			return
		}
		cfg.AfterConnect = sqltype.AfterConnect
		cfg.MaxConns = 8 // one per writer of BenchmarkPostgresWriters
		pgPool, pgErr = pgxpool.NewWithConfig(ctx, cfg)
	})
	if pgErr != nil {
		b.Fatalf("no PostgreSQL for the benchmark (set SORTID_BENCH_POSTGRES_URL, or run make bench-postgres): %v", pgErr)
	}
	return pgPool
}

// runPostgres starts a container of a PostgreSQL image, which TestMain
// removes after the benchmarks, and returns its URL.
func runPostgres(ctx context.Context, image string) (string, error) {
	tclog.SetDefault(tclog.NewNoopLogger())
	c, err := postgres.Run(ctx, image, postgres.WithDatabase("bench"),
		postgres.WithUsername("bench"), postgres.WithPassword("bench"), postgres.BasicWaitStrategies())
	if c != nil {
		containers = append(containers, c)
	}
	if err != nil {
		return "", err
	}
	return c.ConnectionString(ctx, "sslmode=disable")
}

// containers are removed by TestMain after the benchmarks.
var containers []testcontainers.Container

func TestMain(m *testing.M) {
	code := m.Run()
	if pgPool != nil {
		pgPool.Close()
	}
	for _, c := range containers {
		c.Terminate(context.Background(), testcontainers.StopTimeout(time.Second))
	}
	os.Exit(code)
}
