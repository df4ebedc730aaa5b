package containers

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sortid/sortid/ksuid"
)

// TestSegmentioVarcharWindows is the first step of docs/migrating.md for
// a segmentio/ksuid service: its keys are varchar(27) under the
// database's default collation (ICU en-US here), where KSUIDs' text does
// not sort by time, so a window by ksuid.Window's bounds counts rows of
// other days. An expression index on id COLLATE "C", built CONCURRENTLY,
// and the same comparisons under "C" give the right rows with the index,
// and no conversion. The plain form must be wrong here, or the test
// proves nothing.
func TestSegmentioVarcharWindows(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	db := icuDatabase(t, ctx)
	cfg := servers.pgConfig.ConnConfig.Copy()
	cfg.Database = db
	conn, err := pgx.ConnectConfig(ctx, cfg) // segmentio's service: no hook
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE TABLE orders (id varchar(27) PRIMARY KEY, n int NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	var rows [][]any
	want := 0
	for i := 0; i < 3*24*60; i++ { // a row a minute over three days
		at := day.Add(-24 * time.Hour).Add(time.Duration(i) * time.Minute)
		id, err := ksuid.NewAt(at)
		if err != nil {
			t.Fatal(err)
		}
		rows = append(rows, []any{id.String(), i})
		if !at.Before(day) && at.Before(day.Add(24*time.Hour)) {
			want++
		}
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"orders"}, []string{"id", "n"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "ANALYZE orders"); err != nil {
		t.Fatal(err)
	}
	lo, hi, err := ksuid.Window(day, day.Add(24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	count := func(where string) int {
		t.Helper()
		var n int
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE "+where, lo.String(), hi.String()).Scan(&n); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		return n
	}
	if got := count("id >= $1 AND id < $2"); got == want {
		t.Fatalf("the plain window counts %d rows, right under this collation: the counter-case is gone", got)
	} else {
		t.Logf("the plain window: %d rows of a day that has %d", got, want)
	}
	// The docs' fix, as they give it.
	if _, err := conn.Exec(ctx, `CREATE UNIQUE INDEX CONCURRENTLY orders_id_c ON orders ((id COLLATE "C"))`); err != nil {
		t.Fatal(err)
	}
	const window = `id COLLATE "C" >= $1 AND id COLLATE "C" < $2`
	if got := count(window); got != want {
		t.Errorf("the window under \"C\": %d rows; want %d", got, want)
	}
	var plan strings.Builder
	r, err := conn.Query(ctx, `EXPLAIN SELECT id FROM orders WHERE `+window+` ORDER BY id COLLATE "C" LIMIT 50`, lo.String(), hi.String())
	if err != nil {
		t.Fatal(err)
	}
	for r.Next() {
		var line string
		if err := r.Scan(&line); err != nil {
			t.Fatal(err)
		}
		plan.WriteString(line + "\n")
	}
	if !strings.Contains(plan.String(), "orders_id_c") || strings.Contains(plan.String(), "Sort") {
		t.Errorf("a page of the window does not walk orders_id_c:\n%s", plan.String())
	}
}
