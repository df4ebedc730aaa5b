package containers

import (
	"context"
	"database/sql"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// The read matrix: every way a user asks PostgreSQL for rows by ID
// (connection paths x parameter forms x column types x operations), each
// cell classified as correct (the right rows), loud (an error) or silent
// (other rows, without an error). A silent cell fails the test.

// readPath is one connection path: pgx in each query mode with each hook,
// database/sql on pgx, lib/pq, and bun with either of its drivers. run
// executes sql with args in a transaction that it rolls back, and returns
// the one text column of the rows.
type readPath struct {
	name string
	run  func(ctx context.Context, sql string, args ...any) ([]string, error)
}

func readPaths(t *testing.T, ctx context.Context) []readPath {
	return readPathsTo(t, ctx, servers.pgConfig.ConnConfig)
}

// bouncerReadPaths are the pgx paths that work through PgBouncer in
// transaction pooling, QueryExecModeExec and the simple protocol, with
// each hook, to the test database through servers.bouncerConfig.
func bouncerReadPaths(t *testing.T, ctx context.Context) []readPath {
	return pgxReadPaths(t, ctx, servers.bouncerConfig, "PgBouncer ",
		[]pgx.QueryExecMode{pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol})
}

// readPathsTo is readPaths to the database of c.
func readPathsTo(t *testing.T, ctx context.Context, c *pgx.ConnConfig) []readPath {
	out := pgxReadPaths(t, ctx, c, "", execModes)
	return append(out, sqlReadPaths(t, c)...)
}

// pgxReadPaths are pgx's paths to the database of c in each of modes,
// with each hook, named with prefix.
func pgxReadPaths(t *testing.T, ctx context.Context, c *pgx.ConnConfig, prefix string, modes []pgx.QueryExecMode) []readPath {
	var out []readPath
	for _, hook := range []string{"AfterConnect", "no hook"} {
		for _, mode := range modes {
			conn := connInModeTo(t, ctx, c, mode)
			if hook == "AfterConnect" {
				if err := sqltype.AfterConnect(ctx, conn); err != nil {
					t.Fatal(err)
				}
			}
			out = append(out, readPath{
				name: prefix + "pgx " + hook + " " + mode.String(),
				run: func(ctx context.Context, sql string, args ...any) ([]string, error) {
					tx, err := conn.Begin(ctx)
					if err != nil {
						return nil, err
					}
					defer tx.Rollback(context.Background())
					rows, err := tx.Query(ctx, sql, args...)
					if err != nil {
						return nil, err
					}
					return pgx.CollectRows(rows, pgx.RowTo[string])
				},
			})
		}
	}
	return out
}

// sqlReadPaths are the database/sql and bun paths to the database of c.
func sqlReadPaths(t *testing.T, c *pgx.ConnConfig) []readPath {
	var out []readPath
	withHook := stdlib.OpenDB(*c.Copy(), stdlib.OptionAfterConnect(sqltype.AfterConnect))
	t.Cleanup(func() { withHook.Close() })
	noHook := stdlib.OpenDB(*c.Copy())
	t.Cleanup(func() { noHook.Close() })
	dsn := fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", c.Host, c.Port, c.User, c.Password, c.Database)
	pq, err := sql.Open("postgres", dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pq.Close() })
	pqBinary, err := sql.Open("postgres", dsn+" binary_parameters=yes")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pqBinary.Close() })
	// bun writes the arguments into the SQL itself, as literals: the text
	// form, as psql users type it.
	urlDSN := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, c.Database)
	bunPgdriver := bun.NewDB(sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(urlDSN))), pgdialect.New())
	t.Cleanup(func() { bunPgdriver.Close() })
	bunPgx := bun.NewDB(stdlib.OpenDB(*c.Copy()), pgdialect.New())
	t.Cleanup(func() { bunPgx.Close() })
	for _, db := range []struct {
		name string
		db   *bun.DB
	}{{"bun pgdriver", bunPgdriver}, {"bun on pgx stdlib", bunPgx}} {
		out = append(out, readPath{name: db.name,
			run: func(ctx context.Context, query string, args ...any) ([]string, error) {
				tx, err := db.db.BeginTx(ctx, nil)
				if err != nil {
					return nil, err
				}
				defer tx.Rollback()
				rows, err := tx.QueryContext(ctx, placeholder.ReplaceAllString(query, "?"), args...)
				if err != nil {
					return nil, err
				}
				return collectStrings(rows)
			}})
	}
	for _, db := range []struct {
		name string
		db   *sql.DB
	}{
		{"database/sql on pgx AfterConnect", withHook},
		{"database/sql on pgx no hook", noHook},
		{"lib/pq", pq},
		{"lib/pq binary_parameters", pqBinary},
	} {
		out = append(out, readPath{name: db.name,
			run: func(ctx context.Context, sql string, args ...any) ([]string, error) {
				tx, err := db.db.BeginTx(ctx, nil)
				if err != nil {
					return nil, err
				}
				defer tx.Rollback()
				rows, err := tx.QueryContext(ctx, sql, args...)
				if err != nil {
					return nil, err
				}
				return collectStrings(rows)
			}})
	}
	return out
}

