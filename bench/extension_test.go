package bench

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/pgsql"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// The sortid extension (extension/) against its peers on one PostgreSQL
// server: by default 18 (a container of SORTID_TEST_POSTGRES_IMAGE, the
// test image of Debian's 18.6 that carries the extension and pg_uuidv7);
// SORTID_BENCH_PG=15 or 17 takes SORTID_TEST_POSTGRES15_IMAGE or
// SORTID_TEST_POSTGRES17_IMAGE instead, and SORTID_BENCH_POSTGRES_URL a
// running server. Two databases: one with the extension and one with the
// domains of `sortid sql`. Each comparison runs 5 rounds of both sides,
// one after the other (which goes first alternates), and reports the
// median rate of each, and the median, smallest and largest ratio of the
// pairs: on a small shared machine the state of the moment moves more
// than the difference measured, and a pair shares it.
//
//	make bench-extension

const extRows = 1_000_000

var (
	extOnce              sync.Once
	extPool, domainsPool *pgxpool.Pool
	extURL               string
	extErr               error
)

// benchExtension returns pools (with sqltype.AfterConnect) on the
// extension's database and on the domains' database of one server.
func benchExtension(b *testing.B) (ext, domains *pgxpool.Pool) {
	extOnce.Do(func() {
		ctx := context.Background()
		url := os.Getenv("SORTID_BENCH_POSTGRES_URL")
		if url == "" {
			imageVar := "SORTID_TEST_POSTGRES_IMAGE"
			if v := os.Getenv("SORTID_BENCH_PG"); v != "" && v != "18" {
				imageVar = "SORTID_TEST_POSTGRES" + v + "_IMAGE"
			}
			image := os.Getenv(imageVar)
			if image == "" {
				extErr = fmt.Errorf("%s is not set (scripts/testenv.sh builds the image with the extension)", imageVar)
				return
			}
			if url, extErr = runPostgres(ctx, image); extErr != nil {
				return
			}
		}
		extURL = url
		open := func(database, install string) (*pgxpool.Pool, error) {
			admin, err := pgx.Connect(ctx, url)
			if err != nil {
				return nil, err
			}
			defer admin.Close(ctx)
			for _, sql := range []string{"DROP DATABASE IF EXISTS " + database + " WITH (FORCE)", "CREATE DATABASE " + database} {
				if _, err := admin.Exec(ctx, sql); err != nil {
					return nil, err
				}
			}
			cfg, err := pgxpool.ParseConfig(url)
			if err != nil {
				return nil, err
			}
			cfg.ConnConfig.Database = database
			conn, err := pgx.ConnectConfig(ctx, cfg.ConnConfig)
			if err != nil {
				return nil, err
			}
			_, err = conn.Exec(ctx, install)
			conn.Close(ctx)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", database, err)
			}
			cfg.AfterConnect = sqltype.AfterConnect
			return pgxpool.NewWithConfig(ctx, cfg)
		}
		script, err := pgsql.ScriptForOneQuery("")
		if err != nil {
			extErr = err
			return
		}
		if extPool, extErr = open("bench_extension", "CREATE EXTENSION sortid"); extErr != nil {
			return
		}
		domainsPool, extErr = open("bench_domains", script)
	})
	if extErr != nil {
		b.Fatalf("no PostgreSQL with the extension for the benchmark (run make bench-extension): %v", extErr)
	}
	return extPool, domainsPool
}

// pairedRates runs subject and peer 5 times each, alternating which goes
// first, and reports their median rates and the ratios subject/peer.
func pairedRates(b *testing.B, subjectName, peerName string, subject, peer func() float64) {
	median := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2]
	}
	for b.Loop() {
		var subjects, peers, ratios []float64
		for round := range 5 {
			var s, p float64
			if round%2 == 0 {
				s, p = subject(), peer()
			} else {
				p, s = peer(), subject()
			}
			subjects, peers, ratios = append(subjects, s), append(peers, p), append(ratios, s/p)
			b.Logf("round %d: %s %.0f/s, %s %.0f/s, ratio %.3f", round+1, subjectName, s, peerName, p, s/p)
		}
		b.ReportMetric(median(subjects), subjectName+"/s")
		b.ReportMetric(median(peers), peerName+"/s")
		b.ReportMetric(median(ratios), "ratio-median")
		b.ReportMetric(slices.Min(ratios), "ratio-min")
		b.ReportMetric(slices.Max(ratios), "ratio-max")
	}
}

