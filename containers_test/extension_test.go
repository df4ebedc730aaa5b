package containers

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	tcexec "github.com/testcontainers/testcontainers-go/exec"
	gormpostgres "gorm.io/driver/postgres"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/pgsql"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// The sortid extension (extension/), built in each PostgreSQL test image
// (15, 17 and 18) and loaded in each server's database extensionDatabase:
// its types read every form a user sends, its functions agree with the Go
// packages, bad input is an error and never a crash, its pg_regress suite
// passes, and a database moves to it from the domains.

// extTable creates a table in the extension's database for t.
func extTable(t *testing.T, ctx context.Context, ext *extServer, columns string) string {
	t.Helper()
	name := pgx.Identifier{fmt.Sprintf("%s_%d", strings.ToLower(sanitize(t.Name())), tableSeq.Add(1))}.Sanitize()
	if _, err := ext.pool.Exec(ctx, "CREATE TABLE "+name+" ("+columns+")"); err != nil {
		t.Fatalf("creating %s: %v", name, err)
	}
	t.Cleanup(func() { ext.pool.Exec(context.Background(), "DROP TABLE IF EXISTS "+name) })
	return name
}

// TestExtensionReadMatrix is the read matrix on the extension's types:
// every path, parameter form and operation finds the right rows, the Go
// string and the literal (bun) included. The only errors allowed are the
// ones the docs name: without the hook pgx cannot encode a slice of an ID
// type (it knows neither the types' arrays nor the Go slices) and bun
// writes a Go slice as JSON.
func TestExtensionReadMatrix(t *testing.T) {
	forEachExtServer(t, func(t *testing.T, ext *extServer) {
		ctx := testContext(t)
		base := time.Now().Add(-time.Hour).Truncate(time.Second)
		sets := []idSet{ksuidSet(t, base, 30), objectIDSet(t, base, 30)}
		paths := readPathsTo(t, ctx, ext.config.ConnConfig)
		if ext == servers.ext18 {
			// Through both PgBouncers, in the modes the docs give for
			// each: the extension's database is on the PostgreSQL 18
			// server behind them.
			modes := []pgx.QueryExecMode{pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol}
			for _, b := range []struct {
				name string
				cfg  *pgx.ConnConfig
			}{{"PgBouncer 1.18 ", servers.bouncerConfig}, {"PgBouncer 1.26 ", servers.bouncer126Config}} {
				if b.cfg == nil {
					continue
				}
				c := b.cfg.Copy()
				c.Database = extensionDatabase
				paths = append(paths, pgxReadPaths(t, ctx, c, b.name, modes)...)
			}
			if servers.bouncer126Config != nil {
				c := servers.bouncer126Config.Copy()
				c.Database = extensionDatabase
				paths = append(paths, pgxReadPaths(t, ctx, c, "PgBouncer 1.26 ", []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement})...)
			}
		}
		counts := map[string]int{}
		for _, s := range sets {
			for _, column := range []string{"type", "partitioned"} {
				var table string
				if column == "partitioned" {
					table = extTable(t, ctx, ext, "id "+s.domain+" PRIMARY KEY, n int NOT NULL DEFAULT 0) PARTITION BY RANGE (id")
					spec := sqltype.PartitionSpec{Table: strings.Trim(table, `"`), IDType: s.domain, Period: sqltype.Day, Back: 1, Ahead: 1}
					if err := sqltype.Partitions(ctx, ext.pool, spec, base); err != nil {
						t.Fatal(err)
					}
				} else {
					table = extTable(t, ctx, ext, "id "+s.domain+" PRIMARY KEY, n int NOT NULL DEFAULT 0")
				}
				// In as another program writes them: the text form.
				rows := make([][]any, len(s.ids))
				for i := range s.ids {
					rows[i] = []any{fmt.Sprint(s.ids[i])}
				}
				if _, err := ext.pool.CopyFrom(ctx, pgx.Identifier{strings.Trim(table, `"`)}, []string{"id"}, pgx.CopyFromRows(rows)); err != nil {
					t.Fatal(err)
				}
				for _, p := range paths {
					for _, form := range paramForms {
						for _, op := range readOps() {
							got, err := p.run(ctx, fmt.Sprintf(op.sql, "id::text AS text_form", table), op.args(s, form)...)
							want := mapAll(toAny(op.want), func(v any) string { return fmt.Sprint(s.ids[v.(int)]) })
							where := fmt.Sprintf("%s, %s in %s, %s form, %s", p.name, s.name, column, form, op.name)
							switch {
							case err != nil:
								// Without the hook pgx knows neither the types'
								// arrays nor the ID types' slices, in any mode.
								slice := op.name == "= ANY" || op.name == "<> ALL"
								pgxOwn := strings.Contains(p.name, "no hook") && slice && form != "string" &&
									strings.Contains(err.Error(), "cannot find encode plan")
								bunOwn := strings.HasPrefix(p.name, "bun") && slice && strings.Contains(err.Error(), "malformed array literal")
								if pgxOwn || bunOwn {
									counts["loud, a slice without the hook (documented)"]++
									continue
								}
								counts["loud"]++
								t.Errorf("loud: %s: %v", where, err)
							case !slices.Equal(got, want):
								counts["silent"]++
								t.Errorf("silent: %s: %d rows, want %d: %.80q, want %.80q", where, len(got), len(want), got, want)
							default:
								counts["correct"]++
							}
						}
					}
				}
				if n := extCount(t, ctx, ext, table); n != len(s.ids) {
					t.Fatalf("%s holds %d rows after the matrix, want %d", table, n, len(s.ids))
				}
			}
		}
		for _, k := range sortedKeys(counts) {
			t.Logf("%6d %s", counts[k], k)
		}
		// Every cell was run and classified: none skipped.
		if total := 2 * 2 * len(paths) * len(paramForms) * len(readOps()); counts["correct"]+
			counts["loud, a slice without the hook (documented)"] != total {
			t.Errorf("%v: not the %d cells of the matrix", counts, total)
		}
	})
}

