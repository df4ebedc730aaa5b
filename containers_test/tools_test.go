package containers

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/stdlib"
	"github.com/jmoiron/sqlx"
	_ "github.com/lib/pq"
	"github.com/uptrace/bun"
	"github.com/uptrace/bun/dialect/pgdialect"
	"github.com/uptrace/bun/driver/pgdriver"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqlbytes"
	"github.com/sortid/sortid/sqltype"
)

// The database/sql tools that see only driver.Valuer (lib/pq, sqlx on it,
// bun with either driver) on the ksuid and objectid domains: with the IDs
// as sqlbytes types they store the raw bytes, in time order; with the ID
// types themselves they send the text form, which the domain refuses.

// toolRow is one row of the tools' table: a key, an ObjectID, and a
// nullable KSUID.
type toolRow struct {
	ID      ksuid.KSUID
	Session objectid.ObjectID
	Parent  ksuid.NullKSUID
}

// toolRows returns rows with KSUIDs over time (shuffled), an ObjectID
// each, and a parent on every other row.
func toolRows(t *testing.T) []toolRow {
	ids, oids := ksuidsOverTime(t), objectIDsOverTime(t)
	rows := make([]toolRow, len(ids))
	for i := range ids {
		rows[i] = toolRow{ID: ids[i], Session: oids[i]}
		if i%2 == 1 {
			rows[i].Parent = ksuid.NullKSUID{KSUID: ids[i-1], Valid: true}
		}
	}
	return rows
}

// tool is one way of reaching PostgreSQL, as its users write it.
type tool struct {
	name string
	// insert writes rows into table with the IDs as sqlbytes types.
	insert func(ctx context.Context, table string, rows []toolRow) error
	// insertPlain writes one row with the ID types themselves.
	insertPlain func(ctx context.Context, table string, row toolRow) error
	// ids reads the keys between from and to, both included, ordered by
	// key; the zero KSUID and ksuid.Max read the whole table.
	ids func(ctx context.Context, table string, from, to ksuid.KSUID) ([]ksuid.KSUID, error)
}

func TestToolsOnDomains(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	if err := sqltype.Install(ctx, servers.pg, ""); err != nil {
		t.Fatal(err)
	}
	c := servers.pgConfig.ConnConfig
	keyValueDSN := fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", c.Host, c.Port, c.User, c.Password, c.Database)
	urlDSN := (&url.URL{Scheme: "postgres", User: url.UserPassword(c.User, c.Password),
		Host: fmt.Sprintf("%s:%d", c.Host, c.Port), Path: "/" + c.Database, RawQuery: "sslmode=disable"}).String()

	// lib/pq sends a []byte as bytes in text format, which PostgreSQL
	// reads as text, unless binary_parameters is on; see
	// TestLibPQWithoutBinaryParameters.
	pq, err := sql.Open("postgres", keyValueDSN+" binary_parameters=yes")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pq.Close() })
	bunPgdriver := bun.NewDB(sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(urlDSN))), pgdialect.New())
	t.Cleanup(func() { bunPgdriver.Close() })
	bunPgx := bun.NewDB(stdlib.OpenDB(*c.Copy()), pgdialect.New())
	t.Cleanup(func() { bunPgx.Close() })

	for _, tl := range []tool{
		databaseSQLTool("lib/pq", pq),
		sqlxTool("sqlx on lib/pq", sqlx.NewDb(pq, "postgres")),
		bunTool("bun with pgdriver", bunPgdriver),
		bunTool("bun with pgx stdlib", bunPgx),
	} {
		t.Run(tl.name, func(t *testing.T) {
			table := pgTable(t, ctx, servers.pg, "id ksuid PRIMARY KEY, session objectid NOT NULL, parent ksuid")
			rows := toolRows(t)
			if err := tl.insert(ctx, table, rows); err != nil {
				t.Fatalf("insert with sqlbytes types: %v", err)
			}
			assertRawForms(t, ctx, table, len(rows))
			ids := make([]ksuid.KSUID, len(rows))
			for i, r := range rows {
				ids[i] = r.ID
			}
			got, err := tl.ids(ctx, table, ksuid.Nil, ksuid.Max)
			if err != nil {
				t.Fatal(err)
			}
			assertOrder(t, got, ids)
			got, err = tl.ids(ctx, table, must(ksuid.MinAt(windowFrom)), must(ksuid.MaxAt(windowTo)))
			if err != nil {
				t.Fatal(err)
			}
			assertOrder(t, got, idsInWindow(ids))

			// The counter-case: the ID types go as text, and the domain
			// refuses it instead of storing 27 bytes.
			err = tl.insertPlain(ctx, table, toolRow{ID: ksuid.New(), Session: objectid.New()})
			if err == nil || !strings.Contains(err.Error(), "value for domain ksuid violates check constraint") {
				t.Errorf("insert of ksuid.KSUID: %v; want the domain's check violation", err)
			}
		})
	}
}

