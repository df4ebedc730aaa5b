package containers

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
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
	// knowsColumnType is false where PostgreSQL picks the type of the
	// parameter (none here: with sqltype's hook an ID is refused there,
	// which TestPostgresUntypedRefused checks).
	knowsColumnType bool
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
		{"prepared", exec(pgx.QueryExecModeCacheStatement), true},
		{"describe", exec(pgx.QueryExecModeDescribeExec), true},
		{"CopyFrom", func(t *testing.T, ctx context.Context, table string, v any) {
			if _, err := servers.pg.CopyFrom(ctx, pgx.Identifier{table[1 : len(table)-1]}, []string{"id"}, pgx.CopyFromRows([][]any{{v}})); err != nil {
				t.Fatalf("copy %v: %v", v, err)
			}
		}, true},
		{"database/sql", func(t *testing.T, ctx context.Context, table string, v any) {
			if _, err := db.ExecContext(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", v); err != nil {
				t.Fatalf("insert %v: %v", v, err)
			}
		}, true},
	}
}

// stored reports what the row holds: its length in bytes and its content,
// as text for text columns and hex for bytea.
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

func TestPostgresRoundTripPaths(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	k := ksuid.New()
	o := objectid.New()
	columns := []struct {
		name, ddl string
		value     any
		bytes     []byte // the raw bytes of value
		text      string
		isBytea   bool
	}{
		{"ksuid bytea", "id bytea", k, k.Bytes(), k.String(), true},
		{"ksuid text C", `id text COLLATE "C"`, k, k.Bytes(), k.String(), false},
		{"ksuid char(27)", `id char(27) COLLATE "C"`, k, k.Bytes(), k.String(), false},
		{"ksuid pointer bytea", "id bytea", &k, k.Bytes(), k.String(), true},
		{"NullKSUID bytea", "id bytea", ksuid.NullKSUID{KSUID: k, Valid: true}, k.Bytes(), k.String(), true},
		{"objectid bytea", "id bytea", o, o.Bytes(), o.String(), true},
		{"objectid char(24)", "id char(24)", o, o.Bytes(), o.String(), false},
	}
	for _, path := range insertPaths(t) {
		for _, col := range columns {
			t.Run(path.name+"/"+col.name, func(t *testing.T) {
				table := pgTable(t, ctx, servers.pg, col.ddl)
				path.insert(t, ctx, table, col.value)
				n, content, _ := stored(t, ctx, table)
				switch {
				case col.isBytea && path.knowsColumnType:
					if n != len(col.bytes) || content != hex.EncodeToString(col.bytes) {
						t.Errorf("bytea holds %d bytes %s, want the %d raw bytes %x", n, content, len(col.bytes), col.bytes)
					}
				case col.isBytea:
					// Documented: untyped text lands in bytea as its
					// ASCII bytes.
					if n != len(col.text) || content != hex.EncodeToString([]byte(col.text)) {
						t.Errorf("bytea holds %d bytes %s, want the text form's %d bytes", n, content, len(col.text))
					}
				default:
					if n != len(col.text) || content != col.text {
						t.Errorf("column holds %q (%d bytes), want %q", content, n, col.text)
					}
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

// TestPostgresUntypedRefused: where pgx cannot know the column type
// (QueryExecModeExec, the simple protocol), the hook refuses an ID in
// every column, and AfterConnectBytea sends bytes; id[:] and id.String()
// are the caller's explicit choice of form and go through.
func TestPostgresUntypedRefused(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	k := ksuid.New()
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		for _, ddl := range []string{"id bytea", `id text COLLATE "C"`} {
			table := pgTable(t, ctx, servers.pg, ddl)
			for _, v := range []any{k, &k, ksuid.NullKSUID{KSUID: k, Valid: true}, []ksuid.KSUID{k}} {
				_, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", mode, v)
				if _, isSlice := v.([]ksuid.KSUID); isSlice {
					_, err = servers.pg.Exec(ctx, "SELECT FROM "+table+" WHERE id = ANY($1)", mode, v)
				}
				if !errors.Is(err, sqltype.ErrUntypedParameter) {
					t.Errorf("%v, %s, %T: %v; want ErrUntypedParameter", mode, ddl, v, err)
				}
			}
			if n := rowCount(t, ctx, table); n != 0 {
				t.Errorf("%v, %s: %d rows after the refusals", mode, ddl, n)
			}
		}
		table := pgTable(t, ctx, servers.pg, "id bytea")
		if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", mode, k[:]); err != nil {
			t.Fatal(err)
		}
		if n, content, _ := stored(t, ctx, table); n != 20 || content != hex.EncodeToString(k[:]) {
			t.Errorf("%v: bytea holds %d bytes %s", mode, n, content)
		}
		table = pgTable(t, ctx, servers.pg, `id text COLLATE "C"`)
		if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", mode, k.String()); err != nil {
			t.Fatal(err)
		}
		if n, content, _ := stored(t, ctx, table); n != 27 || content != k.String() {
			t.Errorf("%v: text holds %q", mode, content)
		}
	}
}

// TestPostgresAfterConnectBytea: the opt-in for binary ID columns sends
// bytes where pgx cannot know the column type, in writes and in reads,
// into the domain and plain bytea.
func TestPostgresAfterConnectBytea(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	k := ksuid.New()
	cfg := servers.pgConfig.ConnConfig.Copy()
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	installSQL(t)
	if err := sqltype.AfterConnectBytea(ctx, conn); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol} {
		for _, ddl := range []string{"id ksuid", "id bytea"} {
			table := pgTable(t, ctx, servers.pg, ddl)
			if _, err := conn.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", mode, k); err != nil {
				t.Fatalf("%v, %s: %v", mode, ddl, err)
			}
			var content string
			if err := servers.pg.QueryRow(ctx, "SELECT encode(id::bytea, 'hex') FROM "+table).Scan(&content); err != nil || content != hex.EncodeToString(k[:]) {
				t.Errorf("%v, %s: holds %s (%v)", mode, ddl, content, err)
			}
			var n int
			if err := conn.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id = ANY($1) AND id <= $2", mode, []ksuid.KSUID{k}, k).Scan(&n); err != nil || n != 1 {
				t.Errorf("%v, %s: lookup found %d rows (%v)", mode, ddl, n, err)
			}
		}
	}
}

