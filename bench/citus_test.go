package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/testcontainers/testcontainers-go"
	"github.com/testcontainers/testcontainers-go/modules/postgres"
	"github.com/testcontainers/testcontainers-go/network"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// What distribution costs and gives: a Citus 14 cluster (a coordinator
// and two workers, the image SORTID_TEST_CITUS_IMAGE that
// scripts/testenv.sh builds) against one server of the same image
// without Citus, both with the sortid extension, on the same machine.
// Each comparison runs 5 rounds of both sides (pairedRates).
//
//	make bench-citus

const citusBenchShards = 32

const (
	citusBenchRows  = 1_000_000
	citusWindowDays = 30
)

var (
	citusOnce               sync.Once
	citusCoord, citusSingle *pgxpool.Pool
	citusBenchErr           error
)

// benchCitus returns pools (with sqltype.AfterConnect, 16 connections) on
// the cluster's coordinator and on the single server, each in a database
// with CREATE EXTENSION sortid.
func benchCitus(b *testing.B) (coord, single *pgxpool.Pool) {
	citusOnce.Do(func() {
		ctx := context.Background()
		image := os.Getenv("SORTID_TEST_CITUS_IMAGE")
		if image == "" {
			citusBenchErr = errors.New("SORTID_TEST_CITUS_IMAGE is not set (scripts/testenv.sh builds the Citus image)")
			return
		}
		nw, err := network.New(ctx)
		if err != nil {
			citusBenchErr = err
			return
		}
		names := []string{"coordinator", "worker1", "worker2", "single"}
		urls := make([]string, len(names))
		var wg sync.WaitGroup
		var mu sync.Mutex
		var errs []error
		for i, name := range names {
			wg.Go(func() {
				args := []string{"-c", "max_connections=200", "-c", "shared_buffers=512MB"}
				if name != "single" {
					args = append(args, "-c", "shared_preload_libraries=citus", "-c", "citus.enable_statistics_collection=off", "-c", "max_prepared_transactions=50")
				}
				c, err := postgres.Run(ctx, image, postgres.WithDatabase("bench"), postgres.WithUsername("bench"), postgres.WithPassword("bench"),
					testcontainers.WithEnv(map[string]string{"POSTGRES_HOST_AUTH_METHOD": "trust"}),
					testcontainers.WithCmdArgs(args...), network.WithNetwork([]string{name}, nw), postgres.BasicWaitStrategies())
				mu.Lock()
				defer mu.Unlock()
				if c != nil {
					containers = append(containers, c)
				}
				if err == nil {
					urls[i], err = c.ConnectionString(ctx, "sslmode=disable")
				}
				if err != nil {
					errs = append(errs, fmt.Errorf("%s: %w", name, err))
				}
			})
		}
		wg.Wait()
		if citusBenchErr = errors.Join(errs...); citusBenchErr != nil {
			return
		}
		setup := map[int][]string{
			0: {"CREATE EXTENSION citus", "SELECT citus_set_coordinator_host('coordinator', 5432)",
				"SELECT citus_add_node('worker1', 5432)", "SELECT citus_add_node('worker2', 5432)", "CREATE EXTENSION sortid"},
			1: {"CREATE EXTENSION citus"},
			2: {"CREATE EXTENSION citus"},
			3: {"CREATE EXTENSION sortid"},
		}
		for _, i := range []int{1, 2, 0, 3} {
			conn, err := pgx.Connect(ctx, urls[i])
			if err != nil {
				citusBenchErr = err
				return
			}
			for _, sql := range setup[i] {
				if _, err := conn.Exec(ctx, sql); err != nil {
					conn.Close(ctx)
					citusBenchErr = fmt.Errorf("%s on %s: %w", sql, names[i], err)
					return
				}
			}
			conn.Close(ctx)
		}
		open := func(url string) (*pgxpool.Pool, error) {
			cfg, err := pgxpool.ParseConfig(url)
			if err != nil {
				return nil, err
			}
			cfg.AfterConnect = sqltype.AfterConnect
			cfg.MaxConns = 16
			return pgxpool.NewWithConfig(ctx, cfg)
		}
		if citusCoord, citusBenchErr = open(urls[0]); citusBenchErr != nil {
			return
		}
		citusSingle, citusBenchErr = open(urls[3])
	})
	if citusBenchErr != nil {
		b.Fatalf("no Citus cluster for the benchmark (run make bench-citus): %v", citusBenchErr)
	}
	return citusCoord, citusSingle
}

