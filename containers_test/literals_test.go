package containers

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
)

// sortidDatabase creates a database of t's own (ICU default collation)
// with sortid's SQL installed, and returns its name and a connection to
// it with sqltype's AfterConnect run after the install.
func sortidDatabase(t *testing.T, ctx context.Context) (string, *pgx.Conn) {
	t.Helper()
	cfg := servers.pgConfig.ConnConfig.Copy()
	cfg.Database = icuDatabase(t, ctx)
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	if err := sqltype.Install(ctx, conn, ""); err != nil {
		t.Fatal(err)
	}
	if err := sqltype.AfterConnect(ctx, conn); err != nil {
		t.Fatal(err)
	}
	return cfg.Database, conn
}

// literalDB returns a connection to a database of t's own with sortid's
// SQL installed and a table "orders" (id ksuid) of n KSUIDs one second
// apart, oldest first, analyzed; and the IDs.
func literalDB(t *testing.T, ctx context.Context, n int) (*pgx.Conn, []ksuid.KSUID) {
	t.Helper()
	_, conn := sortidDatabase(t, ctx)
	if _, err := conn.Exec(ctx, "CREATE TABLE orders (id ksuid PRIMARY KEY, n int NOT NULL DEFAULT 0)"); err != nil {
		t.Fatal(err)
	}
	base := time.Now().Add(-time.Duration(n) * time.Second)
	ids := make([]ksuid.KSUID, n)
	rows := make([][]any, n)
	for i := range ids {
		ids[i] = must(ksuid.NewAt(base.Add(time.Duration(i) * time.Second)))
		rows[i] = []any{ids[i]}
	}
	if _, err := conn.CopyFrom(ctx, pgx.Identifier{"orders"}, []string{"id"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "ANALYZE orders"); err != nil {
		t.Fatal(err)
	}
	return conn, ids
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestPostgresLiterals: SQL as a user types it in psql (sent as one
// simple-protocol query, as psql sends it), on the ksuid domain: the
// text form pasted from a log finds its row with every operator, and a
// statement that means "all but these" keeps exactly these. Each
// statement runs in a transaction that is rolled back.
func TestPostgresLiterals(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	conn, ids := literalDB(t, ctx, 100)
	q := func(i int) string { return "'" + ids[i].String() + "'" }
	count := func(sql string) (int, error) {
		tx, err := conn.Begin(ctx)
		if err != nil {
			return 0, err
		}
		defer tx.Rollback(ctx)
		var n int
		err = tx.QueryRow(ctx, sql, pgx.QueryExecModeSimpleProtocol).Scan(&n)
		return n, err
	}
	for _, tc := range []struct {
		sql  string
		want int
	}{
		{"SELECT count(*) FROM orders WHERE id = " + q(50), 1},
		{"SELECT count(*) FROM orders WHERE id IN (" + q(50) + ", " + q(7) + ")", 2},
		{"SELECT count(*) FROM orders WHERE id NOT IN (" + q(50) + ", " + q(7) + ", " + q(99) + ")", 97},
		{"SELECT count(*) FROM orders WHERE id <> " + q(50), 99},
		{"SELECT count(*) FROM orders WHERE id IS DISTINCT FROM " + q(50), 99},
		{"SELECT count(*) FROM orders WHERE NOT (id = " + q(50) + ")", 99},
		{"SELECT count(*) FROM orders WHERE id < " + q(50), 50},
		{"SELECT count(*) FROM orders WHERE id > " + q(50), 49},
		{"SELECT count(*) FROM orders WHERE id BETWEEN " + q(10) + " AND " + q(50), 41},
		{"SELECT count(*) FROM orders WHERE id = ANY('{" + ids[3].String() + "," + ids[4].String() + "}')", 2},
		{"SELECT count(*) FROM orders WHERE id = ksuid_from_text(" + q(50) + ")", 1},
		{"SELECT count(*) FROM orders WHERE id >= ksuid_min_at(" + "'" + ids[60].Time().Format(time.RFC3339) + "')", 40},
		{"WITH u AS (UPDATE orders SET n = 1 WHERE id = " + q(50) + " RETURNING 1) SELECT count(*) FROM u", 1},
		{"WITH d AS (DELETE FROM orders WHERE id NOT IN (" + q(1) + ", " + q(2) + ") RETURNING 1) SELECT count(*) FROM d", 98},
		{"WITH d AS (DELETE FROM orders WHERE id <> " + q(1) + " RETURNING 1) SELECT count(*) FROM d", 99},
		{"WITH d AS (DELETE FROM orders WHERE id < " + q(10) + " RETURNING 1) SELECT count(*) FROM d", 10},
		// Text that is no KSUID of the table finds nothing, and deletes
		// nothing it does not name: bytea's \x form, a lowercase paste.
		{`SELECT count(*) FROM orders WHERE id = '\x` + fmt.Sprintf("%x", ids[50][:]) + "'", 0},
		{"SELECT count(*) FROM orders WHERE id = '" + strings.ToLower(ids[50].String()) + "'", 0},
	} {
		if n, err := count(tc.sql); err != nil || n != tc.want {
			t.Errorf("%s: %d rows (%v), want %d", tc.sql, n, err, tc.want)
		}
	}
	// The same through psql itself, as a support engineer types it.
	c := servers.pgConfig.ConnConfig
	url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, conn.Config().Database)
	for _, tc := range []struct {
		sql  string
		want string
	}{
		{"SELECT id FROM orders WHERE id = " + q(50), ids[50].String()},
		{"SELECT count(*) FROM orders WHERE id IN (" + q(50) + ", " + q(7) + ")", "2"},
		{"SELECT count(*) FROM orders WHERE id IS DISTINCT FROM " + q(50), "99"},
		{"WITH u AS (UPDATE orders SET n = 2 WHERE id = " + q(9) + " RETURNING id) SELECT id FROM u", ids[9].String()},
		{"WITH d AS (DELETE FROM orders WHERE id NOT IN (" + q(1) + ", " + q(2) + ", " + q(3) + ") RETURNING 1) SELECT count(*) FROM d", "97"},
		{"WITH d AS (DELETE FROM orders WHERE id <> " + q(4) + " RETURNING 1) SELECT count(*) FROM d", "99"},
	} {
		out, err := exec.CommandContext(ctx, "psql", "-XAtq", "-v", "ON_ERROR_STOP=1", url, "-c", "BEGIN", "-c", tc.sql, "-c", "ROLLBACK").CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != tc.want {
			t.Errorf("psql %s: %q (%v), want %q", tc.sql, got, err, tc.want)
		}
	}
	// Writing text that is no KSUID is the domain's error, naming what a
	// KSUID is.
	for _, bad := range []string{"0qjBBlJIfbVLK-nJn4xpLGDr00e", "0qjBB", `\x` + fmt.Sprintf("%x", ids[0][:]), "zzzzzzzzzzzzzzzzzzzzzzzzzzz"} {
		_, err := count("WITH i AS (INSERT INTO orders (id) VALUES ('" + bad + "') RETURNING 1) SELECT count(*) FROM i")
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "23514" || !strings.Contains(pgErr.Message, "27 characters 0-9A-Za-z") {
			t.Errorf("INSERT %q: %v; want the domain's check violation", bad, err)
		}
	}
	if n := must(count("SELECT count(*) FROM orders")); n != 100 {
		t.Errorf("%d rows left, want 100", n)
	}
	// Through pgx in every mode, a string and the ID itself.
	for _, mode := range execModes {
		for _, arg := range []any{ids[50].String(), ids[50]} {
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var n int
			err = tx.QueryRow(ctx, "WITH d AS (DELETE FROM orders WHERE id <> $1 RETURNING 1) SELECT count(*) FROM d", mode, arg).Scan(&n)
			tx.Rollback(ctx)
			if err != nil || n != 99 {
				t.Errorf("pgx %v: DELETE … WHERE id <> $1 with a %T: %d rows (%v), want 99", mode, arg, n, err)
			}
		}
	}

	// ObjectIDs: 24 lowercase hex digits; uppercase is refused, and
	// objectid_from_text reads it.
	if _, err := conn.Exec(ctx, "CREATE TABLE sessions (id objectid PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	oid := objectid.New()
	if _, err := conn.Exec(ctx, "INSERT INTO sessions VALUES ($1)", oid); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		"SELECT count(*) FROM sessions WHERE id = '" + oid.String() + "'",
		"SELECT count(*) FROM sessions WHERE id = objectid_from_text('" + strings.ToUpper(oid.String()) + "')",
	} {
		if n, err := count(sql); err != nil || n != 1 {
			t.Errorf("%s: %d rows (%v)", sql, n, err)
		}
	}
	_, err := count("WITH i AS (INSERT INTO sessions VALUES ('" + strings.ToUpper(objectid.New().String()) + "') RETURNING 1) SELECT count(*) FROM i")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "objectid_from_text() reads uppercase") {
		t.Errorf("uppercase hex into objectid: %v; want the check violation naming objectid_from_text()", err)
	}
}

// plan returns the EXPLAIN output of sql with args on conn, one string.
func plan(t *testing.T, ctx context.Context, conn *pgx.Conn, sql string, args ...any) string {
	t.Helper()
	rows, err := conn.Query(ctx, "EXPLAIN (COSTS OFF) "+sql, args...)
	if err != nil {
		t.Fatalf("EXPLAIN %s: %v", sql, err)
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatalf("EXPLAIN %s: %v", sql, err)
	}
	return strings.Join(lines, "\n")
}

// TestPostgresPlansKeepTheIndex: the primary key of the ksuid domain
// (text COLLATE "C") serves =, = ANY, <, >, BETWEEN, ORDER BY ... LIMIT,
// NOT IN's neighbours and a keyset's row comparison, with constants, with
// parameters in every query mode, and with a generic plan.
func TestPostgresPlansKeepTheIndex(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	conn, ids := literalDB(t, ctx, 20000)
	if _, err := conn.Exec(ctx, "CREATE INDEX orders_n_id ON orders (n, id)"); err != nil {
		t.Fatal(err)
	}
	id, lo, hi := ids[10000], must(ksuid.MinAt(ids[100].Time())), must(ksuid.MaxAt(ids[200].Time()))
	text := id.String()
	queries := []struct {
		sql  string
		args []any
	}{
		{"SELECT * FROM orders WHERE id = '" + text + "'", nil},
		{"SELECT * FROM orders WHERE id < '" + text + "' ORDER BY id DESC LIMIT 5", nil},
		{"SELECT * FROM orders WHERE id BETWEEN ksuid_min_at(now() - interval '1 hour') AND ksuid_max_at(now())", nil},
		{"SELECT * FROM orders WHERE id IN ('" + text + "', '" + ids[5].String() + "')", nil},
		{"SELECT * FROM orders WHERE id = $1", []any{id}},
		{"SELECT * FROM orders WHERE id = $1", []any{text}},
		{"SELECT * FROM orders WHERE id = ANY($1)", []any{[]ksuid.KSUID{id, ids[5]}}},
		{"SELECT * FROM orders WHERE id > $1 ORDER BY id LIMIT 50", []any{id}},
		{"SELECT * FROM orders WHERE id BETWEEN $1 AND $2", []any{lo, hi}},
		{"SELECT * FROM orders a JOIN orders b ON b.id = a.id WHERE a.id = $1", []any{id}},
		{"SELECT * FROM orders WHERE (n, id) > (0, $1) ORDER BY n, id LIMIT 5", []any{id}},
	}
	var plans []string
	for _, q := range queries {
		if q.args == nil {
			plans = append(plans, plan(t, ctx, conn, q.sql))
			continue
		}
		for _, mode := range execModes {
			plans = append(plans, plan(t, ctx, conn, q.sql, append([]any{mode}, q.args...)...))
		}
	}
	// A generic plan, as a prepared statement gets after five runs.
	if _, err := conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
		t.Fatal(err)
	}
	for _, q := range queries[4:] {
		plans = append(plans, plan(t, ctx, conn, q.sql, q.args...))
	}
	if _, err := conn.Exec(ctx, "RESET plan_cache_mode"); err != nil {
		t.Fatal(err)
	}
	for i, p := range plans {
		if !strings.Contains(p, "Index") {
			t.Errorf("plan %d reads no index:\n%s", i, p)
		}
	}
	// The keyset's rows are the next ones.
	rows, _ := conn.Query(ctx, "SELECT id FROM orders WHERE (n, id) > (0, $1) ORDER BY n, id LIMIT 5", id)
	got, err := pgx.CollectRows(rows, pgx.RowTo[ksuid.KSUID]) // reports the query's error too
	if err != nil || len(got) != 5 || got[0] != ids[10001] {
		t.Errorf("row comparison: %v (%v), want from %v", got, err, ids[10001])
	}
}