func extCount(t *testing.T, ctx context.Context, ext *extServer, table string) int {
	t.Helper()
	var n int
	if err := ext.pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestExtensionLiteralsInPsql: what a support engineer types in psql,
// run by psql itself. The text form finds its row with =, IN, NOT IN,
// <>, IS DISTINCT FROM, UPDATE and DELETE, and psql shows the ID as its
// text; a bad literal is an error that names it.
func TestExtensionLiteralsInPsql(t *testing.T) {
	forEachExtServer(t, func(t *testing.T, ext *extServer) {
		ctx := testContext(t)
		table := extTable(t, ctx, ext, "id ksuid PRIMARY KEY, n int NOT NULL DEFAULT 0")
		base := time.Now().Add(-time.Hour)
		ids := make([]string, 5)
		for i := range ids {
			id := must(ksuid.NewAt(base.Add(time.Duration(i) * time.Second)))
			ids[i] = id.String()
			if _, err := ext.pool.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", id); err != nil {
				t.Fatal(err)
			}
		}
		psql := func(sql string) (string, error) {
			c := ext.config.ConnConfig
			url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, c.Database)
			out, err := exec.CommandContext(ctx, "psql", "-XAtq", "-v", "ON_ERROR_STOP=1", url, "-c", sql).CombinedOutput()
			return strings.TrimSpace(string(out)), err
		}
		for _, c := range []struct{ sql, want string }{
			{fmt.Sprintf("SELECT id FROM %s WHERE id = '%s'", table, ids[2]), ids[2]},
			{fmt.Sprintf("SELECT count(*) FROM %s WHERE id IN ('%s', '%s')", table, ids[1], ids[3]), "2"},
			{fmt.Sprintf("SELECT count(*) FROM %s WHERE id NOT IN ('%s', '%s')", table, ids[1], ids[3]), "3"},
			{fmt.Sprintf("SELECT count(*) FROM %s WHERE id <> '%s'", table, ids[0]), "4"},
			{fmt.Sprintf("SELECT count(*) FROM %s WHERE id IS DISTINCT FROM '%s'", table, ids[0]), "4"},
			{fmt.Sprintf("SELECT count(*) FROM %s WHERE NOT (id = '%s')", table, ids[0]), "4"},
			{fmt.Sprintf("SELECT count(*) FROM %s WHERE id = ANY('{%s,%s}')", table, ids[0], ids[4]), "2"},
			{fmt.Sprintf("SELECT count(*) FROM %s WHERE id < '%s'", table, ids[2]), "2"},
			{fmt.Sprintf("WITH u AS (UPDATE %s SET n = 1 WHERE id = '%s' RETURNING id) SELECT id FROM u", table, ids[3]), ids[3]},
			{fmt.Sprintf("WITH d AS (DELETE FROM %s WHERE id NOT IN ('%s', '%s', '%s', '%s') RETURNING id) SELECT id FROM d", table, ids[0], ids[1], ids[2], ids[3]), ids[4]},
			{fmt.Sprintf("SELECT count(*) FROM %s", table), "4"},
			{fmt.Sprintf("SELECT id FROM %s WHERE id = '\\x%s'", table, hex.EncodeToString(must(ksuid.Parse(ids[1])).Bytes())), ids[1]},
		} {
			got, err := psql(c.sql)
			if err != nil || got != c.want {
				t.Errorf("psql %s: %q (%v), want %q", c.sql, got, err, c.want)
			}
		}
		for _, bad := range []string{ids[0][:26], ids[0] + "0", "aWgEPTl1tmebfsQzFP4bxwgy80W", ids[0][:26] + "-"} {
			got, err := psql(fmt.Sprintf("DELETE FROM %s WHERE id <> '%s'", table, bad))
			if err == nil || !strings.Contains(got, `invalid input syntax for type ksuid: "`+bad+`"`) {
				t.Errorf("psql with %q: %q (%v), want the input error naming it", bad, got, err)
			}
		}
		if n := extCount(t, ctx, ext, table); n != 4 {
			t.Errorf("%d rows left, want 4", n)
		}
	})
}