// rate times one statement that handles n rows, in rows per second.
func rate(b *testing.B, pool *pgxpool.Pool, n int, sql string, args ...any) float64 {
	ctx := context.Background()
	start := time.Now()
	if _, err := pool.Exec(ctx, sql, args...); err != nil {
		b.Fatalf("%s: %v", sql, err)
	}
	return float64(n) / time.Since(start).Seconds()
}

// BenchmarkPostgresExtensionGenerate: ksuid_generate() in C against a
// sequence's nextval(), and for reference PostgreSQL's gen_random_uuid(),
// the extension's uuidv7_generate() and the SQL ksuid_generate() of the
// domains' install, each 1,000,000 times in one statement. On 18 also
// ksuid_generate() and uuidv7_generate() against PostgreSQL's own
// uuidv7(), and ksuid_generate() against pg_uuidv7's uuid_generate_v7().
func BenchmarkPostgresExtensionGenerate(b *testing.B) {
	ext, domains := benchExtension(b)
	if _, err := ext.Exec(context.Background(), "CREATE SEQUENCE IF NOT EXISTS bench_seq"); err != nil {
		b.Fatal(err)
	}
	var version int
	if err := ext.QueryRow(context.Background(), "SELECT current_setting('server_version_num')::int").Scan(&version); err != nil {
		b.Fatal(err)
	}
	count := func(pool *pgxpool.Pool, expr string) func() float64 {
		return func() float64 {
			return rate(b, pool, extRows, fmt.Sprintf("SELECT count(%s) FROM generate_series(1, %d)", expr, extRows))
		}
	}
	nextval := count(ext, "nextval('bench_seq')")
	for _, tc := range []struct {
		name string
		f    func() float64
	}{
		{"ksuid_generate-C", count(ext, "ksuid_generate()")},
		{"uuidv7_generate-C", count(ext, "uuidv7_generate()")},
		{"gen_random_uuid", count(ext, "gen_random_uuid()")},
		{"ksuid_generate-SQL", count(domains, "ksuid_generate()")},
	} {
		b.Run(tc.name+"-vs-nextval", func(b *testing.B) { pairedRates(b, tc.name, "nextval", tc.f, nextval) })
	}
	if version < 180000 {
		b.Logf("PostgreSQL %d has no uuidv7(), and the test image no pg_uuidv7: the pairs against them run on 18", version/10000)
		return
	}
	if _, err := ext.Exec(context.Background(), "CREATE EXTENSION IF NOT EXISTS pg_uuidv7"); err != nil {
		b.Fatal(err)
	}
	builtin := count(ext, "uuidv7()")
	b.Run("ksuid_generate-C-vs-uuidv7", func(b *testing.B) {
		pairedRates(b, "ksuid_generate-C", "uuidv7", count(ext, "ksuid_generate()"), builtin)
	})
	b.Run("uuidv7_generate-C-vs-uuidv7", func(b *testing.B) {
		pairedRates(b, "uuidv7_generate-C", "uuidv7", count(ext, "uuidv7_generate()"), builtin)
	})
	b.Run("ksuid_generate-C-vs-pg_uuidv7", func(b *testing.B) {
		pairedRates(b, "ksuid_generate-C", "uuid_generate_v7", count(ext, "ksuid_generate()"), count(ext, "uuid_generate_v7()"))
	})
}

// loadTable makes table afresh, one column id of type column, without
// autovacuum, copies rows into it and analyzes it.
func loadTable(b *testing.B, pool *pgxpool.Pool, table, column string, rows [][]any) {
	ctx := context.Background()
	for _, sql := range []string{"DROP TABLE IF EXISTS " + table, "CREATE TABLE " + table + " (id " + column + ") WITH (autovacuum_enabled = false)"} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{table}, []string{"id"}, pgx.CopyFromRows(rows)); err != nil {
		b.Fatal(err)
	}
	if _, err := pool.Exec(ctx, "VACUUM ANALYZE "+table); err != nil {
		b.Fatal(err)
	}
}