// placeholder matches the $n placeholders of the matrix's SQL, which bun
// writes as ?.
var placeholder = regexp.MustCompile(`\$[0-9]+`)

// collectStrings reads the one text column of rows, and closes them.
func collectStrings(rows *sql.Rows) ([]string, error) {
	defer rows.Close()
	var got []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		got = append(got, s)
	}
	return got, rows.Err()
}

// idSet is the IDs of one type at consecutive seconds, in order, and
// what a parameter form makes of one ID or of several.
type idSet struct {
	name   string
	ids    []any    // ksuid.KSUID or objectid.ObjectID
	raw    [][]byte // their bytes
	minAt  func(i int) any
	maxAt  func(i int) any
	form   func(form string, id any) any
	slice  func(form string, ids []any) any
	domain string
}

var paramForms = []string{"ID", "pointer", "Null", "string"}

func ksuidSet(t *testing.T, base time.Time, n int) idSet {
	return newIDSet(t, "KSUID", "ksuid", base, n, ksuid.NewAt, ksuid.MinAt, ksuid.MaxAt,
		func(id ksuid.KSUID) ksuid.NullKSUID { return ksuid.NullKSUID{KSUID: id, Valid: true} })
}

func uuidv7Set(t *testing.T, base time.Time, n int) idSet {
	return newIDSet(t, "UUIDv7", "uuid", base, n, uuidv7.NewAt, uuidv7.MinAt, uuidv7.MaxAt,
		func(id uuidv7.UUID) uuidv7.NullUUID { return uuidv7.NullUUID{UUID: id, Valid: true} })
}

func objectIDSet(t *testing.T, base time.Time, n int) idSet {
	return newIDSet(t, "ObjectID", "objectid", base, n, objectid.NewAt, objectid.MinAt, objectid.MaxAt,
		func(id objectid.ObjectID) objectid.NullObjectID {
			return objectid.NullObjectID{ObjectID: id, Valid: true}
		})
}

// newIDSet makes n IDs of type T one second apart from base, and the
// parameter forms of them: T, *T, the Null type N, and the text form.
func newIDSet[T interface {
	comparable
	String() string
	Bytes() []byte
	Time() time.Time
}, N any](t *testing.T, name, domain string, base time.Time, n int,
	newAt, minAt, maxAt func(time.Time) (T, error), null func(T) N) idSet {
	s := idSet{name: name, domain: domain}
	for i := range n {
		id, err := newAt(base.Add(time.Duration(i) * time.Second))
		if err != nil {
			t.Fatal(err)
		}
		s.ids, s.raw = append(s.ids, id), append(s.raw, id.Bytes())
	}
	s.minAt = func(i int) any { return must(minAt(s.ids[i].(T).Time())) }
	s.maxAt = func(i int) any { return must(maxAt(s.ids[i].(T).Time())) }
	s.form = func(form string, v any) any {
		id := v.(T)
		switch form {
		case "pointer":
			return &id
		case "Null":
			return null(id)
		case "string":
			return id.String()
		}
		return id
	}
	s.slice = func(form string, vs []any) any {
		switch form {
		case "pointer":
			return mapAll(vs, func(v any) *T { id := v.(T); return &id })
		case "Null":
			return mapAll(vs, func(v any) N { return null(v.(T)) })
		case "string":
			return mapAll(vs, func(v any) string { return v.(T).String() })
		}
		return mapAll(vs, func(v any) T { return v.(T) })
	}
	return s
}

func mapAll[T any](vs []any, f func(any) T) []T {
	out := make([]T, len(vs))
	for i, v := range vs {
		out[i] = f(v)
	}
	return out
}

// readOp is one operation: its SQL (with %s for the table), its
// arguments, and the indexes of the rows it must return, in order.
type readOp struct {
	name string
	sql  string
	args func(s idSet, form string) []any
	want []int
}

const pivot = 12 // the ID most operations are about; the set has 30