// TestExtensionPlans: the planner serves the lookups a user writes from
// the primary key's index, and joins, DISTINCT, GROUP BY and hash
// partitions work on the types as on uuid.
func TestExtensionPlans(t *testing.T) {
	forEachExtServer(t, func(t *testing.T, ext *extServer) {
		ctx := testContext(t)
		conn, err := ext.pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Release()
		big := extTable(t, ctx, ext, "id ksuid PRIMARY KEY, n int")
		small := extTable(t, ctx, ext, "id ksuid PRIMARY KEY")
		base := time.Now().Add(-100 * 24 * time.Hour)
		const n = 100_000
		rows := make([][]any, n)
		ids := make([]ksuid.KSUID, n)
		for i := range rows {
			ids[i] = must(ksuid.NewAt(base.Add(time.Duration(i) * time.Minute)))
			rows[i] = []any{ids[i], i}
		}
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{strings.Trim(big, `"`)}, []string{"id", "n"}, pgx.CopyFromRows(rows)); err != nil {
			t.Fatal(err)
		}
		for _, sql := range []string{"INSERT INTO " + small + " SELECT id FROM " + big + " WHERE n % 1000 = 0", "ANALYZE " + big, "ANALYZE " + small} {
			if _, err := conn.Exec(ctx, sql); err != nil {
				t.Fatal(err)
			}
		}
		explain := func(settings, sql string, args ...any) string {
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			if settings != "" {
				if _, err := tx.Exec(ctx, settings); err != nil {
					t.Fatal(err)
				}
			}
			plan, err := pgx.CollectRows(must(tx.Query(ctx, "EXPLAIN "+sql, args...)), pgx.RowTo[string])
			if err != nil {
				t.Fatalf("EXPLAIN %s: %v", sql, err)
			}
			return strings.Join(plan, "\n")
		}
		mid := ids[n/2]
		for _, c := range []struct {
			name, settings, sql string
			args                []any
			want                string
		}{
			{"=", "", "SELECT n FROM " + big + " WHERE id = $1", []any{mid}, "Index Scan using"},
			{"= text literal", "", "SELECT n FROM " + big + " WHERE id = '" + mid.String() + "'", nil, "Index Scan using"},
			{"= ANY", "", "SELECT n FROM " + big + " WHERE id = ANY($1)", []any{[]ksuid.KSUID{ids[3], mid}}, "Index Scan using"},
			{"next page", "", "SELECT n FROM " + big + " WHERE id > $1 ORDER BY id LIMIT 20", []any{mid}, "Index Scan using"},
			{"previous page", "", "SELECT n FROM " + big + " WHERE id < $1 ORDER BY id DESC LIMIT 20", []any{mid}, "Index Scan Backward using"},
			{"window", "", "SELECT n FROM " + big + " WHERE id BETWEEN ksuid_min_at($1) AND ksuid_max_at($2)",
				[]any{base.Add(time.Hour), base.Add(2 * time.Hour)}, "Index Scan using"},
			{"half-open window", "", "SELECT n FROM " + big + " WHERE id >= ksuid_min_at($1) AND id < ksuid_min_at($2)",
				[]any{base.Add(time.Hour), base.Add(2 * time.Hour)}, "Index Scan using"},
			{"join by index", "", "SELECT b.n FROM " + small + " s JOIN " + big + " b ON b.id = s.id", nil, "Index Scan using"},
			{"merge join", "SET LOCAL enable_hashjoin = off; SET LOCAL enable_nestloop = off",
				"SELECT b.n FROM " + small + " s JOIN " + big + " b ON b.id = s.id", nil, "Merge Join"},
			{"hash join", "SET LOCAL enable_mergejoin = off; SET LOCAL enable_nestloop = off",
				"SELECT b.n FROM " + small + " s JOIN " + big + " b ON b.id = s.id", nil, "Hash Join"},
			{"hash aggregate", "SET LOCAL enable_sort = off; SET LOCAL enable_indexscan = off; SET LOCAL enable_indexonlyscan = off", "SELECT id, count(*) FROM " + big + " GROUP BY id", nil, "HashAggregate"},
		} {
			if plan := explain(c.settings, c.sql, c.args...); !strings.Contains(plan, c.want) {
				t.Errorf("%s: plan without %q:\n%s", c.name, c.want, plan)
			}
		}
		// The queries answer as well as plan: a join, DISTINCT, GROUP BY,
		// and a table partitioned by hash on a ksuid.
		var joined, distinct, groups int
		if err := conn.QueryRow(ctx, "SELECT (SELECT count(*) FROM "+small+" s JOIN "+big+" b ON b.id = s.id), "+
			"(SELECT count(DISTINCT id) FROM "+big+"), (SELECT count(*) FROM (SELECT id FROM "+big+" GROUP BY id) g)").Scan(&joined, &distinct, &groups); err != nil {
			t.Fatal(err)
		}
		if joined != n/1000 || distinct != n || groups != n {
			t.Errorf("join %d, distinct %d, groups %d; want %d, %d, %d", joined, distinct, groups, n/1000, n, n)
		}
		hashed := extTable(t, ctx, ext, "id ksuid PRIMARY KEY) PARTITION BY HASH (id")
		for r := range 4 {
			if _, err := conn.Exec(ctx, fmt.Sprintf("CREATE TABLE %s_%d PARTITION OF %s FOR VALUES WITH (MODULUS 4, REMAINDER %d)",
				strings.Trim(hashed, `"`), r, hashed, r)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := conn.Exec(ctx, "INSERT INTO "+hashed+" SELECT id FROM "+big); err != nil {
			t.Fatal(err)
		}
		var found, parts int
		if err := conn.QueryRow(ctx, "SELECT count(*), count(DISTINCT tableoid) FROM "+hashed+" WHERE id = ANY($1)",
			ids[:1000]).Scan(&found, &parts); err != nil {
			t.Fatal(err)
		}
		if found != 1000 || parts != 4 {
			t.Errorf("hash partitions: found %d of 1000 in %d partitions, want all in 4", found, parts)
		}
	})
}

// extConn is one connection to the extension's database with helper
// functions in pg_temp that report an input error as NULL (any other
// error still fails the statement).
func extConn(t *testing.T, ctx context.Context, ext *extServer) *pgxpool.Conn {
	t.Helper()
	conn, err := ext.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(conn.Release)
	for _, f := range []struct{ name, expr string }{
		{"ksuid_in", "ksuid_in(s::cstring)::bytea"},
		{"ksuid_from_text", "ksuid_from_text(s)::bytea"},
		{"objectid_in", "objectid_in(s::cstring)::bytea"},
		{"objectid_from_text", "objectid_from_text(s)::bytea"},
	} {
		if _, err := conn.Exec(ctx, fmt.Sprintf(`CREATE OR REPLACE FUNCTION pg_temp.try_%s(s text) RETURNS bytea LANGUAGE plpgsql AS $$
			BEGIN RETURN %s; EXCEPTION WHEN invalid_text_representation THEN RETURN NULL; END $$`, f.name, f.expr)); err != nil {
			t.Fatal(err)
		}
	}
	// The connection is the test's alone: its pg_temp functions go with it.
	t.Cleanup(func() { conn.Conn().Close(context.Background()) })
	return conn
}

// randomText makes strings that are sometimes IDs and mostly near
// misses: right length with a bad character, one too short or long,
// above the largest KSUID, \x forms, non-ASCII, any length.
func randomText(r *rand.Rand, valid func() string) string {
	const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	s := []byte(valid())
	switch r.IntN(10) {
	case 0:
		return string(s)
	case 1:
		s[r.IntN(len(s))] = " -_+/=.zGg\\"[r.IntN(11)]
	case 2:
		s = s[:len(s)-1]
	case 3:
		s = append(s, alphabet[r.IntN(62)])
	case 4:
		s[0] = "abcdefghijklmnopqrstuvwxyz"[r.IntN(26)] // often above the largest KSUID
	case 5:
		return `\x` + hex.EncodeToString(s[:len(s)/2])
	case 6:
		return `\x` + strings.Repeat("0f", r.IntN(30)) + string("0123456789abcdefABCDEFg"[r.IntN(23)])
	case 7:
		return string(s[:len(s)-2]) + []string{"é", "€", "日", "\u00a0"}[r.IntN(4)]
	case 8:
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = byte(1 + r.IntN(127))
		}
		return string(b)
	}
	return strings.ToUpper(string(s))
}

