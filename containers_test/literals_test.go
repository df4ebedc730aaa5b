package containers

import (
	"context"
	"encoding/hex"
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
// simple-protocol query, as psql sends it). The text form in a range
// comparison is an error whose text says what to write; the forms the
// README gives find the row; = with the bare text form finds nothing, the
// documented limit the README warns of.
func TestPostgresLiterals(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	conn, ids := literalDB(t, ctx, 100)
	id := ids[50]
	text, hexForm := id.String(), `\x`+hex.EncodeToString(id[:])
	count := func(sql string) (int, error) {
		var n int
		err := conn.QueryRow(ctx, sql, pgx.QueryExecModeSimpleProtocol).Scan(&n)
		return n, err
	}
	for _, tc := range []struct {
		sql  string
		want int
	}{
		{"SELECT count(*) FROM orders WHERE id = ksuid_from_text('" + text + "')", 1},
		{"SELECT count(*) FROM orders WHERE id = '" + hexForm + "'", 1},
		{"SELECT count(*) FROM orders WHERE id < ksuid_from_text('" + text + "')", 50},
		{"SELECT count(*) FROM orders WHERE id < '" + hexForm + "'", 50},
		{"SELECT count(*) FROM orders WHERE id = ANY(ARRAY[ksuid_from_text('" + text + "')])", 1},
		// The limit: = compares as bytea, and 27 text bytes match no row.
		{"SELECT count(*) FROM orders WHERE id = '" + text + "'", 0},
	} {
		if n, err := count(tc.sql); err != nil || n != tc.want {
			t.Errorf("%s: %d rows (%v), want %d", tc.sql, n, err, tc.want)
		}
	}
	for _, sql := range []string{
		"SELECT count(*) FROM orders WHERE id < '" + text + "'",
		"SELECT count(*) FROM orders WHERE id > '" + text + "'",
		"SELECT count(*) FROM orders WHERE id BETWEEN '" + ids[10].String() + "' AND '" + text + "'",
		"SELECT count(*) FROM orders WHERE id >= '000000000000000000000000000'",
		// The DELETE: it deleted every row.
		"WITH d AS (DELETE FROM orders WHERE id < '000000000000000000000000000' RETURNING 1) SELECT count(*) FROM d",
		// <> and a one-element NOT IN: they matched every row.
		"SELECT count(*) FROM orders WHERE id <> '" + text + "'",
		"WITH d AS (DELETE FROM orders WHERE id <> '" + text + "' RETURNING 1) SELECT count(*) FROM d",
		"WITH d AS (DELETE FROM orders WHERE id NOT IN ('" + text + "') RETURNING 1) SELECT count(*) FROM d",
	} {
		_, err := count(sql)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "23514" || !strings.Contains(pgErr.Message, "use ksuid_from_text()") {
			t.Errorf("%s: %v; want the domain's check violation naming ksuid_from_text()", sql, err)
		}
	}
	if n := must(count("SELECT count(*) FROM orders")); n != 100 {
		t.Errorf("%d rows left, want 100", n)
	}
	// <> with the ID's own forms is right.
	for _, sql := range []string{
		"SELECT count(*) FROM orders WHERE id <> ksuid_from_text('" + text + "')",
		"SELECT count(*) FROM orders WHERE id <> '" + hexForm + "'",
		"SELECT count(*) FROM orders WHERE id NOT IN (ksuid_from_text('" + text + "'), ksuid_from_text('" + ids[0].String() + "'))",
	} {
		if n, err := count(sql); err != nil || n != 99 && !strings.Contains(sql, ids[0].String()) || n != 98 && strings.Contains(sql, ids[0].String()) {
			t.Errorf("%s: %d rows (%v)", sql, n, err)
		}
	}
	// A Go string with <> through pgx, in every mode: the server reads it
	// as a ksuid, and the domain's check refuses it.
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe,
		pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		var n int
		err := conn.QueryRow(ctx, "WITH d AS (DELETE FROM orders WHERE id <> $1 RETURNING 1) SELECT count(*) FROM d", mode, text).Scan(&n)
		var pgErr *pgconn.PgError
		if !errors.As(err, &pgErr) || pgErr.Code != "23514" {
			t.Errorf("pgx %v: DELETE … WHERE id <> $1 with the text form: %d rows (%v); want the check violation", mode, n, err)
		}
		// The ID itself is right where pgx knows the parameter's type
		// (in exec and simple mode the hook refuses it: see sqltype).
		if mode == pgx.QueryExecModeExec || mode == pgx.QueryExecModeSimpleProtocol {
			continue
		}
		if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id <> $1", mode, id).Scan(&n); err != nil || n != 99 {
			t.Errorf("pgx %v: id <> $1 with a KSUID: %d rows (%v), want 99", mode, n, err)
		}
	}

	// ObjectIDs: 24 hex digits are 24 bytes, not 12.
	if _, err := conn.Exec(ctx, "CREATE TABLE sessions (id objectid PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	oid := objectid.New()
	if _, err := conn.Exec(ctx, "INSERT INTO sessions VALUES ($1)", oid); err != nil {
		t.Fatal(err)
	}
	if n, err := count("SELECT count(*) FROM sessions WHERE id = objectid_from_text('" + oid.String() + "')"); err != nil || n != 1 {
		t.Errorf("objectid_from_text: %d rows (%v)", n, err)
	}
	_, err := count("SELECT count(*) FROM sessions WHERE id <= '" + oid.String() + "'")
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) || !strings.Contains(pgErr.Message, "use objectid_from_text()") {
		t.Errorf("24 hex digits in <=: %v; want the check violation naming objectid_from_text()", err)
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

// TestPostgresPlansKeepTheIndex: the operators the install adds leave the
// primary key's plans as they were: an index scan for =, = ANY, <, >,
// BETWEEN and ORDER BY ... LIMIT, with constants, with parameters in
// every query mode, and with a generic plan. The plans are taken without
// the operators (dropped) and with them (installed again). A row
// comparison is the one query the operators change: an error, and the
// bytea cast the README gives keeps its index scan.
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
		{"SELECT * FROM orders WHERE id = ksuid_from_text('" + text + "')", nil},
		{"SELECT * FROM orders WHERE id < ksuid_from_text('" + text + "') ORDER BY id DESC LIMIT 5", nil},
		{"SELECT * FROM orders WHERE id BETWEEN ksuid_min_at(now() - interval '1 hour') AND ksuid_max_at(now())", nil},
		{"SELECT * FROM orders WHERE id = $1", []any{id}},
		{"SELECT * FROM orders WHERE id = ANY($1)", []any{[]ksuid.KSUID{id, ids[5]}}},
		{"SELECT * FROM orders WHERE id > $1 ORDER BY id LIMIT 50", []any{id}},
		{"SELECT * FROM orders WHERE id BETWEEN $1 AND $2", []any{lo, hi}},
		{"SELECT * FROM orders a JOIN orders b ON b.id = a.id WHERE a.id = $1", []any{id}},
	}
	modes := []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe, pgx.QueryExecModeDescribeExec}
	plans := func() []string {
		var out []string
		for _, q := range queries {
			if q.args == nil {
				out = append(out, plan(t, ctx, conn, q.sql))
				continue
			}
			for _, mode := range modes {
				out = append(out, plan(t, ctx, conn, q.sql, append([]any{mode}, q.args...)...))
			}
		}
		// A generic plan, as a prepared statement gets after five runs.
		if _, err := conn.Exec(ctx, "SET plan_cache_mode = force_generic_plan"); err != nil {
			t.Fatal(err)
		}
		defer conn.Exec(ctx, "RESET plan_cache_mode")
		for _, q := range queries[3:] {
			out = append(out, plan(t, ctx, conn, q.sql, q.args...))
		}
		return out
	}
	// Without the operators, as before this version of the script.
	dropOperators := `DROP OPERATOR < (ksuid, ksuid); DROP OPERATOR <= (ksuid, ksuid);
		DROP OPERATOR > (ksuid, ksuid); DROP OPERATOR >= (ksuid, ksuid)`
	if _, err := conn.Exec(ctx, dropOperators); err != nil {
		t.Fatal(err)
	}
	conn.DeallocateAll(ctx)
	before := plans()
	if err := sqltype.Install(ctx, conn, ""); err != nil {
		t.Fatal(err)
	}
	conn.DeallocateAll(ctx)
	after := plans()
	for i := range before {
		scan := func(p string) string { // the access path, first line that names one
			for _, line := range strings.Split(p, "\n") {
				if strings.Contains(line, "Scan") {
					return strings.TrimSpace(strings.Split(strings.TrimLeft(line, " ->"), " on ")[0])
				}
			}
			return p
		}
		if !strings.Contains(after[i], "Index") || scan(before[i]) != scan(after[i]) {
			t.Errorf("plan %d changed or lost the index:\nwithout the operators:\n%s\nwith them:\n%s", i, before[i], after[i])
		}
	}

	// The row comparison of a keyset over (n, id).
	row := "SELECT * FROM orders WHERE (n, id) > (0, $1) ORDER BY n, id LIMIT 5"
	if _, err := conn.Exec(ctx, row, id); err == nil || !strings.Contains(err.Error(), "row comparison operator") {
		t.Errorf("row comparison with the operators: %v; want PostgreSQL's error", err)
	}
	cast := "SELECT * FROM orders WHERE (n, id::bytea) > (0, $1::bytea) ORDER BY n, id LIMIT 5"
	if p := plan(t, ctx, conn, cast, id); !strings.Contains(p, "Index") {
		t.Errorf("row comparison cast to bytea:\n%s", p)
	}
	rows, _ := conn.Query(ctx, "SELECT id FROM orders WHERE (n, id::bytea) > (0, $1::bytea) ORDER BY n, id LIMIT 5", id)
	got, err := pgx.CollectRows(rows, pgx.RowTo[ksuid.KSUID]) // reports the query's error too
	if err != nil || len(got) != 5 || got[0] != ids[10001] {
		t.Errorf("row comparison cast to bytea: %v (%v), want from %v", got, err, ids[10001])
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