func readOps() []readOp {
	span := func(lo, hi int) []int { // lo..hi-1
		var out []int
		for i := lo; i < hi; i++ {
			out = append(out, i)
		}
		return out
	}
	desc := func(xs []int) []int { slices.Reverse(xs); return xs }
	one := func(s idSet, form string) []any { return []any{s.form(form, s.ids[pivot])} }
	two := func(s idSet, form string) []any { return []any{s.form(form, s.ids[3]), s.form(form, s.ids[pivot])} }
	allBut := func(skip ...int) []int {
		var out []int
		for i := range 30 {
			if !slices.Contains(skip, i) {
				out = append(out, i)
			}
		}
		return out
	}
	return []readOp{
		{name: "=", sql: "SELECT %s FROM %s WHERE id = $1", args: one, want: []int{pivot}},
		{name: "= ANY", sql: "SELECT %s FROM %s WHERE id = ANY($1) ORDER BY id",
			args: func(s idSet, form string) []any {
				return []any{s.slice(form, []any{s.ids[3], s.ids[pivot], s.ids[20]})}
			}, want: []int{3, pivot, 20}},
		{name: "<", sql: "SELECT %s FROM %s WHERE id < $1 ORDER BY id", args: one, want: span(0, pivot)},
		{name: ">", sql: "SELECT %s FROM %s WHERE id > $1 ORDER BY id", args: one, want: span(pivot+1, 30)},
		{name: "BETWEEN MinAt AND MaxAt", sql: "SELECT %s FROM %s WHERE id BETWEEN $1 AND $2 ORDER BY id",
			args: func(s idSet, form string) []any {
				return []any{s.form(form, s.minAt(5)), s.form(form, s.maxAt(9))}
			}, want: span(5, 10)},
		{name: "next page", sql: "SELECT %s FROM %s WHERE id > $1 ORDER BY id LIMIT 5", args: one, want: span(pivot+1, pivot+6)},
		{name: "previous page", sql: "SELECT %s FROM %s WHERE id < $1 ORDER BY id DESC LIMIT 5", args: one,
			want: desc(span(pivot-5, pivot))},
		{name: "UPDATE = RETURNING", sql: "UPDATE %[2]s SET n = n + 1 WHERE id = $1 RETURNING %[1]s", args: one,
			want: []int{pivot}},
		{name: "IN", sql: "SELECT %s FROM %s WHERE id IN ($1, $2) ORDER BY id", args: two, want: []int{3, pivot}},
		{name: "NOT IN", sql: "SELECT %s FROM %s WHERE id NOT IN ($1, $2) ORDER BY id", args: two, want: allBut(3, pivot)},
		{name: "<>", sql: "SELECT %s FROM %s WHERE id <> $1 ORDER BY id", args: one, want: allBut(pivot)},
		{name: "IS DISTINCT FROM", sql: "SELECT %s FROM %s WHERE id IS DISTINCT FROM $1 ORDER BY id", args: one, want: allBut(pivot)},
		{name: "<> ALL", sql: "SELECT %s FROM %s WHERE id <> ALL($1) ORDER BY id",
			args: func(s idSet, form string) []any {
				return []any{s.slice(form, []any{s.ids[3], s.ids[pivot]})}
			}, want: allBut(3, pivot)},
		{name: "DELETE NOT IN RETURNING", sql: "WITH d AS (DELETE FROM %[2]s WHERE id NOT IN ($1, $2) RETURNING id) SELECT %[1]s FROM d ORDER BY id",
			args: two, want: allBut(3, pivot)},
		{name: "DELETE < RETURNING", sql: "WITH d AS (DELETE FROM %[2]s WHERE id < $1 RETURNING id) SELECT %[1]s FROM d ORDER BY id",
			args: one, want: span(0, pivot)},
	}
}