// TestExtensionMatchesGo is the differential test of the C functions
// against the Go packages, over 100,000 inputs each: text out and in
// (both input functions), binary out and in, the time, the bounds of a
// second, and 100,000 near-miss strings for each parser, which C and Go
// must accept and refuse alike; ObjectIDs' text and time; and the UUIDv7
// functions.
func TestExtensionMatchesGo(t *testing.T) {
	forEachExtServer(t, func(t *testing.T, ext *extServer) {
		ctx := testContext(t)
		conn := extConn(t, ctx, ext)
		r := rand.New(rand.NewPCG(1, 2))
		const n = 100_000

		// KSUIDs of random bytes, the extremes among them.
		raw := make([][]byte, n)
		for i := range raw {
			b := make([]byte, ksuid.Size)
			for j := range b {
				b[j] = byte(r.Uint32())
			}
			raw[i] = b
		}
		raw[0], raw[1] = make([]byte, ksuid.Size), bytes.Repeat([]byte{0xFF}, ksuid.Size)
		texts := mapAll(toAnyBytes(raw), func(v any) string { return ksuid.KSUID(v.([]byte)).String() })
		type row struct {
			text, fromText, in []byte
			out                string
			sec                int64
		}
		rows, err := conn.Query(ctx, `SELECT k::text, ksuid_from_text(t)::bytea, t::ksuid::bytea, extract(epoch FROM ksuid_time(k))::bigint
			FROM unnest($1::bytea[], $2::text[]) WITH ORDINALITY AS u(b, t, i), LATERAL (SELECT b::ksuid AS k) x ORDER BY i`, raw, texts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (g row, err error) {
			err = r.Scan(&g.out, &g.fromText, &g.in, &g.sec)
			return g, err
		})
		if err != nil || len(got) != n {
			t.Fatalf("%d rows, %v", len(got), err)
		}
		mismatches := 0
		for i, g := range got {
			id := ksuid.KSUID(raw[i])
			if g.out != texts[i] || !bytes.Equal(g.fromText, raw[i]) || !bytes.Equal(g.in, raw[i]) || g.sec != id.Time().Unix() {
				if mismatches++; mismatches < 10 {
					t.Errorf("%x: C says %s, %x, %x, %d; Go %s, %d", raw[i], g.out, g.fromText, g.in, g.sec, texts[i], id.Time().Unix())
				}
			}
		}

		// ObjectIDs: the first 12 bytes of each, out and in as text, and
		// their time.
		oids := mapAll(toAnyBytes(raw), func(v any) []byte { return v.([]byte)[:objectid.Size] })
		oidRows, err := conn.Query(ctx, `SELECT o::text, objectid_from_text(o::text)::bytea, extract(epoch FROM objectid_time(o))::bigint
			FROM unnest($1::bytea[]) WITH ORDINALITY AS u(b, i), LATERAL (SELECT b::objectid AS o) x ORDER BY i`, oids)
		if err != nil {
			t.Fatal(err)
		}
		oidGot, err := pgx.CollectRows(oidRows, func(r pgx.CollectableRow) (g row, err error) {
			err = r.Scan(&g.out, &g.fromText, &g.sec)
			return g, err
		})
		if err != nil || len(oidGot) != n {
			t.Fatalf("%d rows, %v", len(oidGot), err)
		}
		for i, g := range oidGot {
			id := objectid.ObjectID(oids[i])
			if g.out != id.String() || !bytes.Equal(g.fromText, oids[i]) || g.sec != id.Time().Unix() {
				if mismatches++; mismatches < 10 {
					t.Errorf("%x: C says %s, %x, %d; Go %s, %d", oids[i], g.out, g.fromText, g.sec, id, id.Time().Unix())
				}
			}
		}

		// Binary in (COPY, ksuid_recv) and out (ksuid_send), through the
		// extension's codec in sqltype.
		table := extTable(t, ctx, ext, "i int PRIMARY KEY, id ksuid NOT NULL")
		copyRows := make([][]any, n)
		for i := range copyRows {
			copyRows[i] = []any{i, ksuid.KSUID(raw[i])}
		}
		if _, err := conn.CopyFrom(ctx, pgx.Identifier{strings.Trim(table, `"`)}, []string{"i", "id"}, pgx.CopyFromRows(copyRows)); err != nil {
			t.Fatal(err)
		}
		back, err := pgx.CollectRows(must(conn.Query(ctx, "SELECT id FROM "+table+" ORDER BY i")), pgx.RowTo[ksuid.KSUID])
		if err != nil || len(back) != n {
			t.Fatalf("%d rows, %v", len(back), err)
		}
		for i := range back {
			if !bytes.Equal(back[i][:], raw[i]) {
				if mismatches++; mismatches < 10 {
					t.Errorf("binary round trip of %x: %x", raw[i], back[i][:])
				}
			}
		}

		// The bounds of a second, at random times across the KSUID range,
		// to the microsecond (PostgreSQL's resolution).
		times := make([]time.Time, n)
		for i := range times {
			times[i] = time.Unix(1400000000+r.Int64N(1<<32-1), r.Int64N(1e6)*1000).UTC()
		}
		bounds, err := pgx.CollectRows(must(conn.Query(ctx, `SELECT ksuid_min_at(t)::bytea, ksuid_max_at(t)::bytea,
				objectid_min_at(t - interval '1400000000 s')::bytea, objectid_max_at(t - interval '1400000000 s')::bytea
			FROM unnest($1::timestamptz[]) WITH ORDINALITY AS u(t, i) ORDER BY i`, times)),
			func(r pgx.CollectableRow) ([4][]byte, error) {
				var b [4][]byte
				err := r.Scan(&b[0], &b[1], &b[2], &b[3])
				return b, err
			})
		if err != nil {
			t.Fatal(err)
		}
		for i, b := range bounds {
			o := times[i].Add(-1400000000 * time.Second)
			want := [4][]byte{must(ksuid.MinAt(times[i])).Bytes(), must(ksuid.MaxAt(times[i])).Bytes(),
				must(objectid.MinAt(o)).Bytes(), must(objectid.MaxAt(o)).Bytes()}
			for j := range b {
				if !bytes.Equal(b[j], want[j]) {
					if mismatches++; mismatches < 10 {
						t.Errorf("bounds of %s (%d): C %x, Go %x", times[i], j, b[j], want[j])
					}
				}
			}
		}

		// Near misses: the same answer from both parsers in C (the input
		// function and the cast from text, which take the same) and Go.
		for _, c := range []struct {
			name  string
			valid func() string
			goIn  func(string) ([]byte, error) // what both take: the text, or \x and hex
		}{
			{"ksuid", func() string { return texts[r.IntN(n)] },
				func(s string) ([]byte, error) { return parseOrHex(s, ksuid.Size, ksuid.Parse) }},
			{"objectid", func() string { return hex.EncodeToString(raw[r.IntN(n)][:objectid.Size]) },
				func(s string) ([]byte, error) { return parseOrHex(s, objectid.Size, objectid.Parse) }},
		} {
			inputs := make([]string, n)
			for i := range inputs {
				inputs[i] = randomText(r, c.valid)
			}
			results, err := pgx.CollectRows(must(conn.Query(ctx, fmt.Sprintf(`SELECT pg_temp.try_%[1]s_from_text(s), pg_temp.try_%[1]s_in(s)
				FROM unnest($1::text[]) WITH ORDINALITY AS u(s, i) ORDER BY i`, c.name), inputs)),
				func(r pgx.CollectableRow) ([2][]byte, error) {
					var b [2][]byte
					err := r.Scan(&b[0], &b[1])
					return b, err
				})
			if err != nil {
				t.Fatal(err)
			}
			accepted := 0
			for i, res := range results {
				for j := range res {
					want, err := c.goIn(inputs[i])
					if err != nil {
						want = nil
					} else {
						accepted++
					}
					if !bytes.Equal(res[j], want) || (res[j] == nil) != (want == nil) {
						if mismatches++; mismatches < 10 {
							t.Errorf("%s parser %d of %q: C %x, Go %x (%v)", c.name, j, inputs[i], res[j], want, err)
						}
					}
				}
			}
			t.Logf("%s: %d near-miss strings, %d of %d parses accepted", c.name, n, accepted, 2*n)
			if accepted < n/20 || accepted > n {
				t.Errorf("%s: %d of %d parses accepted: the inputs do not test both answers", c.name, accepted, 2*n)
			}
		}

		// UUIDv7: the time of an ID and the bounds of a millisecond.
		uuids := make([]uuidv7.UUID, n)
		for i := range uuids {
			uuids[i] = must(uuidv7.NewAt(times[i].Add(-1400000000 * time.Second)))
		}
		uv, err := pgx.CollectRows(must(conn.Query(ctx, `SELECT uuidv7_time(u), uuidv7_min_at(t), uuidv7_max_at(t)
			FROM unnest($1::uuid[], $2::timestamptz[]) WITH ORDINALITY AS x(u, t, i) ORDER BY i`, uuids, times)),
			func(r pgx.CollectableRow) (v struct {
				at       time.Time
				min, max uuidv7.UUID
			}, err error) {
				err = r.Scan(&v.at, &v.min, &v.max)
				return v, err
			})
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range uv {
			if !v.at.Equal(uuids[i].Time()) || v.min != must(uuidv7.MinAt(times[i])) || v.max != must(uuidv7.MaxAt(times[i])) {
				if mismatches++; mismatches < 10 {
					t.Errorf("uuidv7 of %s / %s: C %s %s %s", uuids[i], times[i], v.at, v.min, v.max)
				}
			}
		}
		if mismatches > 0 {
			t.Errorf("%d mismatches between C and Go", mismatches)
		}
	})
}

