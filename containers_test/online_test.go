package containers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	gormpostgres "gorm.io/driver/postgres"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
)

// onlineSteps are the first lines of docs/migrating.md's online
// conversion, in the order the docs give them.
var onlineSteps = []struct{ name, first string }{
	{"read", "-- Step 1:"},
	{"columns", "-- Step 2:"},
	{"backfill", "-- Step 3:"},
	{"indexes", "-- Step 4:"},
	{"constraints", "-- Step 5:"},
	{"swap", "-- Step 6:"},
}

// onlineOrders is the size of the orders table of
// TestSegmentioOnlineConversion, the trial's: each order has one item,
// every other one an audit row, and one audit row in ten has no order.
const onlineOrders = 1_000_000

// TestSegmentioOnlineConversion runs docs/migrating.md's conversion of a
// segmentio/ksuid service's varchar(27) key under the database's ICU
// collation, and the two columns that refer to it, to varchar(27)
// COLLATE "C" with a KSUID's CHECK, step by step in psql as the docs
// say, while readers and writers of the old service (pgx's defaults, no
// hook) run: no reader waits more than a second in any step, no writer
// fails, every read is right, and afterwards every row is there with its
// foreign keys. The window by ksuid.Window is wrong on the column before
// (the counter-case) and right after, with no COLLATE in the query.
func TestSegmentioOnlineConversion(t *testing.T) {
	needServers(t)
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Fatal("psql is missing (scripts/install-packages.sh installs it)")
	}
	blocks := sqlBlocks(t, "../docs/migrating.md")
	var steps []string
	for _, s := range onlineSteps {
		var block string
		for first, body := range blocks {
			if strings.HasPrefix(first, s.first) {
				block = body
			}
		}
		if block == "" {
			t.Fatalf("docs/migrating.md has no sql block starting %q", s.first)
		}
		steps = append(steps, block)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 6*time.Minute)
	defer cancel()
	pool, url := onlineDatabase(t, ctx)
	known, window := onlineLoad(t, ctx, pool)

	lo, hi, err := ksuid.Window(window.from, window.to)
	if err != nil {
		t.Fatal(err)
	}
	var before int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id >= $1 AND id < $2", lo, hi).Scan(&before); err != nil {
		t.Fatal(err)
	}
	if before == window.rows {
		t.Fatalf("the window on varchar(27) counts %d rows, right under this collation: the counter-case is gone", before)
	}

	// The GORM plugin refuses the table as it is.
	gdb := openGORMWith(t, gormpostgres.Open(url))
	var refused int64
	if err := gdb.Model(&onlineOrder{}).Where("id >= ? AND id < ?", lo, hi).Count(&refused).Error; !errors.Is(err, gormplugin.ErrMisorderingColumn) {
		t.Fatalf("GORM on the varchar(27) before: %v; want ErrMisorderingColumn", err)
	}

	p := startOnlineProbes(ctx, t, url, known)
	for i, step := range steps {
		p.step.Store(int32(i))
		time.Sleep(300 * time.Millisecond) // the probes at work before each step
		tries := 0
		for {
			tries++
			cmd := exec.CommandContext(ctx, psql, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", url)
			cmd.Stdin = strings.NewReader(step + "\n")
			start := time.Now()
			out, err := cmd.CombinedOutput()
			took := time.Since(start)
			if err == nil {
				if i == 0 && strings.TrimSpace(string(out)) != "" {
					t.Errorf("step %s names rows that would not convert:\n%s", onlineSteps[i].name, out)
				}
				t.Logf("step %s took %v in %d tries", onlineSteps[i].name, took.Round(time.Millisecond), tries)
				break
			}
			if !strings.Contains(string(out), "lock timeout") || tries == 10 {
				p.stop()
				t.Fatalf("step %s: %v\n%s", onlineSteps[i].name, err, out)
			}
		}
	}
	p.step.Store(int32(len(steps)))
	time.Sleep(500 * time.Millisecond) // and after the swap
	p.stop()

	for i, s := range p.steps {
		t.Logf("during %s: %d reads (longest %v), %d writes (longest %v)", onlineStepName(i),
			s.reads, s.longestRead.Round(time.Millisecond), s.writes, s.longestWrite.Round(time.Millisecond))
		if s.longestRead > time.Second {
			t.Errorf("during %s a reader waited %v", onlineStepName(i), s.longestRead)
		}
		if s.reads == 0 || s.writes == 0 {
			t.Errorf("during %s: %d reads, %d writes: the probes were not at work", onlineStepName(i), s.reads, s.writes)
		}
	}
	for _, e := range p.readErrs {
		t.Errorf("a reader: %s", e)
	}
	for _, e := range p.writeErrs {
		t.Errorf("a writer: %s", e)
	}

	// Afterwards: the new type, every row, the keys.
	var typ string
	if err := pool.QueryRow(ctx, `SELECT string_agg(attrelid::regclass || '.' || attname || ' ' || format_type(atttypid, atttypmod) || ' ' || collname, ', ' ORDER BY attrelid::regclass::text)
			FROM pg_attribute JOIN pg_collation c ON c.oid = attcollation
			WHERE attrelid IN ('orders'::regclass, 'order_items'::regclass, 'audit'::regclass) AND attname IN ('id', 'order_id')`).Scan(&typ); err != nil {
		t.Fatal(err)
	}
	if want := "audit.order_id character varying(27) C, order_items.order_id character varying(27) C, orders.id character varying(27) C"; typ != want {
		t.Errorf("after the swap: %s; want %s", typ, want)
	}
	var cons []string
	rows, err := pool.Query(ctx, `SELECT format('%s %s %s %s', conrelid::regclass, contype, convalidated, pg_get_constraintdef(oid))
			FROM pg_constraint WHERE conrelid IN ('orders'::regclass, 'order_items'::regclass, 'audit'::regclass) AND contype <> 'n'
			ORDER BY 1`)
	if err != nil {
		t.Fatal(err)
	}
	if cons, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"audit f t FOREIGN KEY (order_id) REFERENCES orders(id)",
		"audit p t PRIMARY KEY (id)",
		"order_items f t FOREIGN KEY (order_id) REFERENCES orders(id)",
		"order_items p t PRIMARY KEY (id)",
		"orders c t CHECK (((octet_length((id)::text) = 27) AND ((id)::text !~ '[^0-9A-Za-z]'::text) AND ((id)::text <= 'aWgEPTl1tmebfsQzFP4bxwgy80V'::text)))",
		"orders p t PRIMARY KEY (id)",
	}
	if !slices.Equal(cons, want) {
		t.Errorf("the keys after the swap:\n%s\nwant\n%s", strings.Join(cons, "\n"), strings.Join(want, "\n"))
	}
	var orders, items, audits, nulls, lost int
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM orders), (SELECT count(*) FROM order_items),
			(SELECT count(*) FROM audit), (SELECT count(*) FROM audit WHERE order_id IS NULL),
			(SELECT count(*) FROM orders o WHERE NOT EXISTS (SELECT FROM order_items i WHERE i.order_id = o.id))`).
		Scan(&orders, &items, &audits, &nulls, &lost); err != nil {
		t.Fatal(err)
	}
	written := len(p.written)
	wantAudits := onlineOrders/2 + onlineOrders/10 + written
	if orders != onlineOrders+written || items != onlineOrders+written || audits != wantAudits || nulls != onlineOrders/10 || lost != 0 {
		t.Errorf("after: %d orders, %d items, %d audit rows (%d without an order), %d orders without an item; want %d, %d, %d (%d), 0",
			orders, items, audits, nulls, lost, onlineOrders+written, onlineOrders+written, wantAudits, onlineOrders/10)
	}
	for _, id := range p.written[:min(len(p.written), 200)] {
		var n int
		if err := pool.QueryRow(ctx, "SELECT count(*) FROM orders o JOIN order_items i ON i.order_id = o.id JOIN audit a ON a.order_id = o.id WHERE o.id = $1", id).Scan(&n); err != nil || n != 1 {
			t.Errorf("the order %s written during the conversion: %d rows with its item and audit, %v", id, n, err)
		}
	}
	var after int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id >= $1 AND id < $2", lo, hi).Scan(&after); err != nil {
		t.Fatal(err)
	}
	if after != window.rows {
		t.Errorf("the window by ksuid.Window after: %d rows; want %d", after, window.rows)
	}
	var viaGORM int64
	if err := openGORMWith(t, gormpostgres.Open(url)).Model(&onlineOrder{}).Where("id >= ? AND id < ?", lo, hi).Count(&viaGORM).Error; err != nil || viaGORM != int64(window.rows) {
		t.Errorf("the window through GORM after: %d rows, %v; want %d", viaGORM, err, window.rows)
	}
	t.Logf("the window: %d rows before, %d after, of %d; %d orders written during the run", before, after, window.rows, written)
}

// onlineOrder is the GORM model of the orders table.
type onlineOrder struct {
	ID ksuid.KSUID
	N  int
}

func (onlineOrder) TableName() string { return "orders" }

func onlineStepName(i int) string {
	if i < len(onlineSteps) {
		return onlineSteps[i].name
	}
	return "after"
}

// onlineDatabase is a fresh database (the server's ICU default) with the
// segmentio service's schema, and no sortid install.
func onlineDatabase(t *testing.T, ctx context.Context) (*pgxpool.Pool, string) {
	t.Helper()
	pool, url := toExtensionDatabase(t, ctx, servers.ext18)
	for _, sql := range []string{
		"CREATE TABLE orders (id varchar(27) PRIMARY KEY, n int NOT NULL)",
		"CREATE TABLE order_items (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, order_id varchar(27) NOT NULL REFERENCES orders, qty int NOT NULL)",
		"CREATE TABLE audit (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, order_id varchar(27) REFERENCES orders, what text NOT NULL)",
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	return pool, url
}

type onlineWindow struct {
	from, to time.Time
	rows     int
}

// onlineLoad fills the tables: onlineOrders orders a few seconds apart,
// their items and audit rows, the indexes the service has (the docs'
// COLLATE "C" one among them). It returns the orders' IDs and n, and a
// day's window.
func onlineLoad(t *testing.T, ctx context.Context, pool *pgxpool.Pool) (map[string]int, onlineWindow) {
	t.Helper()
	start := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	w := onlineWindow{from: start.Add(5 * 24 * time.Hour), to: start.Add(6 * 24 * time.Hour)}
	known := make(map[string]int, onlineOrders)
	ids := make([]string, onlineOrders)
	for i := range ids {
		at := start.Add(time.Duration(i) * 3 * time.Second)
		id, err := ksuid.NewAt(at)
		if err != nil {
			t.Fatal(err)
		}
		ids[i] = id.String()
		known[ids[i]] = i
		if !at.Before(w.from) && at.Before(w.to) {
			w.rows++
		}
	}
	copyRows := func(table string, cols []string, n int, row func(i int) []any) {
		t.Helper()
		src := pgx.CopyFromSlice(n, func(i int) ([]any, error) { return row(i), nil })
		if _, err := pool.CopyFrom(ctx, pgx.Identifier{table}, cols, src); err != nil {
			t.Fatalf("loading %s: %v", table, err)
		}
	}
	copyRows("orders", []string{"id", "n"}, onlineOrders, func(i int) []any { return []any{ids[i], i} })
	copyRows("order_items", []string{"order_id", "qty"}, onlineOrders, func(i int) []any { return []any{ids[i], 1} })
	copyRows("audit", []string{"order_id", "what"}, onlineOrders/2+onlineOrders/10, func(i int) []any {
		if i < onlineOrders/10 {
			return []any{nil, "gone"}
		}
		return []any{ids[2*(i-onlineOrders/10)], "created"}
	})
	for _, sql := range []string{
		"CREATE INDEX ON order_items (order_id)",
		"CREATE INDEX ON audit (order_id)",
		`CREATE UNIQUE INDEX orders_id_c ON orders ((id COLLATE "C"))`,
		"VACUUM ANALYZE orders, order_items, audit",
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	return known, w
}

// onlineProbes are the old service at work: readers that look orders up
// by ID and check the answer, and writers that add an order with its item
// and audit row in a transaction, each timed and counted per step.
type onlineProbes struct {
	step atomic.Int32
	stop func()

	mu        sync.Mutex
	steps     []onlineStepStats // per step, and after the last
	readErrs  []string
	writeErrs []string
	written   []string
}

type onlineStepStats struct {
	reads, writes             int
	longestRead, longestWrite time.Duration
}

func startOnlineProbes(ctx context.Context, t *testing.T, url string, known map[string]int) *onlineProbes {
	t.Helper()
	pool, err := pgxpool.New(ctx, url) // the old service: pgx's defaults, no hook
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]string, 0, len(known))
	for id := range known {
		ids = append(ids, id)
	}
	p := &onlineProbes{steps: make([]onlineStepStats, len(onlineSteps)+1)}
	done := make(chan struct{})
	var wg sync.WaitGroup
	p.stop = sync.OnceFunc(func() { close(done); wg.Wait(); pool.Close() })
	record := func(read bool, took time.Duration, err error) {
		p.mu.Lock()
		defer p.mu.Unlock()
		s := &p.steps[p.step.Load()]
		if read {
			s.reads++
			s.longestRead = max(s.longestRead, took)
			if err != nil && len(p.readErrs) < 20 {
				p.readErrs = append(p.readErrs, fmt.Sprintf("during %s: %v", onlineStepName(int(p.step.Load())), err))
			}
			return
		}
		s.writes++
		s.longestWrite = max(s.longestWrite, took)
		if err != nil && len(p.writeErrs) < 20 {
			p.writeErrs = append(p.writeErrs, fmt.Sprintf("during %s: %v", onlineStepName(int(p.step.Load())), err))
		}
	}
	for r := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(r), 1))
			for {
				select {
				case <-done:
					return
				default:
				}
				id := ksuid.MustParse(ids[rng.IntN(len(ids))])
				start := time.Now()
				var n, items int
				err := pool.QueryRow(ctx, "SELECT n FROM orders WHERE id = $1", id).Scan(&n)
				if err == nil {
					err = pool.QueryRow(ctx, "SELECT count(*) FROM order_items WHERE order_id = $1", id).Scan(&items)
				}
				if err == nil && (n != known[id.String()] || items != 1) {
					err = fmt.Errorf("order %s: n %d, %d items; want %d, 1", id, n, items, known[id.String()])
				}
				if ctx.Err() != nil {
					return
				}
				record(true, time.Since(start), err)
			}
		}()
	}
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				id := ksuid.New()
				start := time.Now()
				err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
					if _, err := tx.Exec(ctx, "INSERT INTO orders (id, n) VALUES ($1, $2)", id, -1); err != nil {
						return err
					}
					if _, err := tx.Exec(ctx, "INSERT INTO order_items (order_id, qty) VALUES ($1, 1)", id); err != nil {
						return err
					}
					_, err := tx.Exec(ctx, "INSERT INTO audit (order_id, what) VALUES ($1, 'created')", id)
					return err
				})
				if ctx.Err() != nil && errors.Is(err, context.Canceled) {
					return
				}
				record(false, time.Since(start), err)
				if err == nil {
					p.mu.Lock()
					p.written = append(p.written, id.String())
					p.mu.Unlock()
				}
				time.Sleep(5 * time.Millisecond)
			}
		}()
	}
	t.Cleanup(p.stop)
	return p
}