// assertRawForms checks, with pgx, that table holds n rows of raw IDs:
// 20 and 12 bytes, and the parent NULL on every other row.
func assertRawForms(t *testing.T, ctx context.Context, table string, n int) {
	t.Helper()
	var total, badID, badSession, badParent, parents int
	err := servers.pg.QueryRow(ctx, `SELECT count(*),
		count(*) FILTER (WHERE octet_length(id) <> 20),
		count(*) FILTER (WHERE octet_length(session) <> 12),
		count(*) FILTER (WHERE octet_length(parent) <> 20),
		count(parent) FROM `+table).Scan(&total, &badID, &badSession, &badParent, &parents)
	if err != nil {
		t.Fatal(err)
	}
	if total != n || badID != 0 || badSession != 0 || badParent != 0 || parents != n/2 {
		t.Errorf("%d rows (want %d); not 20 bytes: %d ids, %d parents; not 12 bytes: %d sessions; %d parents (want %d)",
			total, n, badID, badParent, badSession, parents, n/2)
	}
}

// databaseSQLTool uses database/sql as its documentation shows:
// arguments to Exec, Scan into the ID type.
func databaseSQLTool(name string, db *sql.DB) tool {
	return tool{
		name: name,
		insert: func(ctx context.Context, table string, rows []toolRow) error {
			tx, err := db.BeginTx(ctx, nil)
			if err != nil {
				return err
			}
			defer tx.Rollback()
			stmt, err := tx.PrepareContext(ctx, "INSERT INTO "+table+" (id, session, parent) VALUES ($1, $2, $3)")
			if err != nil {
				return err
			}
			for _, r := range rows {
				if _, err := stmt.ExecContext(ctx, sqlbytes.KSUID(r.ID), sqlbytes.ObjectID(r.Session), sqlbytes.NullKSUID(r.Parent)); err != nil {
					return err
				}
			}
			return tx.Commit()
		},
		insertPlain: func(ctx context.Context, table string, r toolRow) error {
			_, err := db.ExecContext(ctx, "INSERT INTO "+table+" (id, session, parent) VALUES ($1, $2, $3)", r.ID, r.Session, r.Parent)
			return err
		},
		ids: func(ctx context.Context, table string, from, to ksuid.KSUID) ([]ksuid.KSUID, error) {
			rows, err := db.QueryContext(ctx, "SELECT id FROM "+table+" WHERE id BETWEEN $1 AND $2 ORDER BY id",
				sqlbytes.KSUID(from), sqlbytes.KSUID(to))
			if err != nil {
				return nil, err
			}
			defer rows.Close()
			var ids []ksuid.KSUID
			for rows.Next() {
				var id ksuid.KSUID
				if err := rows.Scan(&id); err != nil {
					return nil, err
				}
				ids = append(ids, id)
			}
			return ids, rows.Err()
		},
	}
}

// sqlxItem is a row as sqlx users declare it.
type sqlxItem struct {
	ID      sqlbytes.KSUID     `db:"id"`
	Session sqlbytes.ObjectID  `db:"session"`
	Parent  sqlbytes.NullKSUID `db:"parent"`
}

// sqlxPlainItem declares the ID types themselves.
type sqlxPlainItem struct {
	ID      ksuid.KSUID       `db:"id"`
	Session objectid.ObjectID `db:"session"`
	Parent  ksuid.NullKSUID   `db:"parent"`
}