func toAnyBytes(xs [][]byte) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// parseOrHex is what the types' input functions take: the text form, or
// \x and exactly 2*size hex digits.
func parseOrHex[T interface{ Bytes() []byte }](s string, size int, parse func(string) (T, error)) ([]byte, error) {
	if h, ok := strings.CutPrefix(s, `\x`); ok {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != size {
			return nil, errors.New("not \\x and the right number of hex digits")
		}
		return b, nil
	}
	id, err := parse(s)
	if err != nil {
		return nil, err
	}
	return id.Bytes(), nil
}

// TestExtensionGenerate: 8 sessions each make 100,000 KSUIDs with
// ksuid_generate() at once: none repeats, each session's are strictly
// increasing, and each is dated by the clock; IDs made in SQL and by Go's
// ksuid.New one after the other sort in that order. uuidv7_generate() is
// strictly increasing within a session too.
func TestExtensionGenerate(t *testing.T) {
	forEachExtServer(t, func(t *testing.T, ext *extServer) {
		ctx := testContext(t)
		const sessions, each = 8, 100_000
		results := make([][][]byte, sessions)
		errs := make([]error, sessions)
		before := time.Now().Add(-time.Second)
		var wg sync.WaitGroup
		for s := range sessions {
			wg.Go(func() {
				conn, err := pgx.ConnectConfig(ctx, ext.config.ConnConfig)
				if err != nil {
					errs[s] = err
					return
				}
				defer conn.Close(context.Background())
				rows, err := conn.Query(ctx, "SELECT ksuid_generate()::bytea FROM generate_series(1, $1) ORDER BY generate_series", each)
				if err != nil {
					errs[s] = err
					return
				}
				results[s], errs[s] = pgx.CollectRows(rows, pgx.RowTo[[]byte])
			})
		}
		wg.Wait()
		after := time.Now().Add(time.Second)
		seen := make(map[[ksuid.Size]byte]bool, sessions*each)
		for s, ids := range results {
			if errs[s] != nil || len(ids) != each {
				t.Fatalf("session %d: %d IDs, %v", s, len(ids), errs[s])
			}
			for i, b := range ids {
				id := ksuid.KSUID(b)
				if seen[id] {
					t.Fatalf("session %d made %s again", s, id)
				}
				seen[id] = true
				if i > 0 && bytes.Compare(ids[i-1], b) >= 0 {
					t.Fatalf("session %d: ID %d %s is not after %s", s, i, id, ksuid.KSUID(ids[i-1]))
				}
				if at := id.Time(); at.Before(before.Truncate(time.Second)) || at.After(after) {
					t.Fatalf("session %d: %s is dated %s, outside %s..%s", s, id, at, before, after)
				}
			}
		}
		// Laid out as Go's ksuid.New: the fraction of the second follows
		// the clock, so IDs made in SQL and in Go, one after the other,
		// sort in the order they were made.
		for range 100 {
			var before, after ksuid.KSUID
			if err := ext.pool.QueryRow(ctx, "SELECT ksuid_generate()").Scan(&before); err != nil {
				t.Fatal(err)
			}
			between := ksuid.New()
			if err := ext.pool.QueryRow(ctx, "SELECT ksuid_generate()").Scan(&after); err != nil {
				t.Fatal(err)
			}
			if before.Compare(between) >= 0 || between.Compare(after) >= 0 {
				t.Fatalf("made in this order: %s (SQL), %s (Go), %s (SQL); they sort otherwise", before, between, after)
			}
		}
		uuids, err := pgx.CollectRows(must(ext.pool.Query(ctx, "SELECT uuidv7_generate() FROM generate_series(1, 100000) ORDER BY generate_series")),
			pgx.RowTo[uuidv7.UUID])
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(uuids); i++ {
			if uuids[i].Compare(uuids[i-1]) <= 0 || uuids[i].Version() != 7 {
				t.Fatalf("uuidv7_generate: %s after %s", uuids[i], uuids[i-1])
			}
		}
	})
}