// TestSortidSQLIntoPsql: the install as the README gives it, `sortid sql |
// psql -q -v ON_ERROR_STOP=1 "$DATABASE_URL"`, prints nothing, the first
// time and again, into the default schema and into one of its own.
func TestSortidSQLIntoPsql(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Fatal("psql is missing (Debian package postgresql-client; scripts/install-packages.sh installs it)")
	}
	c := servers.pgConfig.ConnConfig
	url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, icuDatabase(t, ctx))
	for _, schema := range []string{"", "", "ids", "ids"} {
		script, err := sqltype.InstallSQL(schema)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(ctx, psql, "-q", "-v", "ON_ERROR_STOP=1", url)
		cmd.Stdin = strings.NewReader(script)
		out, err := cmd.CombinedOutput()
		if err != nil || len(out) != 0 {
			t.Errorf("sortid sql --schema %q | psql -q: %v, printed %q; want nothing", schema, err, out)
		}
	}
}

// TestPostgresMinAtFollowsTimeZone: ksuid_min_at reads a date without a
// zone in the session's TimeZone, as the README says next to sortid
// range, which reads it as UTC.
func TestPostgresMinAtFollowsTimeZone(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	conn, _ := literalDB(t, ctx, 1)
	if _, err := conn.Exec(ctx, "SET TimeZone = 'America/New_York'"); err != nil {
		t.Fatal(err)
	}
	var local, utc ksuid.KSUID
	if err := conn.QueryRow(ctx, "SELECT ksuid_min_at('2026-11-30'), ksuid_min_at('2026-11-30 00:00+00')").Scan(&local, &utc); err != nil {
		t.Fatal(err)
	}
	want := must(ksuid.MinAt(time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)))
	if local != want || utc != must(ksuid.MinAt(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC))) {
		t.Errorf("in New York, ksuid_min_at('2026-11-30') = %v (%v), want %v; with +00 %v", local, local.Time(), want, utc.Time())
	}
}