func TestPostgresReadMatrix(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	sets := []idSet{ksuidSet(t, base, 30), objectIDSet(t, base, 30), uuidv7Set(t, base, 30)}
	// The untyped modes again through PgBouncer in transaction pooling,
	// the modes the docs give for it.
	paths := append(readPaths(t, ctx), bouncerReadPaths(t, ctx)...)

	type cell struct{ path, set, column, form, op, outcome, detail string }
	var cells []cell
	counts := map[string]int{}
	for _, s := range sets {
		for _, column := range []string{"domain", "text", "varchar", "partitioned"} {
			ddl := map[string]string{"domain": s.domain, "text": `text COLLATE "C"`, "partitioned": s.domain,
				"varchar": fmt.Sprintf(`varchar(%d) COLLATE "C"`, len(fmt.Sprint(s.ids[0])))}[column]
			label := column // in the cells: "uuid" for the UUIDs' own column type
			if ddl == "uuid" && column == "domain" {
				label = ddl
			}
			var table string
			if column == "partitioned" {
				// The domain (uuid) column of a table partitioned by day on
				// it, by sqltype.Partitions: read as an ordinary table.
				table = partitionedTable(t, ctx, ddl+" PRIMARY KEY")
				spec := sqltype.PartitionSpec{Table: table, IDType: strings.ToLower(s.name), Period: sqltype.Day, Back: 1, Ahead: 1}
				if err := sqltype.Partitions(ctx, servers.pg, spec, base); err != nil {
					t.Fatal(err)
				}
			} else {
				table = pgTable(t, ctx, servers.pg, "id "+ddl+" PRIMARY KEY, n int NOT NULL DEFAULT 0")
			}
			// The rows go in as another program writes them: the text
			// form, by COPY.
			rows := make([][]any, len(s.ids))
			for i := range s.ids {
				rows[i] = []any{fmt.Sprint(s.ids[i])}
			}
			if _, err := servers.pg.CopyFrom(ctx, pgx.Identifier{strings.Trim(table, `"`)}, []string{"id"}, pgx.CopyFromRows(rows)); err != nil {
				t.Fatal(err)
			}
			// What the queries return, the same for every column type.
			wantOf := func(i int) string { return fmt.Sprint(s.ids[i]) }
			for _, p := range paths {
				for _, form := range paramForms {
					for _, op := range readOps() {
						got, err := p.run(ctx, fmt.Sprintf(op.sql, "id::text AS text_form", table), op.args(s, form)...)
						want := mapAll(toAny(op.want), func(v any) string { return wantOf(v.(int)) })
						c := cell{p.name, s.name, label, form, op.name, "correct", ""}
						switch {
						case err != nil:
							c.outcome, c.detail = "loud", err.Error()
						case !slices.Equal(got, want):
							c.outcome = "silent"
							c.detail = fmt.Sprintf("%d rows, want %d", len(got), len(want))
						}
						counts[c.outcome]++
						cells = append(cells, c)
					}
				}
			}
			// Every mutation was rolled back.
			if n := rowCount(t, ctx, table); n != len(s.ids) {
				t.Fatalf("%s holds %d rows after the matrix, want %d", table, n, len(s.ids))
			}
		}
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%6d %s", counts[k], k)
	}
	// Per path and column, how its cells came out: the README's table.
	type group struct{ path, set, column string }
	outcomes := map[group]map[string][]string{}
	var order []group
	for _, c := range cells {
		g := group{c.path, c.set, c.column}
		if outcomes[g] == nil {
			outcomes[g] = map[string][]string{}
			order = append(order, g)
		}
		outcomes[g][c.outcome] = append(outcomes[g][c.outcome], c.form+" "+c.op)
	}
	for _, g := range order {
		line := fmt.Sprintf("%-45s %-8s %-6s", g.path, g.set, g.column)
		for _, o := range []string{"correct", "loud", "silent"} {
			if n := len(outcomes[g][o]); n > 0 {
				line += fmt.Sprintf(" %s %d", o, n)
				if o != "correct" && n < 36 {
					line += " (" + strings.Join(outcomes[g][o], ", ") + ")"
				}
			}
		}
		t.Log(line)
	}
	// A table partitioned by its ID answers every cell as the same
	// column unpartitioned does.
	for _, g := range order {
		if g.column != "partitioned" {
			continue
		}
		plain := group{g.path, g.set, "domain"}
		if g.set == "UUIDv7" {
			plain.column = "uuid"
		}
		if fmt.Sprint(outcomes[g]) != fmt.Sprint(outcomes[plain]) {
			t.Errorf("%s, %s partitioned: %v; unpartitioned: %v", g.path, g.set, outcomes[g], outcomes[plain])
		}
	}
	for _, c := range cells {
		if c.outcome == "silent" {
			t.Errorf("silent: %s, %s in %s, %s form, %s: %s", c.path, c.set, c.column, c.form, c.op, c.detail)
		}
	}
	// The only loud cells are the clients' own limits, in their own
	// words: without the hook pgx cannot encode a slice of IDs in the
	// untyped modes, and bun writes a Go slice as a JSON array (bun.In and
	// pgdialect.Array are its ways).
	for _, c := range cells {
		pgxOwn := strings.Contains(c.path, "no hook") && strings.Contains(c.detail, "cannot find encode plan")
		bunOwn := strings.HasPrefix(c.path, "bun") && strings.Contains(c.detail, "malformed array literal")
		if c.outcome == "loud" && !pgxOwn && !bunOwn {
			t.Errorf("loud: %s, %s in %s, %s form, %s: %s", c.path, c.set, c.column, c.form, c.op, c.detail)
		}
	}
}

func toAny(xs []int) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}