// sqlxTool uses sqlx's NamedExec with a batch of structs and Select.
func sqlxTool(name string, db *sqlx.DB) tool {
	const insert = " (id, session, parent) VALUES (:id, :session, :parent)"
	return tool{
		name: name,
		insert: func(ctx context.Context, table string, rows []toolRow) error {
			for batch := range slices.Chunk(rows, 500) {
				items := make([]sqlxItem, len(batch))
				for i, r := range batch {
					items[i] = sqlxItem{sqlbytes.KSUID(r.ID), sqlbytes.ObjectID(r.Session), sqlbytes.NullKSUID(r.Parent)}
				}
				if _, err := db.NamedExecContext(ctx, "INSERT INTO "+table+insert, items); err != nil {
					return err
				}
			}
			return nil
		},
		insertPlain: func(ctx context.Context, table string, r toolRow) error {
			_, err := db.NamedExecContext(ctx, "INSERT INTO "+table+insert, sqlxPlainItem(r))
			return err
		},
		ids: func(ctx context.Context, table string, from, to ksuid.KSUID) ([]ksuid.KSUID, error) {
			var items []sqlxItem
			err := db.SelectContext(ctx, &items, "SELECT id, session, parent FROM "+table+" WHERE id BETWEEN $1 AND $2 ORDER BY id",
				sqlbytes.KSUID(from), sqlbytes.KSUID(to))
			ids := make([]ksuid.KSUID, len(items))
			for i, it := range items {
				ids[i] = ksuid.KSUID(it.ID)
			}
			return ids, err
		},
	}
}

// bunItem is a row as bun users declare a model; the table name is set
// per query.
type bunItem struct {
	ID      sqlbytes.KSUID     `bun:"id,pk"`
	Session sqlbytes.ObjectID  `bun:"session"`
	Parent  sqlbytes.NullKSUID `bun:"parent"`
}

// bunPlainItem declares the ID types themselves.
type bunPlainItem struct {
	ID      ksuid.KSUID       `bun:"id,pk"`
	Session objectid.ObjectID `bun:"session"`
	Parent  ksuid.NullKSUID   `bun:"parent"`
}

// bunTool uses bun's query builder with models.
func bunTool(name string, db *bun.DB) tool {
	return tool{
		name: name,
		insert: func(ctx context.Context, table string, rows []toolRow) error {
			items := make([]bunItem, len(rows))
			for i, r := range rows {
				items[i] = bunItem{sqlbytes.KSUID(r.ID), sqlbytes.ObjectID(r.Session), sqlbytes.NullKSUID(r.Parent)}
			}
			_, err := db.NewInsert().Model(&items).ModelTableExpr(table).Exec(ctx)
			return err
		},
		insertPlain: func(ctx context.Context, table string, r toolRow) error {
			item := bunPlainItem(r)
			_, err := db.NewInsert().Model(&item).ModelTableExpr(table).Exec(ctx)
			return err
		},
		ids: func(ctx context.Context, table string, from, to ksuid.KSUID) ([]ksuid.KSUID, error) {
			var items []bunItem
			err := db.NewSelect().Model(&items).ModelTableExpr(table+" AS bun_item").
				Where("id BETWEEN ? AND ?", sqlbytes.KSUID(from), sqlbytes.KSUID(to)).Order("id").Scan(ctx)
			ids := make([]ksuid.KSUID, len(items))
			for i, it := range items {
				ids[i] = ksuid.KSUID(it.ID)
			}
			return ids, err
		},
	}
}

// TestLibPQWithoutBinaryParameters: without binary_parameters=yes, lib/pq
// sends the raw bytes of sqlbytes types as text, which PostgreSQL refuses
// (the bytes are not UTF-8) instead of storing anything. The README says
// to set it.
func TestLibPQWithoutBinaryParameters(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	if err := sqltype.Install(ctx, servers.pg, ""); err != nil {
		t.Fatal(err)
	}
	c := servers.pgConfig.ConnConfig
	db, err := sql.Open("postgres", fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable",
		c.Host, c.Port, c.User, c.Password, c.Database))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	table := pgTable(t, ctx, servers.pg, "id ksuid PRIMARY KEY")
	// 0xF5 in the second byte is never valid UTF-8 there.
	id := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	_, err = db.ExecContext(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", sqlbytes.KSUID(id))
	if err == nil || !strings.Contains(err.Error(), `invalid byte sequence for encoding "UTF8"`) {
		t.Errorf("insert without binary_parameters: %v; want PostgreSQL's invalid byte sequence error", err)
	}
	var n int
	if err := servers.pg.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d rows stored (%v); want none", n, err)
	}
}
