package containers

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
)

// execModes are pgx's five query modes.
var execModes = []pgx.QueryExecMode{pgx.QueryExecModeCacheStatement, pgx.QueryExecModeCacheDescribe,
	pgx.QueryExecModeDescribeExec, pgx.QueryExecModeExec, pgx.QueryExecModeSimpleProtocol}

// connInMode opens a connection to the test database whose default query
// mode is mode, closed when t ends; it runs no hook.
func connInMode(t *testing.T, ctx context.Context, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	return connInModeTo(t, ctx, servers.pgConfig.ConnConfig, mode)
}

// connInModeTo is connInMode to the database of c.
func connInModeTo(t *testing.T, ctx context.Context, c *pgx.ConnConfig, mode pgx.QueryExecMode) *pgx.Conn {
	t.Helper()
	cfg := c.Copy()
	cfg.DefaultQueryExecMode = mode
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// writer is one way an ID reaches PostgreSQL: it inserts id into table and
// counts the rows of table whose id equals id.
type writer struct {
	name string
	// prepared is true where pgx knows the parameter's type: every path
	// but QueryExecModeExec and the simple protocol.
	prepared bool
	insert   func(ctx context.Context, table string, id any) error
	count    func(ctx context.Context, table string, id any) (int, error)
}

// idWriters returns every path, on connections with sortid's AfterConnect
// (hook) or without.
func idWriters(t *testing.T, ctx context.Context, hook bool) []writer {
	t.Helper()
	var out []writer
	for _, mode := range execModes {
		conn := connInMode(t, ctx, mode)
		if hook {
			if err := sqltype.AfterConnect(ctx, conn); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, writer{
			name:     mode.String(),
			prepared: mode != pgx.QueryExecModeExec && mode != pgx.QueryExecModeSimpleProtocol,
			insert: func(ctx context.Context, table string, id any) error {
				_, err := conn.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", id)
				return err
			},
			count: func(ctx context.Context, table string, id any) (n int, err error) {
				err = conn.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id = $1", id).Scan(&n)
				return n, err
			},
		})
		if mode == pgx.QueryExecModeCacheStatement {
			out = append(out, writer{
				name: "CopyFrom", prepared: true,
				insert: func(ctx context.Context, table string, id any) error {
					_, err := conn.CopyFrom(ctx, pgx.Identifier{strings.Trim(table, `"`)}, []string{"id"}, pgx.CopyFromRows([][]any{{id}}))
					return err
				},
				count: func(ctx context.Context, table string, id any) (n int, err error) {
					err = conn.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE id = ANY($1)", []any{id}).Scan(&n)
					return n, err
				},
			}, writer{
				name: "SendBatch", prepared: true,
				insert: func(ctx context.Context, table string, id any) error {
					b := &pgx.Batch{}
					b.Queue("INSERT INTO "+table+" (id) VALUES ($1)", id)
					return conn.SendBatch(ctx, b).Close()
				},
				count: func(ctx context.Context, table string, id any) (n int, err error) {
					b := &pgx.Batch{}
					b.Queue("SELECT count(*) FROM "+table+" WHERE id = $1", id).QueryRow(func(r pgx.Row) error { return r.Scan(&n) })
					err = conn.SendBatch(ctx, b).Close()
					return n, err
				},
			})
		}
	}
	var opts []stdlib.OptionOpenDB
	if hook {
		opts = append(opts, stdlib.OptionAfterConnect(sqltype.AfterConnect))
	}
	db := stdlib.OpenDB(*servers.pgConfig.ConnConfig.Copy(), opts...)
	t.Cleanup(func() { db.Close() })
	out = append(out, writer{
		name: "database/sql", prepared: true,
		insert: func(ctx context.Context, table string, id any) error {
			_, err := db.ExecContext(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", id)
			return err
		},
		count: func(ctx context.Context, table string, id any) (n int, err error) {
			err = db.QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE id = $1", id).Scan(&n)
			return n, err
		},
	})
	return out
}

// TestPostgresOneFormatPerColumn writes a KSUID and an ObjectID by every
// path (five query modes, CopyFrom, a batch, database/sql), with and
// without sortid's AfterConnect, into a column of the domain, of varchar
// COLLATE "C" (GORM's where nothing is installed) and of text COLLATE
// "C", and checks what is stored: the text form, every time. A lookup by
// the same path and one by the default path find it, and it reads back
// as the ID.
func TestPostgresOneFormatPerColumn(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	reference := openDB(t) // the default path, with the hook
	k, o := ksuid.New(), objectid.New()

	for _, hook := range []bool{true, false} {
		for _, w := range idWriters(t, ctx, hook) {
			for _, tc := range []struct {
				kind, column string
				id           any
				text         int // characters of the text form
			}{
				{"domain", "ksuid", k, 27},
				{"varchar", `varchar(27) COLLATE "C"`, k, 27},
				{"text", `text COLLATE "C"`, k, 27},
				{"domain", "objectid", o, 24},
				{"varchar", `varchar(24) COLLATE "C"`, o, 24},
				{"text", `text COLLATE "C"`, o, 24},
			} {
				name := fmt.Sprintf("hook=%v/%s/%T/%s", hook, w.name, tc.id, tc.kind)
				t.Run(name, func(t *testing.T) {
					table := pgTable(t, ctx, servers.pg, "id "+tc.column+" PRIMARY KEY")
					if err := w.insert(ctx, table, tc.id); err != nil {
						t.Fatalf("insert: %v", err)
					}
					var stored string
					if err := servers.pg.QueryRow(ctx, "SELECT id::text FROM "+table, pgx.QueryExecModeSimpleProtocol).Scan(&stored); err != nil ||
						stored != fmt.Sprint(tc.id) || len(stored) != tc.text {
						t.Fatalf("stored %q (%v); want %s", stored, err, tc.id)
					}
					if found, err := w.count(ctx, table, tc.id); err != nil || found != 1 {
						t.Errorf("lookup by the same path found %d rows (%v)", found, err)
					}
					if found, err := countWith(ctx, reference, table, tc.id); err != nil || found != 1 {
						t.Errorf("lookup by the default path found %d rows (%v)", found, err)
					}
					if back, err := readBack(ctx, table, tc.id); err != nil || back != tc.id {
						t.Errorf("reads back as %v (%v)", back, err)
					}
				})
			}
		}
	}
}

func rowCount(t *testing.T, ctx context.Context, table string) (n int) {
	t.Helper()
	if err := servers.pg.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func countWith(ctx context.Context, db *sql.DB, table string, id any) (n int, err error) {
	err = db.QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE id = $1", id).Scan(&n)
	return n, err
}

// readBack scans the one row of table into a value of id's type.
func readBack(ctx context.Context, table string, id any) (any, error) {
	row := servers.pg.QueryRow(ctx, "SELECT id FROM "+table)
	switch id.(type) {
	case ksuid.KSUID:
		var v ksuid.KSUID
		return v, row.Scan(&v)
	default:
		var v objectid.ObjectID
		return v, row.Scan(&v)
	}
}

// TestPostgresDomainArraysAndWindows uses the domain with the default
// path: arrays of IDs in = ANY($1), and a time window between MinAt and
// MaxAt, with the IDs as parameters and with the SQL functions.
func TestPostgresDomainArraysAndWindows(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	// A pool made after the install, so that its connections know the
	// domains.
	pool := newPool(t, ctx)
	ids := ksuidsOverTime(t)
	table := pgTable(t, ctx, pool, "id ksuid PRIMARY KEY")
	copyRows(t, ctx, pool, table, ids)
	assertOrder(t, readIDs[ksuid.KSUID](t, ctx, pool, "SELECT id FROM "+table+" ORDER BY id"), ids)

	lo, _ := ksuid.MinAt(windowFrom)
	hi, _ := ksuid.MaxAt(windowTo)
	inside := idsInWindow(ids)
	if len(inside) == 0 {
		t.Fatal("the window holds no IDs")
	}
	assertOrder(t, readIDs[ksuid.KSUID](t, ctx, pool, "SELECT id FROM "+table+" WHERE id BETWEEN $1 AND $2 ORDER BY id", lo, hi), inside)
	assertOrder(t, readIDs[ksuid.KSUID](t, ctx, pool, "SELECT id FROM "+table+" WHERE id BETWEEN ksuid_min_at($1) AND ksuid_max_at($2) ORDER BY id",
		windowFrom, windowTo), inside)
	some := ids[:50]
	assertOrder(t, readIDs[ksuid.KSUID](t, ctx, pool, "SELECT id FROM "+table+" WHERE id = ANY($1) ORDER BY id", some), some)
	var n int
	if err := pool.QueryRow(ctx, "SELECT count(*) FROM "+table+" WHERE ksuid_time(id) BETWEEN $1 AND $2", windowFrom, windowTo).Scan(&n); err != nil || n != len(inside) {
		t.Errorf("ksuid_time window counted %d (%v), want %d", n, err, len(inside))
	}
}

// newPool opens a pool like the shared one (sqltype's AfterConnect on
// every connection), closed when t ends.
func newPool(t *testing.T, ctx context.Context) *pgxpool.Pool {
	t.Helper()
	pool, err := pgxpool.NewWithConfig(ctx, servers.pgConfig.Copy())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool
}

// TestAfterConnectThen: a pool's own hook runs after sortid's, and both
// take effect on every connection.
func TestAfterConnectThen(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	cfg := servers.pgConfig.Copy()
	cfg.AfterConnect = func(ctx context.Context, conn *pgx.Conn) error {
		_, err := conn.Exec(ctx, "SET application_name = 'orders'")
		return err
	}
	cfg.AfterConnect = sqltype.AfterConnectThen(cfg.AfterConnect)
	cfg.MinConns = 2
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	for range 2 {
		conn, err := pool.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Release()
		var app string
		if err := conn.QueryRow(ctx, "SHOW application_name").Scan(&app); err != nil || app != "orders" {
			t.Errorf("application_name %q (%v): the pool's own hook did not run", app, err)
		}
		if _, ok := conn.Conn().TypeMap().TypeForName("sortid_untyped_id"); !ok {
			t.Error("the ID types are not registered: sortid's hook did not run")
		}
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if err := sqltype.AfterConnectThen(nil)(ctx, conn.Conn()); err != nil {
		t.Errorf("AfterConnectThen(nil): %v", err)
	}
}
