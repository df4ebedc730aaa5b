package containers

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
)

// openDB returns database/sql over pgx's stdlib driver, with sqltype
// registered on every connection.
func openDB(t *testing.T) *sql.DB {
	t.Helper()
	db := stdlib.OpenDB(*servers.pgConfig.ConnConfig.Copy(), stdlib.OptionAfterConnect(sqltype.AfterConnect))
	t.Cleanup(func() { db.Close() })
	return db
}

// insertPath is one way an ID can travel from Go into a row.
type insertPath struct {
	name string
	// insert writes v into the id column of table.
	insert func(t *testing.T, ctx context.Context, table string, v any)
}

func insertPaths(t *testing.T) []insertPath {
	db := openDB(t)
	exec := func(mode pgx.QueryExecMode) func(*testing.T, context.Context, string, any) {
		return func(t *testing.T, ctx context.Context, table string, v any) {
			if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", mode, v); err != nil {
				t.Fatalf("insert %v: %v", v, err)
			}
		}
	}
	return []insertPath{
		{"prepared", exec(pgx.QueryExecModeCacheStatement)},
		{"describe", exec(pgx.QueryExecModeDescribeExec)},
		{"exec", exec(pgx.QueryExecModeExec)},
		{"simple", exec(pgx.QueryExecModeSimpleProtocol)},
		{"CopyFrom", func(t *testing.T, ctx context.Context, table string, v any) {
			if _, err := servers.pg.CopyFrom(ctx, pgx.Identifier{table[1 : len(table)-1]}, []string{"id"}, pgx.CopyFromRows([][]any{{v}})); err != nil {
				t.Fatalf("copy %v: %v", v, err)
			}
		}},
		{"database/sql", func(t *testing.T, ctx context.Context, table string, v any) {
			if _, err := db.ExecContext(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", v); err != nil {
				t.Fatalf("insert %v: %v", v, err)
			}
		}},
	}
}

// stored reports what the row holds: its length in bytes and its
// content.
func stored(t *testing.T, ctx context.Context, table string) (n int, content string, null bool) {
	t.Helper()
	var got *string
	err := servers.pg.QueryRow(ctx, `SELECT octet_length(id), CASE WHEN pg_typeof(id) = 'bytea'::regtype
		THEN encode(id::bytea, 'hex') ELSE id::text END FROM `+table).Scan(&n, &got)
	if errors.Is(err, pgx.ErrNoRows) {
		t.Fatal("no row")
	}
	if err != nil {
		// octet_length of NULL is NULL.
		var isNull bool
		if err2 := servers.pg.QueryRow(ctx, "SELECT id IS NULL FROM "+table).Scan(&isNull); err2 == nil && isNull {
			return 0, "", true
		}
		t.Fatal(err)
	}
	return n, *got, false
}

// TestPostgresRoundTripPaths: every insert path of pgx, with sortid's
// hook (servers.pg's pool has it), stores the ID's text in each column
// sortid makes and in text columns, and reads it back.
func TestPostgresRoundTripPaths(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	k := ksuid.New()
	o := objectid.New()
	columns := []struct {
		name, ddl string
		value     any
		text      string
	}{
		{"ksuid domain", "id ksuid", k, k.String()},
		{"ksuid text C", `id text COLLATE "C"`, k, k.String()},
		{"ksuid char(27)", `id char(27) COLLATE "C"`, k, k.String()},
		{"ksuid pointer domain", "id ksuid", &k, k.String()},
		{"NullKSUID domain", "id ksuid", ksuid.NullKSUID{KSUID: k, Valid: true}, k.String()},
		{"objectid domain", "id objectid", o, o.String()},
		{"objectid char(24)", "id char(24)", o, o.String()},
	}
	for _, path := range insertPaths(t) {
		for _, col := range columns {
			t.Run(path.name+"/"+col.name, func(t *testing.T) {
				table := pgTable(t, ctx, servers.pg, col.ddl)
				path.insert(t, ctx, table, col.value)
				if n, content, _ := stored(t, ctx, table); n != len(col.text) || content != col.text {
					t.Errorf("column holds %q (%d bytes), want %q", content, n, col.text)
				}
				assertReadsBack(t, ctx, table, col.value)
			})
		}
	}
}

// assertReadsBack scans the single row of table back into the type of want.
func assertReadsBack(t *testing.T, ctx context.Context, table string, want any) {
	t.Helper()
	db := openDB(t)
	switch w := want.(type) {
	case ksuid.KSUID, *ksuid.KSUID, ksuid.NullKSUID:
		var id ksuid.KSUID
		var viaSQL ksuid.KSUID
		if err := servers.pg.QueryRow(ctx, "SELECT id FROM "+table).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRowContext(ctx, "SELECT id FROM "+table).Scan(&viaSQL); err != nil {
			t.Fatal(err)
		}
		expected := ksuidOf(w)
		if id != expected || viaSQL != expected {
			t.Errorf("read back %v (pgx), %v (database/sql); want %v", id, viaSQL, expected)
		}
	case objectid.ObjectID:
		var id, viaSQL objectid.ObjectID
		if err := servers.pg.QueryRow(ctx, "SELECT id FROM "+table).Scan(&id); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRowContext(ctx, "SELECT id FROM "+table).Scan(&viaSQL); err != nil {
			t.Fatal(err)
		}
		if id != w || viaSQL != w {
			t.Errorf("read back %v (pgx), %v (database/sql); want %v", id, viaSQL, w)
		}
	default:
		t.Fatalf("no reader for %T", want)
	}
}

func ksuidOf(v any) ksuid.KSUID {
	switch w := v.(type) {
	case ksuid.KSUID:
		return w
	case *ksuid.KSUID:
		return *w
	case ksuid.NullKSUID:
		return w.KSUID
	}
	panic(fmt.Sprintf("not a KSUID: %T", v))
}