// settingConn is a connection of pool with one setting changed; release
// resets it and gives the connection back.
func settingConn(b *testing.B, pool *pgxpool.Pool, name, value string) (*pgxpool.Conn, func()) {
	ctx := context.Background()
	conn, err := pool.Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "SELECT set_config($1, $2, false)", name, value); err != nil {
		conn.Release()
		b.Fatal(err)
	}
	return conn, func() {
		conn.Exec(ctx, "RESET "+name)
		conn.Release()
	}
}

// BenchmarkPostgresExtensionSort: sorting 1,000,000 stored KSUIDs against
// 1,000,000 stored UUIDv7s in uuid, both made by the client at random
// times over 30 days and stored in random order: CREATE INDEX, and an
// ORDER BY that spills past work_mem (4MB).
func BenchmarkPostgresExtensionSort(b *testing.B) {
	ext, _ := benchExtension(b)
	ctx := context.Background()
	r := rand.New(rand.NewPCG(5, 6))
	start := time.Now().Add(-30 * 24 * time.Hour)
	ks, us := make([][]any, extRows), make([][]any, extRows)
	for i := range extRows {
		at := start.Add(time.Duration(r.Int64N(int64(30 * 24 * time.Hour))))
		ks[i] = []any{must(ksuid.NewAt(at))}
		us[i] = []any{pgtype.UUID{Bytes: must(uuidv7.NewAt(at)), Valid: true}}
	}
	loadTable(b, ext, "bench_sort_ksuid", "ksuid", ks)
	loadTable(b, ext, "bench_sort_uuid", "uuid", us)
	index := func(table string) func() float64 {
		return func() float64 {
			ext.Exec(ctx, "DROP INDEX IF EXISTS "+table+"_id")
			r := rate(b, ext, extRows, "CREATE INDEX "+table+"_id ON "+table+" (id)")
			ext.Exec(ctx, "DROP INDEX IF EXISTS "+table+"_id")
			return r
		}
	}
	b.Run("create-index-ksuid-vs-uuid", func(b *testing.B) {
		pairedRates(b, "ksuid-index", "uuid-index", index("bench_sort_ksuid"), index("bench_sort_uuid"))
	})
	orderBy := func(table string) func() float64 {
		return func() float64 {
			conn, release := settingConn(b, ext, "work_mem", "4MB")
			defer release()
			start := time.Now()
			var n int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM (SELECT id FROM "+table+" ORDER BY id OFFSET 0) s").Scan(&n); err != nil || n != extRows {
				b.Fatalf("ORDER BY on %s: %d rows, %v", table, n, err)
			}
			return float64(extRows) / time.Since(start).Seconds()
		}
	}
	b.Run("order-by-spilled-ksuid-vs-uuid", func(b *testing.B) {
		pairedRates(b, "ksuid-order-by", "uuid-order-by", orderBy("bench_sort_ksuid"), orderBy("bench_sort_uuid"))
	})
}