// citusBenchTable makes table on pool with columns, distributed by id
// where distributed.
func citusBenchTable(b *testing.B, pool *pgxpool.Pool, table, columns string, distributed bool) {
	ctx := context.Background()
	sqls := []string{"DROP TABLE IF EXISTS " + table, "CREATE TABLE " + table + " (" + columns + ")"}
	if distributed {
		sqls = append(sqls, fmt.Sprintf("SELECT create_distributed_table('%s', 'id', shard_count := %d)", table, citusBenchShards))
	}
	for _, sql := range sqls {
		if _, err := pool.Exec(ctx, sql); err != nil {
			b.Fatalf("%s: %v", sql, err)
		}
	}
}

// BenchmarkCitus: on the cluster and on one server, each 5 rounds:
// CopyFrom of 1,000,000 client KSUIDs into a ksuid key against as many
// UUIDv7s into a uuid key; 8 writers inserting one row at a time (20,000
// rows); and the latency of a one-day window over 30 days of rows, by
// the ID against by a timestamptz column with its own index.
func BenchmarkCitus(b *testing.B) {
	coord, single := benchCitus(b)
	g := ksuid.NewGenerator(ksuid.WithMonotonic())
	ks := make([]ksuid.KSUID, citusBenchRows)
	vs := make([]uuidv7.UUID, citusBenchRows)
	for i := range ks {
		ks[i] = must(g.New())
		vs[i] = uuidv7.New()
	}
	copyInto := func(pool *pgxpool.Pool, distributed bool, typ string) func() float64 {
		return func() float64 {
			table := "bench_citus_copy_" + typ
			citusBenchTable(b, pool, table, "id "+typ+" PRIMARY KEY", distributed)
			start := time.Now()
			n, err := pool.CopyFrom(context.Background(), pgx.Identifier{table}, []string{"id"},
				pgx.CopyFromSlice(len(ks), func(i int) ([]any, error) {
					if typ == "uuid" {
						return []any{vs[i]}, nil
					}
					return []any{ks[i]}, nil
				}))
			took := time.Since(start)
			if err != nil || int(n) != len(ks) {
				b.Fatalf("COPY into %s: %d rows, %v", table, n, err)
			}
			return float64(n) / took.Seconds()
		}
	}
	b.Run("copy-cluster-ksuid-vs-uuidv7", func(b *testing.B) {
		pairedRates(b, "ksuid", "uuidv7", copyInto(coord, true, "ksuid"), copyInto(coord, true, "uuid"))
	})
	b.Run("copy-ksuid-cluster-vs-single", func(b *testing.B) {
		pairedRates(b, "cluster", "single", copyInto(coord, true, "ksuid"), copyInto(single, false, "ksuid"))
	})

	const writers, inserts = 8, 20_000
	insert := func(pool *pgxpool.Pool, distributed bool, typ string) func() float64 {
		return func() float64 {
			table := "bench_citus_insert_" + typ
			citusBenchTable(b, pool, table, "id "+typ+" PRIMARY KEY, n int NOT NULL", distributed)
			sql := "INSERT INTO " + table + " (id, n) VALUES ($1, $2)"
			var wg sync.WaitGroup
			errs := make(chan error, writers)
			start := time.Now()
			for w := range writers {
				wg.Go(func() {
					for i := w; i < inserts; i += writers {
						var id any = ks[i]
						if typ == "uuid" {
							id = vs[i]
						}
						if _, err := pool.Exec(context.Background(), sql, id, i); err != nil {
							errs <- err
							return
						}
					}
				})
			}
			wg.Wait()
			took := time.Since(start)
			close(errs)
			for err := range errs {
				b.Fatalf("a writer into %s: %v", table, err)
			}
			return inserts / took.Seconds()
		}
	}
	b.Run("inserts-8-writers-cluster-ksuid-vs-uuidv7", func(b *testing.B) {
		pairedRates(b, "ksuid", "uuidv7", insert(coord, true, "ksuid"), insert(coord, true, "uuid"))
	})
	b.Run("inserts-8-writers-ksuid-cluster-vs-single", func(b *testing.B) {
		pairedRates(b, "cluster", "single", insert(coord, true, "ksuid"), insert(single, false, "ksuid"))
	})

	// Windows: 30 days of rows, one day asked for, by the key and by a
	// timestamptz column with an index of its own; the rate is windows
	// per second (1 / latency) over 20 windows of different days.
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	span := time.Duration(citusWindowDays) * 24 * time.Hour
	loadWindowTable := func(pool *pgxpool.Pool, distributed bool) {
		table := "bench_citus_window"
		citusBenchTable(b, pool, table, "id ksuid PRIMARY KEY, at timestamptz NOT NULL, n int NOT NULL", distributed)
		ctx := context.Background()
		_, err := pool.CopyFrom(ctx, pgx.Identifier{table}, []string{"id", "at", "n"},
			pgx.CopyFromSlice(citusBenchRows, func(i int) ([]any, error) {
				at := start.Add(time.Duration(i) * (span / citusBenchRows))
				return []any{must(ksuid.NewAt(at)), at, i}, nil
			}))
		if err != nil {
			b.Fatal(err)
		}
		for _, sql := range []string{"CREATE INDEX ON " + table + " (at)", "VACUUM ANALYZE " + table} {
			if _, err := pool.Exec(ctx, sql); err != nil {
				b.Fatalf("%s: %v", sql, err)
			}
		}
	}
	wantPerDay := citusBenchRows / citusWindowDays
	window := func(pool *pgxpool.Pool, byID bool) func() float64 {
		return func() float64 {
			ctx := context.Background()
			var took []time.Duration
			for d := range 20 {
				from := start.AddDate(0, 0, 5+d)
				var n int
				t0 := time.Now()
				var err error
				if byID {
					lo, hi, werr := ksuid.Window(from, from.AddDate(0, 0, 1))
					if werr != nil {
						b.Fatal(werr)
					}
					err = pool.QueryRow(ctx, "SELECT count(*), sum(n) FROM bench_citus_window WHERE id >= $1 AND id < $2", lo, hi).Scan(&n, new(int64))
				} else {
					err = pool.QueryRow(ctx, "SELECT count(*), sum(n) FROM bench_citus_window WHERE at >= $1 AND at < $2", from, from.AddDate(0, 0, 1)).Scan(&n, new(int64))
				}
				took = append(took, time.Since(t0))
				if err != nil || n < wantPerDay-1 || n > wantPerDay+1 {
					b.Fatalf("a day's window: %d rows (%v), want %d", n, err, wantPerDay)
				}
			}
			slices.Sort(took)
			return 1 / took[len(took)/2].Seconds()
		}
	}
	load := sync.OnceFunc(func() {
		loadWindowTable(coord, true)
		loadWindowTable(single, false)
	})
	b.Run("window-cluster-by-id-vs-by-timestamptz", func(b *testing.B) {
		load()
		pairedRates(b, "by-id", "by-at", window(coord, true), window(coord, false))
	})
	b.Run("window-single-by-id-vs-by-timestamptz", func(b *testing.B) {
		load()
		pairedRates(b, "by-id", "by-at", window(single, true), window(single, false))
	})
	b.Run("window-by-id-cluster-vs-single", func(b *testing.B) {
		load()
		pairedRates(b, "cluster", "single", window(coord, true), window(single, true))
	})
}