// TestPostgresUntypedIsText: where pgx cannot know the column type
// (QueryExecModeExec, the simple protocol), an ID goes as its text, with
// the hook as without, and a slice of IDs as an array of texts (which
// pgx alone cannot send there): right in the domain and in text.
func TestPostgresUntypedIsText(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	k := ksuid.New()
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		for _, ddl := range []string{"id ksuid", `id text COLLATE "C"`} {
			table := pgTable(t, ctx, servers.pg, ddl)
			for _, v := range []any{k, &k, ksuid.NullKSUID{KSUID: k, Valid: true}} {
				if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", mode, v); err != nil {
					t.Errorf("%v, %s, %T: %v", mode, ddl, v, err)
				}
			}
			var n int
			if err := servers.pg.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id = ANY($1) AND id::text = $2", mode, []ksuid.KSUID{k}, k.String()).Scan(&n); err != nil || n != 3 {
				t.Errorf("%v, %s: = ANY found %d rows (%v), want 3", mode, ddl, n, err)
			}
		}
	}
}

// TestPostgresConnectionBeforeInstall: a connection whose hook ran before
// the domains existed sends IDs as text, which the domains read: it needs
// no reconnect.
func TestPostgresConnectionBeforeInstall(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	cfg := servers.pgConfig.ConnConfig.Copy()
	cfg.Database = icuDatabase(t, ctx)
	early, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { early.Close(context.Background()) })
	if err := sqltype.AfterConnect(ctx, early); err != nil {
		t.Fatal(err)
	}
	if err := sqltype.Install(ctx, early, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := early.Exec(ctx, "CREATE TABLE orders (id ksuid PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	k := ksuid.New()
	for _, mode := range execModes {
		if _, err := early.Exec(ctx, "DELETE FROM orders", mode); err != nil {
			t.Fatal(err)
		}
		if _, err := early.Exec(ctx, "INSERT INTO orders (id) VALUES ($1)", mode, k); err != nil {
			t.Errorf("%v: insert on a connection older than the install: %v", mode, err)
		}
		var n int
		if err := early.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = $1", mode, k).Scan(&n); err != nil || n != 1 {
			t.Errorf("%v: found %d rows (%v)", mode, n, err)
		}
	}
}

func TestPostgresNull(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	for _, path := range insertPaths(t) {
		for _, v := range []any{ksuid.NullKSUID{}, (*ksuid.KSUID)(nil), objectid.NullObjectID{}, (*objectid.ObjectID)(nil)} {
			for _, ddl := range []string{"id ksuid", "id text"} {
				t.Run(fmt.Sprintf("%s/%T/%s", path.name, v, ddl), func(t *testing.T) {
					table := pgTable(t, ctx, servers.pg, ddl)
					path.insert(t, ctx, table, v)
					if _, _, null := stored(t, ctx, table); !null {
						t.Fatalf("%#v was not stored as NULL", v)
					}
					var n ksuid.NullKSUID
					var p *ksuid.KSUID
					var on objectid.NullObjectID
					row := servers.pg.QueryRow(ctx, "SELECT id, id, id FROM "+table)
					if err := row.Scan(&n, &p, &on); err != nil || n.Valid || p != nil || on.Valid {
						t.Errorf("NULL read back as %+v, %v, %+v, %v", n, p, on, err)
					}
					var id ksuid.KSUID
					if err := servers.pg.QueryRow(ctx, "SELECT id FROM "+table).Scan(&id); !errors.Is(err, ksuid.ErrNull) {
						t.Errorf("NULL into ksuid.KSUID: %v, want ErrNull", err)
					}
				})
			}
		}
	}
}

func TestPostgresBadDataInColumn(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	db := openDB(t)
	for _, tc := range []struct {
		name, ddl, literal string
		want               error
	}{
		{"19-byte bytea", "id bytea", `'\x` + hex.EncodeToString(make([]byte, 19)) + `'`, ksuid.ErrInvalidLength},
		{"text with dash", "id text", "'0qjBBlJIfbVLK-nJn4xpLGDr00e'", ksuid.ErrInvalidCharacter},
		{"short text", "id text", "'0qjBB'", ksuid.ErrInvalidLength},
		{"NULL", "id text", "NULL", ksuid.ErrNull},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := pgTable(t, ctx, servers.pg, tc.ddl)
			if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ("+tc.literal+")"); err != nil {
				t.Fatal(err)
			}
			keep := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
			id := keep
			err := servers.pg.QueryRow(ctx, "SELECT id FROM "+table).Scan(&id)
			if !errors.Is(err, tc.want) || id != keep {
				t.Errorf("pgx: %v, destination %v; want %v and no change", err, id, tc.want)
			}
			err = db.QueryRowContext(ctx, "SELECT id FROM "+table).Scan(&id)
			if !errors.Is(err, tc.want) || id != keep {
				t.Errorf("database/sql: %v, destination %v; want %v and no change", err, id, tc.want)
			}
		})
	}
}

func TestPostgresAnyArray(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := ksuidsOverTime(t)[:50]
	want := []ksuid.KSUID{ids[3], ids[17], ids[42]}
	absent := ksuid.New()
	installSQL(t)
	for _, ddl := range []string{"id ksuid PRIMARY KEY", `id text COLLATE "C" PRIMARY KEY`} {
		t.Run(ddl, func(t *testing.T) {
			table := pgTable(t, ctx, servers.pg, ddl)
			copyRows(t, ctx, servers.pg, table, ids)
			got := readIDs[ksuid.KSUID](t, ctx, servers.pg, "SELECT id FROM "+table+" WHERE id = ANY($1) ORDER BY id", append(want, absent))
			assertOrder(t, got, want)
		})
	}
}