// BenchmarkPostgresExtensionBRIN: a table of 1,000,000 KSUIDs made over 30
// days and stored in time order, indexed by a B-tree and, in a copy, by
// BRIN: the size of each index, and the rate of one-hour window counts
// (100 windows at random hours, with sequential scans off) on each.
func BenchmarkPostgresExtensionBRIN(b *testing.B) {
	ext, _ := benchExtension(b)
	ctx := context.Background()
	start := time.Now().Add(-30 * 24 * time.Hour).Truncate(time.Hour)
	step := 30 * 24 * time.Hour / extRows
	rows := make([][]any, extRows)
	for i := range rows {
		rows[i] = []any{must(ksuid.NewAt(start.Add(time.Duration(i) * step)))}
	}
	sizes := map[string]int64{}
	for table, index := range map[string]string{"bench_brin_btree": "", "bench_brin_brin": "USING brin"} {
		loadTable(b, ext, table, "ksuid", rows)
		if _, err := ext.Exec(ctx, "CREATE INDEX "+table+"_id ON "+table+" "+index+" (id)"); err != nil {
			b.Fatal(err)
		}
		var size int64
		if err := ext.QueryRow(ctx, "SELECT pg_relation_size('"+table+"_id')").Scan(&size); err != nil {
			b.Fatal(err)
		}
		sizes[table] = size
	}
	b.Logf("index bytes over 1,000,000 KSUIDs: B-tree %d, BRIN %d", sizes["bench_brin_btree"], sizes["bench_brin_brin"])
	windows := func(table string) func() float64 {
		return func() float64 {
			conn, release := settingConn(b, ext, "enable_seqscan", "off")
			defer release()
			r := rand.New(rand.NewPCG(7, 8))
			began := time.Now()
			for range 100 {
				from := start.Add(time.Duration(r.IntN(29*24)) * time.Hour)
				var n int
				if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id >= ksuid_min_at($1) AND id < ksuid_min_at($2)",
					from, from.Add(time.Hour)).Scan(&n); err != nil || n < extRows/(30*24)-2 || n > extRows/(30*24)+2 {
					b.Fatalf("window on %s: %d rows, %v", table, n, err)
				}
			}
			return 100 / time.Since(began).Seconds()
		}
	}
	b.Run("window-brin-vs-btree", func(b *testing.B) {
		pairedRates(b, "brin-windows", "btree-windows", windows("bench_brin_brin"), windows("bench_brin_btree"))
	})
}

// BenchmarkPostgresExtensionText: id::text over 1,000,000 stored KSUIDs
// (the extension's output function) against the same over 1,000,000
// stored uuids, and the domains' ksuid_to_text for reference.
func BenchmarkPostgresExtensionText(b *testing.B) {
	ext, domains := benchExtension(b)
	ctx := context.Background()
	for _, sql := range []string{
		fmt.Sprintf("CREATE TABLE IF NOT EXISTS bench_text_ksuid AS SELECT ksuid_generate() AS id FROM generate_series(1, %d)", extRows),
		fmt.Sprintf("CREATE TABLE IF NOT EXISTS bench_text_uuid AS SELECT gen_random_uuid() AS id FROM generate_series(1, %d)", extRows),
		"VACUUM ANALYZE bench_text_ksuid", "VACUUM ANALYZE bench_text_uuid",
	} {
		if _, err := ext.Exec(ctx, sql); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := domains.Exec(ctx, fmt.Sprintf("CREATE TABLE IF NOT EXISTS bench_text_ksuid AS SELECT ksuid_generate() AS id FROM generate_series(1, %d)", extRows)); err != nil {
		b.Fatal(err)
	}
	uuidText := func() float64 { return rate(b, ext, extRows, "SELECT count(id::text) FROM bench_text_uuid") }
	b.Run("ksuid-vs-uuid", func(b *testing.B) {
		pairedRates(b, "ksuid-text", "uuid-text", func() float64 { return rate(b, ext, extRows, "SELECT count(id::text) FROM bench_text_ksuid") }, uuidText)
	})
	b.Run("domain-ksuid_to_text-vs-uuid", func(b *testing.B) {
		pairedRates(b, "domain-text", "uuid-text", func() float64 {
			return rate(b, domains, extRows/10, "SELECT count(ksuid_to_text(id)) FROM (SELECT id FROM bench_text_ksuid LIMIT $1) s", extRows/10)
		}, uuidText)
	})
}

// BenchmarkPostgresExtensionInsert: INSERT ... SELECT of 1,000,000 rows
// into a table keyed by ksuid DEFAULT ksuid_generate() against one keyed
// by bigserial, and gen_random_uuid() and the domain's SQL default for
// reference; each table is new, with autovacuum off, after a checkpoint.
func BenchmarkPostgresExtensionInsert(b *testing.B) {
	ext, domains := benchExtension(b)
	load := func(pool *pgxpool.Pool, key string) func() float64 {
		return func() float64 {
			ctx := context.Background()
			table := "bench_" + fmt.Sprint(time.Now().UnixNano())
			if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id "+key+" PRIMARY KEY, n int) WITH (autovacuum_enabled = false)"); err != nil {
				b.Fatal(err)
			}
			defer pool.Exec(ctx, "DROP TABLE "+table)
			if _, err := pool.Exec(ctx, "CHECKPOINT"); err != nil {
				b.Fatal(err)
			}
			return rate(b, pool, extRows, fmt.Sprintf("INSERT INTO %s (n) SELECT g FROM generate_series(1, %d) g", table, extRows))
		}
	}
	bigserial := load(ext, "bigserial")
	for _, tc := range []struct {
		name string
		f    func() float64
	}{
		{"ksuid-C-default", load(ext, "ksuid DEFAULT ksuid_generate()")},
		{"uuid-gen_random_uuid", load(ext, "uuid DEFAULT gen_random_uuid()")},
		{"ksuid-domain-SQL-default", load(domains, "ksuid DEFAULT ksuid_generate()")},
	} {
		b.Run(tc.name+"-vs-bigserial", func(b *testing.B) { pairedRates(b, tc.name, "bigserial", tc.f, bigserial) })
	}
}