// TestPostgresConnectionBeforeInstall: a connection whose hook ran before
// the domains existed does not know their type. An ID for a domain column
// is then an error that says to reconnect (the bare check violation
// before); with AfterConnectBytea it goes in as bytes. A new connection
// works.
func TestPostgresConnectionBeforeInstall(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	cfg := servers.pgConfig.ConnConfig.Copy()
	cfg.Database = icuDatabase(t, ctx)
	connect := func(hook func(context.Context, *pgx.Conn) error) *pgx.Conn {
		conn, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { conn.Close(context.Background()) })
		if err := hook(ctx, conn); err != nil {
			t.Fatal(err)
		}
		return conn
	}
	early, earlyBytea := connect(sqltype.AfterConnect), connect(sqltype.AfterConnectBytea)
	if err := sqltype.Install(ctx, early, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := early.Exec(ctx, "CREATE TABLE orders (id ksuid PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	k := ksuid.New()
	_, err := early.Exec(ctx, "INSERT INTO orders (id) VALUES ($1)", k)
	if !errors.Is(err, sqltype.ErrUntypedParameter) || !strings.Contains(err.Error(), "new connection") {
		t.Errorf("insert on a connection older than the install: %v; want ErrUntypedParameter saying to reconnect", err)
	}
	if _, err := earlyBytea.Exec(ctx, "INSERT INTO orders (id) VALUES ($1)", k); err != nil {
		t.Errorf("AfterConnectBytea on a connection older than the install: %v", err)
	}
	late := connect(sqltype.AfterConnect)
	var n int
	if err := late.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = $1", k).Scan(&n); err != nil || n != 1 {
		t.Errorf("a new connection found %d rows (%v)", n, err)
	}
}

func TestPostgresNull(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	for _, path := range insertPaths(t) {
		for _, v := range []any{ksuid.NullKSUID{}, (*ksuid.KSUID)(nil), objectid.NullObjectID{}, (*objectid.ObjectID)(nil)} {
			for _, ddl := range []string{"id bytea", "id text"} {
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
	for _, ddl := range []string{"id bytea PRIMARY KEY", `id text COLLATE "C" PRIMARY KEY`} {
		t.Run(ddl, func(t *testing.T) {
			table := pgTable(t, ctx, servers.pg, ddl)
			copyRows(t, ctx, servers.pg, table, ids)
			got := readIDs[ksuid.KSUID](t, ctx, servers.pg, "SELECT id FROM "+table+" WHERE id = ANY($1) ORDER BY id", append(want, absent))
			assertOrder(t, got, want)
		})
	}
}
