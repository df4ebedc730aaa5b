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
	"github.com/sortid/sortid/sqltype"
)

// The database/sql tools that see only driver.Valuer (lib/pq, sqlx on it,
// bun with either driver) on the ksuid and objectid domains: the ID types
// themselves send their text, which the domains hold, in time order; a
// string that is no ID the domain refuses.

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
	// insert writes rows into table.
	insert func(ctx context.Context, table string, rows []toolRow) error
	// insertText writes one row with its ID as a string.
	insertText func(ctx context.Context, table string, id string) error
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

	pq, err := sql.Open("postgres", keyValueDSN)
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
				t.Fatalf("insert: %v", err)
			}
			assertTextForms(t, ctx, table, len(rows))
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

			// The counter-case: text that is no KSUID, the domain refuses.
			err = tl.insertText(ctx, table, "0qjBBlJIfbVLKwnJn4xpLGDr00-")
			if err == nil || !strings.Contains(err.Error(), "value for domain ksuid violates check constraint") {
				t.Errorf("insert of a string that is no KSUID: %v; want the domain's check violation", err)
			}
		})
	}
}

// assertTextForms checks, with pgx, that table holds n rows of IDs in
// their text form, and the parent NULL on every other row.
func assertTextForms(t *testing.T, ctx context.Context, table string, n int) {
	t.Helper()
	var total, badID, badSession, badParent, parents int
	err := servers.pg.QueryRow(ctx, `SELECT count(*),
		count(*) FILTER (WHERE id !~ '^[0-9A-Za-z]{27}$'),
		count(*) FILTER (WHERE session !~ '^[0-9a-f]{24}$'),
		count(*) FILTER (WHERE parent !~ '^[0-9A-Za-z]{27}$'),
		count(parent) FROM `+table).Scan(&total, &badID, &badSession, &badParent, &parents)
	if err != nil {
		t.Fatal(err)
	}
	if total != n || badID != 0 || badSession != 0 || badParent != 0 || parents != n/2 {
		t.Errorf("%d rows (want %d); not a KSUID's text: %d ids, %d parents; not an ObjectID's: %d sessions; %d parents (want %d)",
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
				if _, err := stmt.ExecContext(ctx, r.ID, r.Session, r.Parent); err != nil {
					return err
				}
			}
			return tx.Commit()
		},
		insertText: func(ctx context.Context, table string, id string) error {
			_, err := db.ExecContext(ctx, "INSERT INTO "+table+" (id, session) VALUES ($1, $2)", id, objectid.New())
			return err
		},
		ids: func(ctx context.Context, table string, from, to ksuid.KSUID) ([]ksuid.KSUID, error) {
			rows, err := db.QueryContext(ctx, "SELECT id FROM "+table+" WHERE id BETWEEN $1 AND $2 ORDER BY id", from, to)
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
					items[i] = sqlxItem(r)
				}
				if _, err := db.NamedExecContext(ctx, "INSERT INTO "+table+insert, items); err != nil {
					return err
				}
			}
			return nil
		},
		insertText: func(ctx context.Context, table string, id string) error {
			_, err := db.ExecContext(ctx, "INSERT INTO "+table+" (id, session) VALUES ($1, $2)", id, objectid.New())
			return err
		},
		ids: func(ctx context.Context, table string, from, to ksuid.KSUID) ([]ksuid.KSUID, error) {
			var items []sqlxItem
			err := db.SelectContext(ctx, &items, "SELECT id, session, parent FROM "+table+" WHERE id BETWEEN $1 AND $2 ORDER BY id", from, to)
			ids := make([]ksuid.KSUID, len(items))
			for i, it := range items {
				ids[i] = it.ID
			}
			return ids, err
		},
	}
}

// bunItem is a row as bun users declare a model; the table name is set
// per query.
type bunItem struct {
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
				items[i] = bunItem(r)
			}
			_, err := db.NewInsert().Model(&items).ModelTableExpr(table).Exec(ctx)
			return err
		},
		insertText: func(ctx context.Context, table string, id string) error {
			_, err := db.NewInsert().Model(&map[string]any{"id": id, "session": objectid.New().String()}).ModelTableExpr(table).Exec(ctx)
			return err
		},
		ids: func(ctx context.Context, table string, from, to ksuid.KSUID) ([]ksuid.KSUID, error) {
			var items []bunItem
			err := db.NewSelect().Model(&items).ModelTableExpr(table+" AS bun_item").
				Where("id BETWEEN ? AND ?", from, to).Order("id").Scan(ctx)
			ids := make([]ksuid.KSUID, len(items))
			for i, it := range items {
				ids[i] = it.ID
			}
			return ids, err
		},
	}
}