// BenchmarkPostgresExtensionCopy: pgx.CopyFrom of 1,000,000 monotonic
// KSUIDs made by the client into the extension's type against the same
// into the domain, and against client UUIDv7s into uuid; it logs the
// primary key's index size of each, and the type's rate with sqltype's
// hook (raw bytes) against without it (the text). Then 10,000 lookups by ID on each
// table, one query each (the type against the domain).
func BenchmarkPostgresExtensionCopy(b *testing.B) {
	ext, domains := benchExtension(b)
	g := ksuid.NewGenerator(ksuid.WithMonotonic())
	ids := make([]ksuid.KSUID, extRows)
	for i := range ids {
		ids[i] = must(g.New())
	}
	v7 := make([]pgtype.UUID, extRows)
	for i := range v7 {
		v7[i] = pgtype.UUID{Bytes: uuid.Must(uuid.NewV7()), Valid: true}
	}
	sizes := map[string]int64{}
	var mu sync.Mutex
	load := func(pool *pgxpool.Pool, name, column string, value func(int) any) func() float64 {
		return func() float64 {
			ctx := context.Background()
			table := "bench_copy_" + name
			pool.Exec(ctx, "DROP TABLE IF EXISTS "+table)
			if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id "+column+" PRIMARY KEY) WITH (autovacuum_enabled = false)"); err != nil {
				b.Fatal(err)
			}
			if _, err := pool.Exec(ctx, "CHECKPOINT"); err != nil {
				b.Fatal(err)
			}
			start := time.Now()
			n, err := pool.CopyFrom(ctx, pgx.Identifier{table}, []string{"id"},
				pgx.CopyFromSlice(extRows, func(i int) ([]any, error) { return []any{value(i)}, nil }))
			took := time.Since(start)
			if err != nil || n != extRows {
				b.Fatalf("COPY into %s: %d rows, %v", column, n, err)
			}
			var size int64
			if err := pool.QueryRow(ctx, "SELECT pg_relation_size('"+table+"_pkey')").Scan(&size); err != nil {
				b.Fatal(err)
			}
			mu.Lock()
			sizes[name] = size
			mu.Unlock()
			return float64(extRows) / took.Seconds()
		}
	}
	typ := load(ext, "type", "ksuid", func(i int) any { return ids[i] })
	b.Run("type-vs-domain", func(b *testing.B) {
		pairedRates(b, "ksuid-type", "ksuid-domain", typ, load(domains, "domain", "ksuid", func(i int) any { return ids[i] }))
	})
	b.Run("type-vs-uuidv7", func(b *testing.B) {
		pairedRates(b, "ksuid-type", "uuidv7-uuid", typ, load(ext, "uuid", "uuid", func(i int) any { return v7[i] }))
	})
	b.Run("hook-vs-no-hook", func(b *testing.B) {
		// Without sqltype's hook pgx sends each KSUID's text in the
		// binary format, which the type's receive function parses.
		cfg := ext.Config().Copy()
		cfg.AfterConnect = nil
		bare, err := pgxpool.NewWithConfig(context.Background(), cfg)
		if err != nil {
			b.Fatal(err)
		}
		defer bare.Close()
		pairedRates(b, "with-hook", "no-hook", typ, load(bare, "nohook", "ksuid", func(i int) any { return ids[i] }))
	})
	b.Logf("primary key index bytes after 1,000,000 rows: type %d, domain %d, uuid %d", sizes["type"], sizes["domain"], sizes["uuid"])
	b.Run("lookups-type-vs-domain", func(b *testing.B) {
		lookups := func(pool *pgxpool.Pool, table string) func() float64 {
			return func() float64 {
				ctx := context.Background()
				start := time.Now()
				for i := range 10_000 {
					var found ksuid.KSUID
					if err := pool.QueryRow(ctx, "SELECT id FROM "+table+" WHERE id = $1", ids[i*97]).Scan(&found); err != nil || found != ids[i*97] {
						b.Fatalf("lookup in %s: %s (%v)", table, found, err)
					}
				}
				return 10_000 / time.Since(start).Seconds()
			}
		}
		for _, pool := range []*pgxpool.Pool{ext, domains} {
			pool.Exec(context.Background(), "VACUUM ANALYZE bench_copy_type")
			pool.Exec(context.Background(), "VACUUM ANALYZE bench_copy_domain")
		}
		pairedRates(b, "type-lookups", "domain-lookups", lookups(ext, "bench_copy_type"), lookups(domains, "bench_copy_domain"))
	})
}

