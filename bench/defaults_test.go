package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/uuidv7"
)

// BenchmarkPostgresDefaults loads 500,000 and 1,000,000 rows whose keys
// the server makes, with INSERT ... SELECT from generate_series, into
// (id <type> PRIMARY KEY DEFAULT <function>, n int): PostgreSQL 18's own
// uuidv7() against sortid's ksuid_generate() (from `sortid sql`), and a
// bigint identity for reference. It reports rows/s and the primary-key
// index; for ksuid_generate also how many keys ksuid_to_text turns into
// text per second on one core, reading them back.
func BenchmarkPostgresDefaults(b *testing.B) {
	pool := benchPostgres(b)
	ctx := context.Background()
	// Both sizes of load, each key in turn (go test -count repeats each
	// sub-benchmark in place).
	for _, rows := range []int64{500_000, loadRows} {
		for _, tc := range []struct{ name, column string }{
			{"bigint-identity", "bigint GENERATED ALWAYS AS IDENTITY"},
			{"uuidv7-default", "uuid DEFAULT uuidv7()"},
			{"ksuid_generate-default", "ksuid DEFAULT ksuid_generate()"},
		} {
			b.Run(fmt.Sprintf("%s/rows=%d", tc.name, rows), func(b *testing.B) {
				var indexBytes int64
				var loaded, toText time.Duration
				for b.Loop() {
					b.StopTimer()
					table := "bench_" + fmt.Sprint(time.Now().UnixNano())
					if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id "+tc.column+" PRIMARY KEY, n int) WITH (autovacuum_enabled = false)"); err != nil {
						b.Fatal(err)
					}
					if _, err := pool.Exec(ctx, "CHECKPOINT"); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
					start := time.Now()
					tag, err := pool.Exec(ctx, "INSERT INTO "+table+" (n) SELECT g FROM generate_series(1, $1) g", rows)
					loaded += time.Since(start)
					b.StopTimer()
					if err != nil || tag.RowsAffected() != rows {
						b.Fatalf("INSERT: %v rows, %v", tag.RowsAffected(), err)
					}
					if err := pool.QueryRow(ctx, "SELECT pg_relation_size('"+table+"_pkey')").Scan(&indexBytes); err != nil {
						b.Fatal(err)
					}
					if tc.name == "ksuid_generate-default" {
						toText += timeToText(b, ctx, table, rows)
					}
					if _, err := pool.Exec(ctx, "DROP TABLE "+table); err != nil {
						b.Fatal(err)
					}
					b.StartTimer()
				}
				b.ReportMetric(float64(rows)*float64(b.N)/loaded.Seconds(), "rows/s")
				b.ReportMetric(float64(indexBytes)/(1<<20), "index-MiB")
				if toText > 0 {
					b.ReportMetric(float64(rows)*float64(b.N)/toText.Seconds(), "to_text-values/s")
				}
			})
		}
	}
}