// TestExtensionHostileInput feeds random and adversarial text to the
// input functions and casts (and, from 16 on, to pg_input_is_valid and
// pg_input_error_info, the soft-error path), and random bytes to the receive functions
// (as parameters and as array elements that lie about their length): each
// is an error of the right class, the message quotes at most a bounded
// excerpt, and the server still answers on another connection.
func TestExtensionHostileInput(t *testing.T) {
	forEachExtServer(t, func(t *testing.T, ext *extServer) {
		ctx := testContext(t)
		watcher, err := pgx.ConnectConfig(ctx, ext.config.ConnConfig)
		if err != nil {
			t.Fatal(err)
		}
		defer watcher.Close(context.Background())
		conn, err := pgx.ConnectConfig(ctx, ext.config.ConnConfig)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		var ksuidOID, objectidOID, ksuidArrayOID uint32
		if err := conn.QueryRow(ctx, "SELECT 'ksuid'::regtype::oid, 'objectid'::regtype::oid, '_ksuid'::regtype::oid").Scan(&ksuidOID, &objectidOID, &ksuidArrayOID); err != nil {
			t.Fatal(err)
		}
		r := rand.New(rand.NewPCG(3, 4))
		code := func(err error) string {
			var pgErr *pgconn.PgError
			if errors.As(err, &pgErr) {
				return pgErr.Code
			}
			return ""
		}
		texts := []string{"", `\`, `\x`, `\x0`, `\xzz`, strings.Repeat("z", 1<<20), strings.Repeat("é", 1000), "\u00a0", "𝕂" + strings.Repeat("0", 26),
			`\x` + strings.Repeat("0", 39), `\x` + strings.Repeat("0", 41), `\X` + strings.Repeat("0", 40), "%s%n%x", "'; DROP TABLE x; --"}
		for range 2000 {
			b := make([]rune, r.IntN(60))
			for i := range b {
				b[i] = rune(1 + r.IntN(0x2FFF))
			}
			texts = append(texts, string(b))
		}
		for _, typ := range []string{"ksuid", "objectid"} {
			for _, s := range texts {
				for _, expr := range []string{typ + "_in($1::cstring)", "$1::text::" + typ, typ + "_from_text($1)"} {
					_, err := conn.Exec(ctx, "SELECT "+expr, s)
					if err == nil {
						t.Fatalf("%s of %q: no error", expr, s)
					}
					if code(err) != "22P02" || len(err.Error()) > 600 {
						t.Fatalf("%s of %q: %v (SQLSTATE %s), want a bounded invalid_text_representation", expr, excerptOf(s), err, code(err))
					}
				}
			}
			// From 16 on the same input through the soft-error path, in
			// one statement: reported, not raised, and as bounded.
			if ext.major >= 16 {
				rows, err := conn.Query(ctx, `SELECT s, pg_input_is_valid(s, $2), e.message, e.sql_error_code
					FROM unnest($1::text[]) AS u(s), LATERAL pg_input_error_info(s, $2) e`, texts, typ)
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for rows.Next() {
					var s, message, sqlstate string
					var valid bool
					if err := rows.Scan(&s, &valid, &message, &sqlstate); err != nil {
						t.Fatal(err)
					}
					if n++; valid || sqlstate != "22P02" || len(message) > 200 {
						t.Fatalf("pg_input_is_valid of %q as %s: %v, %q (%s); want false, a bounded invalid_text_representation", excerptOf(s), typ, valid, message, sqlstate)
					}
				}
				if err := rows.Err(); err != nil || n != len(texts) {
					t.Fatalf("pg_input_is_valid as %s: %d of %d texts, %v", typ, n, len(texts), err)
				}
			}
		}
		// Binary parameters of every length from 0 to 64, random bytes.
		for _, c := range []struct {
			oid  uint32
			size int
		}{{ksuidOID, ksuid.Size}, {objectidOID, objectid.Size}} {
			for length := 0; length <= 64; length++ {
				for range 5 {
					b := make([]byte, length)
					for i := range b {
						b[i] = byte(r.Uint32())
					}
					res := conn.PgConn().ExecParams(ctx, "SELECT $1::text", [][]byte{b}, []uint32{c.oid}, []int16{1}, nil).Read()
					if length == c.size {
						if res.Err != nil {
							t.Fatalf("%d good bytes: %v", length, res.Err)
						}
					} else if code(res.Err) != "22P03" {
						t.Fatalf("%d bytes for a %d-byte type: %v, want invalid_binary_representation", length, c.size, res.Err)
					}
					_, err := conn.Exec(ctx, fmt.Sprintf("SELECT %s::bytea::%s", "'\\x"+hex.EncodeToString(b)+"'", map[uint32]string{ksuidOID: "ksuid", objectidOID: "objectid"}[c.oid]))
					if (length == c.size) != (err == nil) || (err != nil && code(err) != "22P03") {
						t.Fatalf("cast of %d bytes: %v", length, err)
					}
				}
			}
		}
		// Arrays whose elements claim the wrong length, or more bytes than
		// there are.
		for _, claim := range []int32{0, 19, 21, -2, 1 << 30} {
			var a []byte
			a = binary.BigEndian.AppendUint32(a, 1) // dimensions
			a = binary.BigEndian.AppendUint32(a, 0) // no NULLs
			a = binary.BigEndian.AppendUint32(a, ksuidOID)
			a = binary.BigEndian.AppendUint32(a, 1) // length
			a = binary.BigEndian.AppendUint32(a, 1) // lower bound
			a = binary.BigEndian.AppendUint32(a, uint32(claim))
			a = append(a, make([]byte, 20)...)
			res := conn.PgConn().ExecParams(ctx, "SELECT cardinality($1)", [][]byte{a}, []uint32{ksuidArrayOID}, []int16{1}, nil).Read()
			if res.Err == nil {
				t.Fatalf("an array element claiming %d bytes was read", claim)
			}
		}
		var one int
		if err := watcher.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("the server no longer answers another connection: %v", err)
		}
		if err := conn.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil {
			t.Fatalf("the connection that sent the input no longer answers: %v", err)
		}
	})
}

func excerptOf(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// TestExtensionOneInstall: sortid sql on a database with the extension
// changes nothing and says so (psql exits non-zero, Install returns
// ErrExtensionInstalled); CREATE EXTENSION on a database with the domains
// is refused, naming them, and creates nothing.
func TestExtensionOneInstall(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	before := extCatalog(t, ctx, servers.pgExt)
	c := servers.pgExtConfig.ConnConfig
	url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, c.Database)
	script, err := sqltype.InstallSQL("")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, "psql", "-Xq", "-v", "ON_ERROR_STOP=1", url)
	cmd.Stdin = strings.NewReader(script)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "this database has the sortid extension") || !strings.Contains(string(out), "nothing was changed") {
		t.Errorf("sortid sql | psql on the extension's database: %v\n%s", err, out)
	}
	if err := sqltype.Install(ctx, servers.pgExt, ""); !errors.Is(err, sqltype.ErrExtensionInstalled) {
		t.Errorf("Install on the extension's database: %v, want ErrExtensionInstalled", err)
	}
	if after := extCatalog(t, ctx, servers.pgExt); after != before {
		t.Errorf("the install changed the database:\nbefore %s\nafter  %s", before, after)
	}

	// The other way round, on a database of the domains.
	pool := pg15Database(t, ctx, "sortid_one_install")
	if err := sqltype.Install(ctx, pool, ""); err != nil {
		t.Fatal(err)
	}
	before = extCatalog(t, ctx, pool)
	_, err = pool.Exec(ctx, "CREATE EXTENSION sortid")
	if err == nil || !strings.Contains(err.Error(), "has the domains public.ksuid, public.objectid") {
		t.Errorf("CREATE EXTENSION over the domains: %v", err)
	}
	if after := extCatalog(t, ctx, pool); after != before {
		t.Errorf("CREATE EXTENSION changed the database:\nbefore %s\nafter  %s", before, after)
	}
}

// extCatalog lists the types, functions and extensions of a database, to
// tell whether something changed them.
func extCatalog(t *testing.T, ctx context.Context, db interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}) string {
	t.Helper()
	var s string
	if err := db.QueryRow(ctx, `SELECT concat_ws(' | ',
		(SELECT string_agg(typname || ':' || typtype::text, ',' ORDER BY typname) FROM pg_type WHERE typname ~ '(ksuid|objectid)'),
		(SELECT string_agg(p.proname || ':' || l.lanname, ',' ORDER BY p.proname, l.lanname) FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
			WHERE p.proname ~ '^(ksuid|objectid|uuidv7)_'),
		(SELECT string_agg(extname, ',' ORDER BY extname) FROM pg_extension))`).Scan(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// pg15Database creates a database of its own on the PostgreSQL 15 server
// and returns a pool on it (with sqltype.AfterConnect).
func pg15Database(t *testing.T, ctx context.Context, name string) *pgxpool.Pool {
	t.Helper()
	for _, sql := range []string{"DROP DATABASE IF EXISTS " + name + " WITH (FORCE)", "CREATE DATABASE " + name} {
		if _, err := servers.pg15.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	cfg := servers.pgExtConfig.Copy()
	cfg.ConnConfig = withDatabase(cfg.ConnConfig, name)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pool.Close()
		servers.pg15.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return pool
}

// TestExtensionFromDomains moves a database from the domains to the
// types with `sortid sql to-extension`, as the docs say: a table keyed by
// the ksuid domain with an array column, a table whose foreign key points
// at it with a secondary index, a table partitioned by day with
// `sortid sql partitions` (a foreign key, a grant), and a GORM table.
// A writer keeps inserting beside it. Afterwards every row is found by its
// ID, by the text form in SQL and by window, every insert the writer was
// told succeeded among them; the foreign keys hold; the partitions take
// new rows and their retention still drops; GORM migrates and finds its
// rows.
func TestExtensionFromDomains(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	const name = "sortid_from_domains"
	pool := pg15Database(t, ctx, name)
	if err := sqltype.Install(ctx, pool, ""); err != nil {
		t.Fatal(err)
	}
	pool.Reset() // connections made before the install know no domains
	now := time.Now()
	for _, sql := range []string{
		"CREATE TABLE orders (id ksuid PRIMARY KEY DEFAULT ksuid_generate(), customer int NOT NULL, related ksuid[])",
		"CREATE TABLE items (id objectid PRIMARY KEY, order_id ksuid NOT NULL REFERENCES orders (id), n int)",
		"CREATE INDEX items_order_id ON items (order_id)",
		"CREATE TABLE events (id ksuid NOT NULL DEFAULT ksuid_generate(), order_id ksuid REFERENCES orders (id), body text, PRIMARY KEY (id)) PARTITION BY RANGE (id)",
		"GRANT SELECT ON events TO PUBLIC",
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	spec := sqltype.PartitionSpec{Table: "events", IDType: "ksuid", Period: sqltype.Day, Back: 3, Ahead: 1}
	if err := sqltype.Partitions(ctx, pool, spec, now); err != nil {
		t.Fatal(err)
	}
	gdb := openGORMWith(t, gormpostgres.Open(gormDSNTo(servers.pgExtConfig.ConnConfig, name)))
	if err := gdb.AutoMigrate(&gormUser{}, &gormOrder{}); err != nil {
		t.Fatal(err)
	}

	// Data: orders over the last three days, items and events of each.
	const n = 3000
	orders := make([]ksuid.KSUID, n)
	rows := make([][]any, n)
	for i := range orders {
		orders[i] = must(ksuid.NewAt(now.Add(-72*time.Hour + time.Duration(i)*time.Duration(72*time.Hour/n))))
		rows[i] = []any{orders[i], i, []ksuid.KSUID{orders[i], orders[(i+1)%n]}}
	}
	if _, err := pool.CopyFrom(ctx, pgx.Identifier{"orders"}, []string{"id", "customer", "related"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	for _, sql := range []string{
		"INSERT INTO items SELECT lpad(to_hex(customer), 24, '0'), id, customer FROM orders",
		"INSERT INTO events (id, order_id, body) SELECT id, id, 'e' || customer FROM orders",
	} {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	users := make([]gormUser, 50)
	for i := range users {
		users[i] = gormUser{Email: fmt.Sprintf("u%d@example.com", i), Name: "before"}
	}
	if err := gdb.Create(&users).Error; err != nil {
		t.Fatal(err)
	}

	// A writer beside the conversion, as an application would keep
	// running: each insert it was told succeeded must be there after;
	// the others must have failed loudly. Once the conversion is done its
	// pool reconnects (pool.Reset, as docs/postgresql.md says), and it
	// must write again.
	const writerMark = 1_000_000 // customer numbers of the writer's rows
	var (
		acked      []ksuid.KSUID
		failures   int
		afterReset = make(chan struct{})
		wroteAgain = make(chan struct{}) // 20 inserts after the reset
		stopWriter = make(chan struct{})
		writerDone = make(chan struct{})
	)
	go func() {
		defer close(writerDone)
		okAfterReset := 0
		for i := 0; ; i++ {
			select {
			case <-stopWriter:
				return
			default:
			}
			id := ksuid.New()
			if _, err := pool.Exec(ctx, "INSERT INTO orders (id, customer) VALUES ($1, $2)", id, writerMark+i); err != nil {
				failures++
				time.Sleep(10 * time.Millisecond)
				continue
			}
			acked = append(acked, id)
			select {
			case <-afterReset:
				if okAfterReset++; okAfterReset == 20 {
					close(wroteAgain)
					<-stopWriter
					return
				}
			default:
			}
		}
	}()
	time.Sleep(50 * time.Millisecond)

	// The conversion, as a user runs it.
	c := servers.pgExtConfig.ConnConfig
	url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, name)
	cmd := exec.CommandContext(ctx, "psql", "-Xq", "-v", "ON_ERROR_STOP=1", url)
	cmd.Stdin = strings.NewReader(pgsql.ToExtension())
	// Session settings that change how values print must not change
	// what the conversion writes back (the partitions' bounds above all).
	cmd.Env = append(os.Environ(), "PGOPTIONS=-c bytea_output=escape -c standard_conforming_strings=off -c TimeZone=Pacific/Chatham")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("sortid sql to-extension | psql: %v\n%s", err, out)
	}
	pool.Reset()
	close(afterReset)
	select {
	case <-wroteAgain:
	case <-time.After(30 * time.Second):
		t.Error("the writer did not write again within 30 s of the conversion")
	}
	close(stopWriter)
	<-writerDone

	var types string
	if err := pool.QueryRow(ctx, `SELECT string_agg(c.relname || '.' || a.attname || ':' || format_type(a.atttypid, NULL), ',' ORDER BY c.relname, a.attname)
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
		WHERE c.relname IN ('orders', 'items', 'events', 'gorm_users', 'gorm_orders') AND a.attnum > 0 AND NOT a.attisdropped
			AND a.attname IN ('id', 'order_id', 'related', 'user_id')`).Scan(&types); err != nil {
		t.Fatal(err)
	}
	want := "events.id:ksuid,events.order_id:ksuid,gorm_orders.id:ksuid,gorm_orders.user_id:ksuid,gorm_users.id:ksuid," +
		"items.id:objectid,items.order_id:ksuid,orders.id:ksuid,orders.related:ksuid[]"
	if types != want {
		t.Errorf("column types after the conversion:\n%s\nwant\n%s", types, want)
	}
	if got := extCatalog(t, ctx, pool); strings.Contains(got, "sortid_old") || strings.Contains(got, ":d") || !strings.Contains(got, "sortid") {
		t.Errorf("after the conversion: %s", got)
	}
	// Every row by its ID, as a Go value and as a psql literal; windows.
	var found, byText, window, joined, related int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1)", orders).Scan(&found); err != nil || found != n {
		t.Errorf("orders found by ID: %d of %d (%v)", found, n, err)
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM events WHERE id = ANY($1::text[]::ksuid[])",
		mapAll(toAnyKSUIDs(orders), func(v any) string { return v.(ksuid.KSUID).String() })).Scan(&byText); err != nil || byText != n {
		t.Errorf("events found by text: %d of %d (%v)", byText, n, err)
	}
	from, to := orders[n/3].Time(), orders[2*n/3].Time()
	wantWindow := 0
	for _, id := range orders {
		if !id.Time().Before(from) && id.Time().Before(to) {
			wantWindow++
		}
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM events WHERE id >= ksuid_min_at($1) AND id < ksuid_min_at($2)", from, to).Scan(&window); err != nil || window != wantWindow {
		t.Errorf("events in the window: %d, want %d (%v)", window, wantWindow, err)
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM items i JOIN orders o ON o.id = i.order_id JOIN events e ON e.order_id = o.id").Scan(&joined); err != nil || joined != n {
		t.Errorf("joined: %d of %d (%v)", joined, n, err)
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = related[1]").Scan(&related); err != nil || related != n {
		t.Errorf("array column: %d of %d (%v)", related, n, err)
	}
	var written int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM orders WHERE customer >= $1", writerMark).Scan(&written); err != nil {
		t.Fatal(err)
	}
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1)", acked).Scan(&found); err != nil || found != len(acked) || written != len(acked) {
		t.Errorf("the writer beside the conversion: %d inserts acknowledged, %d of them found, %d rows written (%v)", len(acked), found, written, err)
	}
	t.Logf("the writer beside the conversion: %d inserts acknowledged, %d failed with an error", len(acked), failures)
	// The constraints are back and hold; the default is the C generator.
	if _, err := pool.Exec(ctx, "INSERT INTO items VALUES ('ffffffffffffffffffffffff', $1, 0)", ksuid.New()); err == nil {
		t.Error("an item of an unknown order was inserted: the foreign key is gone")
	}
	var fresh ksuid.KSUID
	if err := pool.QueryRow(ctx, "INSERT INTO events (body) VALUES ('new') RETURNING id").Scan(&fresh); err != nil || time.Since(fresh.Time()) > time.Minute {
		t.Errorf("a new event: %s (%v)", fresh, err)
	}
	var grant bool
	if err := pool.QueryRow(ctx, "SELECT has_table_privilege('public', 'events', 'SELECT')").Scan(&grant); err != nil || !grant {
		t.Errorf("the grant on events: %v (%v)", grant, err)
	}
	// Partitions: made and retained on the type as on the domain.
	spec.Retain = 1
	if err := sqltype.Partitions(ctx, pool, spec, now); err != nil {
		t.Fatal(err)
	}
	var parts int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM pg_inherits WHERE inhparent = 'events'::regclass").Scan(&parts); err != nil || parts != 3 {
		t.Errorf("partitions after retention of 1 day: %d, want 3 (%v)", parts, err)
	}
	// GORM: AutoMigrate leaves the converted columns, and finds by ID.
	gdb = openGORMWith(t, gormpostgres.Open(gormDSNTo(servers.pgExtConfig.ConnConfig, name)))
	if err := gdb.AutoMigrate(&gormUser{}, &gormOrder{}); err != nil {
		t.Fatal(err)
	}
	var got []gormUser
	if err := gdb.Where("id IN ?", []string{users[3].ID.String(), users[7].ID.String()}).Order("id").Find(&got).Error; err != nil || len(got) != 2 {
		t.Errorf("GORM by string IDs: %d users (%v)", len(got), err)
	}
	if res := gdb.Model(&gormUser{}).Where("id NOT IN ?", []ksuid.KSUID{users[0].ID}).Update("name", "after"); res.Error != nil || res.RowsAffected != int64(len(users)-1) {
		t.Errorf("GORM update NOT IN: %d rows (%v)", res.RowsAffected, res.Error)
	}
}

func toAnyKSUIDs(ids []ksuid.KSUID) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// gormDSNTo is the DSN of the named database on the server of c.
func gormDSNTo(c *pgx.ConnConfig, database string) string {
	return fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", c.Host, c.Port, c.User, c.Password, database)
}

// sortedKeys is the keys of m in order.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestExtensionInstallcheck runs the extension's pg_regress suite (make
// installcheck: extension/test/sql against test/expected) in each
// server's container against that server, from the sources the image
// built: every version passes all of its tests, soft input errors from 16
// on, COPY ... ON_ERROR from 17 on and the module's name from 18 on
// among them.
func TestExtensionInstallcheck(t *testing.T) {
	forEachExtServer(t, func(t *testing.T, ext *extServer) {
		if ext.c == nil {
			t.Skip("the server was named by a URL, not started here: run make installcheck in extension/ against it")
		}
		ctx := testContext(t)
		want := map[int]int{15: 3, 17: 5, 18: 6}[ext.major]
		if want == 0 {
			t.Fatalf("%s: no count of regression tests for PostgreSQL %d", ext.name, ext.major)
		}
		cmd := []string{"runuser", "-u", "postgres", "--", "env", "PGHOST=/var/run/postgresql", "PGUSER=" + ext.config.ConnConfig.User,
			"make", "-s", "-C", "/usr/src/sortid-extension", "installcheck", "with_llvm=no"}
		code, r, err := ext.c.Exec(ctx, cmd, tcexec.Multiplexed())
		if err != nil {
			t.Fatal(err)
		}
		out, _ := io.ReadAll(r)
		// pg_regress words its summary differently before 16.
		if code != 0 || !strings.Contains(string(out), fmt.Sprintf("All %d tests passed.", want)) {
			_, diffs, _ := ext.c.Exec(ctx, []string{"cat", "/usr/src/sortid-extension/test/regression.diffs"}, tcexec.Multiplexed())
			d, _ := io.ReadAll(diffs)
			t.Fatalf("make installcheck on %s: exit status %d, want all %d tests passed:\n%s\n%s", ext.name, code, want, out, d)
		}
		t.Logf("%s:\n%s", ext.name, out)
	})
}