// BenchmarkPostgresExtensionConvert: the time `sortid sql to-extension`
// takes to convert a table of 1,000,000 rows keyed by the ksuid domain,
// with a second ksuid column under an index of its own, in a database of
// its own each round (5 rounds; the median, smallest and largest).
func BenchmarkPostgresExtensionConvert(b *testing.B) {
	benchExtension(b)
	ctx := context.Background()
	script, err := pgsql.ScriptForOneQuery("")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		var took []float64
		for round := range 5 {
			admin, err := pgx.Connect(ctx, extURL)
			if err != nil {
				b.Fatal(err)
			}
			for _, sql := range []string{"DROP DATABASE IF EXISTS bench_convert WITH (FORCE)", "CREATE DATABASE bench_convert"} {
				if _, err := admin.Exec(ctx, sql); err != nil {
					b.Fatal(err)
				}
			}
			cfg, err := pgx.ParseConfig(extURL)
			if err != nil {
				b.Fatal(err)
			}
			cfg.Database = "bench_convert"
			conn, err := pgx.ConnectConfig(ctx, cfg)
			if err != nil {
				b.Fatal(err)
			}
			for _, sql := range []string{script,
				"CREATE TABLE orders (id ksuid PRIMARY KEY DEFAULT ksuid_generate(), parent ksuid, n int)",
				fmt.Sprintf("INSERT INTO orders (parent, n) SELECT ksuid_generate(), g FROM generate_series(1, %d) g", extRows),
				"CREATE INDEX orders_parent ON orders (parent)", "VACUUM ANALYZE orders", "CHECKPOINT",
			} {
				if _, err := conn.Exec(ctx, sql); err != nil {
					b.Fatal(err)
				}
			}
			start := time.Now()
			if _, err := conn.Exec(ctx, pgsql.ToExtension()); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start).Seconds())
			var typ string
			if err := conn.QueryRow(ctx, "SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'id'").Scan(&typ); err != nil || typ != "ksuid" {
				b.Fatalf("after the conversion the column is %q (%v)", typ, err)
			}
			b.Logf("round %d: converted %d rows in %.2f s", round+1, extRows, took[round])
			conn.Close(ctx)
			admin.Exec(ctx, "DROP DATABASE bench_convert WITH (FORCE)")
			admin.Close(ctx)
		}
		slices.Sort(took)
		b.ReportMetric(took[2], "s-median")
		b.ReportMetric(took[0], "s-min")
		b.ReportMetric(took[4], "s-max")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// BenchmarkPostgresColumnTypes: the four ways to hold a KSUID key side by