// timeToText times ksuid_to_text over every key of table, in one backend
// (no parallel workers), and checks the texts against Go's for a sample.
func timeToText(b *testing.B, ctx context.Context, table string, want int64) time.Duration {
	conn, err := benchPostgres(b).Acquire(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SET max_parallel_workers_per_gather = 0"); err != nil {
		b.Fatal(err)
	}
	var n int64
	start := time.Now()
	if err := conn.QueryRow(ctx, "SELECT count(ksuid_to_text(id)) FROM "+table).Scan(&n); err != nil || n != want {
		b.Fatalf("ksuid_to_text over %d rows: %v", n, err)
	}
	took := time.Since(start)
	rows, err := conn.Query(ctx, "SELECT id, ksuid_to_text(id) FROM "+table+" LIMIT 1000", pgx.QueryExecModeExec)
	if err != nil {
		b.Fatal(err)
	}
	var id ksuid.KSUID
	var text string
	_, err = pgx.ForEachRow(rows, []any{&id, &text}, func() error {
		if text != id.String() {
			return fmt.Errorf("ksuid_to_text gave %s for %v", text, id)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return took
}

// gormRow and gormUUIDRow are one table each for BenchmarkPostgresGORM:
// a KSUID key the plugin fills, and a UUIDv7 key a BeforeCreate hook fills,
// the way GORM users give UUIDs to new rows.
type gormRow struct {
	ID ksuid.KSUID
	N  int
}

type gormUUIDRow struct {
	ID uuid.UUID `gorm:"type:uuid"`
	N  int
}

// gormUUIDv7Row has sortid's UUIDv7 key, which the plugin fills; its
// column is uuid as the plugin's AutoMigrate makes it.
type gormUUIDv7Row struct {
	ID uuidv7.UUID
	N  int
}

func (r *gormUUIDRow) BeforeCreate(*gorm.DB) error {
	if r.ID == uuid.Nil {
		r.ID = uuid.Must(uuid.NewV7())
	}
	return nil
}

// BenchmarkPostgresGORM creates loadRows rows with GORM's CreateInBatches
// (batches of 1,000) through gorm.io/driver/postgres opened as users open
// it, postgres.Open(dsn), with no tags: KSUID keys from gormplugin's
// defaults (the ksuid domain, which benchPostgres installs, and the
// monotonic generator) against UUIDv7 keys in a uuid column.
func BenchmarkPostgresGORM(b *testing.B) {
	pool := benchPostgres(b)
	cfg := pool.Config().ConnConfig
	dsn := fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", cfg.Host, cfg.Port, cfg.User, cfg.Password, cfg.Database)
	db, err := gorm.Open(gormpostgres.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		b.Fatal(err)
	}
	// GORM alone, on the table the plugin made: the caller assigns the
	// keys before CreateInBatches, from the same monotonic generator.
	alone, err := gorm.Open(gormpostgres.Open(dsn), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		b.Fatal(err)
	}
	if err := db.Use(gormplugin.New()); err != nil {
		b.Fatal(err)
	}
	g := ksuid.NewGenerator(ksuid.WithMonotonic())
	for _, tc := range []struct {
		name  string
		model any
		rows  func() any
		db    *gorm.DB
	}{
		{"ksuid-plugin", &gormRow{}, func() any { return make([]gormRow, loadRows) }, db},
		{"ksuid-alone", &gormRow{}, func() any {
			rows := make([]gormRow, loadRows)
			for i := range rows {
				rows[i].ID = must(g.New())
			}
			return rows
		}, alone},
		{"uuidv7-hook", &gormUUIDRow{}, func() any { return make([]gormUUIDRow, loadRows) }, db},
		{"uuidv7-plugin", &gormUUIDv7Row{}, func() any { return make([]gormUUIDv7Row, loadRows) }, db},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var loaded time.Duration
			var indexBytes int64
			for b.Loop() {
				b.StopTimer()
				if err := db.Migrator().DropTable(tc.model); err != nil {
					b.Fatal(err)
				}
				if err := db.AutoMigrate(tc.model); err != nil {
					b.Fatal(err)
				}
				db.Exec("CHECKPOINT")
				rows := tc.rows()
				b.StartTimer()
				start := time.Now()
				res := tc.db.CreateInBatches(rows, 1000)
				loaded += time.Since(start)
				b.StopTimer()
				if res.Error != nil || res.RowsAffected != loadRows {
					b.Fatalf("CreateInBatches: %d rows, %v", res.RowsAffected, res.Error)
				}
				stmt := &gorm.Statement{DB: db}
				stmt.Parse(tc.model)
				if err := db.Raw("SELECT pg_relation_size(?)", stmt.Table+"_pkey").Row().Scan(&indexBytes); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(loadRows)*float64(b.N)/loaded.Seconds(), "rows/s")
			b.ReportMetric(float64(indexBytes)/(1<<20), "index-MiB")
		})
	}
}

// BenchmarkPostgresGORMLookup: First(&row, "id = ?", id) through GORM
// with the plugin against GORM alone, paired: 5 rounds, each 5,000
// lookups by the ID (a ksuid.KSUID) on each side, which goes first
// alternating; the median rates and the median, smallest and largest
// ratio plugin/alone. Then the first lookup of a table on a fresh
// *gorm.DB (a new pool, its connection made), where the plugin checks the
// table's ID columns once, against the same without the plugin: 5
// rounds of 20 each.
func BenchmarkPostgresGORMLookup(b *testing.B) {
	pool := benchPostgres(b)
	cfg := pool.Config().ConnConfig
	dsn := fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", cfg.Host, cfg.Port, cfg.User, cfg.Password, cfg.Database)
	open := func(plugin bool) *gorm.DB {
		db, err := gorm.Open(gormpostgres.Open(dsn), &gorm.Config{Logger: logger.Discard})
		if err != nil {
			b.Fatal(err)
		}
		if plugin {
			if err := db.Use(gormplugin.New()); err != nil {
				b.Fatal(err)
			}
		}
		return db
	}
	setup := open(true)
	if err := setup.Migrator().DropTable(&gormRow{}); err != nil {
		b.Fatal(err)
	}
	if err := setup.AutoMigrate(&gormRow{}); err != nil {
		b.Fatal(err)
	}
	rows := make([]gormRow, 10_000)
	if err := setup.CreateInBatches(&rows, 1000).Error; err != nil {
		b.Fatal(err)
	}
	lookup := func(db *gorm.DB, i int) {
		var got gormRow
		if err := db.First(&got, "id = ?", rows[i%len(rows)].ID).Error; err != nil || got.ID != rows[i%len(rows)].ID {
			b.Fatalf("lookup: %v (%v)", got.ID, err)
		}
	}
	withPlugin, alone := open(true), open(false)
	lookup(withPlugin, 0)
	lookup(alone, 0)
	b.Run("plugin-vs-alone", func(b *testing.B) {
		many := func(db *gorm.DB) func() float64 {
			return func() float64 {
				start := time.Now()
				for i := range 5_000 {
					lookup(db, i*7)
				}
				return 5_000 / time.Since(start).Seconds()
			}
		}
		pairedRates(b, "plugin-lookups", "alone-lookups", many(withPlugin), many(alone))
	})
	b.Run("first-of-table", func(b *testing.B) {
		first := func(plugin bool) func() float64 {
			return func() float64 {
				var took time.Duration
				for i := range 20 {
					db := open(plugin)
					db.Exec("SELECT 1") // the connection made
					start := time.Now()
					lookup(db, i)
					took += time.Since(start)
					if sqlDB, err := db.DB(); err == nil {
						sqlDB.Close()
					}
				}
				return 20 / took.Seconds()
			}
		}
		pairedRates(b, "plugin-first", "alone-first", first(true), first(false))
	})
}