// side, in one run: the extension's ksuid type, the text domain of
// `sortid sql` (text COLLATE "C" with a CHECK), the bytea domain earlier
// development versions installed (made here, as they made it), and for
// reference UUIDv7s in PostgreSQL's uuid. Each round loads 1,000,000
// client IDs into each by COPY (the order rotates from round to round),
// reads the primary key's size, then runs 10,000 lookups by ID in each;
// 5 rounds. Reported: the median rate of each, and the median, smallest
// and largest ratio of the pairs the goals name (text domain / uuid COPY,
// text domain / type lookups).
func BenchmarkPostgresColumnTypes(b *testing.B) {
	ext, domains := benchExtension(b)
	ctx := context.Background()
	if _, err := domains.Exec(ctx, `DO $$ BEGIN CREATE DOMAIN ksuid_bytea AS bytea CHECK (octet_length(VALUE) = 20);
		EXCEPTION WHEN duplicate_object THEN NULL; END $$`); err != nil {
		b.Fatal(err)
	}
	g := ksuid.NewGenerator(ksuid.WithMonotonic())
	ids := make([]ksuid.KSUID, extRows)
	for i := range ids {
		ids[i] = must(g.New())
	}
	v7 := make([]uuidv7.UUID, extRows)
	ug := uuidv7.NewGenerator()
	for i := range v7 {
		v7[i] = must(ug.New())
	}
	type side struct {
		name, column string
		pool         *pgxpool.Pool
		value        func(int) any
	}
	sides := []side{
		{"type", "ksuid", ext, func(i int) any { return ids[i] }},
		{"text-domain", "ksuid", domains, func(i int) any { return ids[i] }},
		{"bytea-domain", "ksuid_bytea", domains, func(i int) any { return ids[i][:] }},
		{"uuid", "uuid", ext, func(i int) any { return v7[i] }},
	}
	table := func(s side) string { return "bench_types_" + strings.ReplaceAll(s.name, "-", "_") }
	load := func(s side) (float64, int64) {
		t := table(s)
		s.pool.Exec(ctx, "DROP TABLE IF EXISTS "+t)
		if _, err := s.pool.Exec(ctx, "CREATE TABLE "+t+" (id "+s.column+" PRIMARY KEY) WITH (autovacuum_enabled = false)"); err != nil {
			b.Fatal(err)
		}
		if _, err := s.pool.Exec(ctx, "CHECKPOINT"); err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		n, err := s.pool.CopyFrom(ctx, pgx.Identifier{t}, []string{"id"},
			pgx.CopyFromSlice(extRows, func(i int) ([]any, error) { return []any{s.value(i)}, nil }))
		took := time.Since(start)
		if err != nil || n != extRows {
			b.Fatalf("COPY into %s: %d rows, %v", s.name, n, err)
		}
		var size int64
		if err := s.pool.QueryRow(ctx, "SELECT pg_relation_size('"+t+"_pkey')").Scan(&size); err != nil {
			b.Fatal(err)
		}
		if _, err := s.pool.Exec(ctx, "VACUUM ANALYZE "+t); err != nil {
			b.Fatal(err)
		}
		return float64(extRows) / took.Seconds(), size
	}
	lookups := func(s side) float64 {
		t := table(s)
		start := time.Now()
		for i := range 10_000 {
			var n int
			if err := s.pool.QueryRow(ctx, "SELECT count(*) FROM "+t+" WHERE id = $1", s.value(i*97)).Scan(&n); err != nil || n != 1 {
				b.Fatalf("lookup in %s: %d rows (%v)", s.name, n, err)
			}
		}
		return 10_000 / time.Since(start).Seconds()
	}
	median := func(xs []float64) float64 {
		s := slices.Clone(xs)
		slices.Sort(s)
		return s[len(s)/2]
	}
	for b.Loop() {
		copyRates := map[string][]float64{}
		lookupRates := map[string][]float64{}
		sizes := map[string]int64{}
		for round := range 5 {
			for k := range sides {
				s := sides[(k+round)%len(sides)]
				r, size := load(s)
				copyRates[s.name] = append(copyRates[s.name], r)
				sizes[s.name] = size
			}
			for k := range sides {
				s := sides[(k+round)%len(sides)]
				lookupRates[s.name] = append(lookupRates[s.name], lookups(s))
			}
			b.Logf("round %d: COPY/s type %.0f, text domain %.0f, bytea domain %.0f, uuid %.0f; lookups/s type %.0f, text domain %.0f, bytea domain %.0f, uuid %.0f",
				round+1, copyRates["type"][round], copyRates["text-domain"][round], copyRates["bytea-domain"][round], copyRates["uuid"][round],
				lookupRates["type"][round], lookupRates["text-domain"][round], lookupRates["bytea-domain"][round], lookupRates["uuid"][round])
		}
		ratios := func(a, c map[string][]float64, x, y string) []float64 {
			out := make([]float64, 5)
			for i := range out {
				out[i] = a[x][i] / c[y][i]
			}
			return out
		}
		for _, s := range sides {
			b.ReportMetric(median(copyRates[s.name]), s.name+"-copy/s")
			b.ReportMetric(median(lookupRates[s.name]), s.name+"-lookups/s")
			b.ReportMetric(float64(sizes[s.name])/(1<<20), s.name+"-index-MiB")
		}
		for _, p := range []struct {
			name string
			xs   []float64
		}{
			{"copy-text/uuid", ratios(copyRates, copyRates, "text-domain", "uuid")},
			{"copy-bytea/uuid", ratios(copyRates, copyRates, "bytea-domain", "uuid")},
			{"copy-type/uuid", ratios(copyRates, copyRates, "type", "uuid")},
			{"lookups-text/type", ratios(lookupRates, lookupRates, "text-domain", "type")},
		} {
			b.ReportMetric(median(p.xs), p.name+"-median")
			b.ReportMetric(slices.Min(p.xs), p.name+"-min")
			b.ReportMetric(slices.Max(p.xs), p.name+"-max")
		}
	}
}

// BenchmarkPostgresCheck: sqltype.Check, the query behind sortid check,
// on a database of 1,000 tables, each with four columns that may hold
// IDs (a varchar key and reference under the default collation, a text,
// a bytea) and 100 rows; 5 runs, the median and range of the time.
//
//	cd bench && env $(../scripts/testenv.sh) go test -run '^$' -bench PostgresCheck -benchtime 1x -v
func BenchmarkPostgresCheck(b *testing.B) {
	ext, _ := benchExtension(b)
	ctx := context.Background()
	if _, err := ext.Exec(ctx, `DROP SCHEMA IF EXISTS check1000 CASCADE; CREATE SCHEMA check1000;
		DO $$ BEGIN FOR i IN 1..1000 LOOP
			EXECUTE format('CREATE TABLE check1000.t%s (id varchar(27) PRIMARY KEY, name text, blob bytea, ref varchar(27))', i);
			EXECUTE format('INSERT INTO check1000.t%s SELECT ksuid_generate()::text, ''n'' || g, ''\x00'', ksuid_generate()::text FROM generate_series(1, 100) g', i);
		END LOOP; END $$`); err != nil {
		b.Fatal(err)
	}
	defer ext.Exec(ctx, "DROP SCHEMA check1000 CASCADE")
	conn, err := pgx.ConnectConfig(ctx, ext.Config().ConnConfig)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	for b.Loop() {
		var took []float64
		for range 5 {
			start := time.Now()
			findings, columns, err := sqltype.Check(ctx, conn)
			if err != nil || columns < 4000 || len(findings) < 2000 {
				b.Fatalf("Check: %d findings of %d columns, %v", len(findings), columns, err)
			}
			took = append(took, time.Since(start).Seconds())
		}
		b.Logf("Check on 1,000 tables (s): %.2f", took)
		slices.Sort(took)
		b.ReportMetric(took[2], "s-median")
		b.ReportMetric(took[0], "s-min")
		b.ReportMetric(took[4], "s-max")
	}
}
