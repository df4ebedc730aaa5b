package containers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/schema"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
)

// rt is a model keyed by a KSUID, of a table each tenant has.
type rt struct {
	ID ksuid.KSUID
	N  int
}

func (rt) TableName() string { return "rt" }

// tenantTable makes schema.rt with ids in an ID column of colType (the
// IDs as their text, or as raw bytes for bytea), the way another tool
// would.
func tenantTable(t *testing.T, ctx context.Context, pool *pgxpool.Pool, schema, colType string, ids []ksuid.KSUID) {
	t.Helper()
	table := schema + ".rt"
	if _, err := pool.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+schema+"; CREATE TABLE "+table+" (id "+colType+" PRIMARY KEY, n int NOT NULL DEFAULT 0)"); err != nil {
		t.Fatal(err)
	}
	for _, id := range ids {
		var v any = id.String()
		if colType == "bytea" {
			v = id.Bytes()
		}
		if _, err := pool.Exec(ctx, "INSERT INTO "+table+" (id) VALUES ($1)", v); err != nil {
			t.Fatal(err)
		}
	}
}

// tableState is what table holds: its rows, and how many were updated.
func tableState(t *testing.T, ctx context.Context, pool *pgxpool.Pool, table string) string {
	t.Helper()
	var rows, updated int
	if err := pool.QueryRow(ctx, "SELECT count(*), count(*) FILTER (WHERE n <> 0) FROM "+table).Scan(&rows, &updated); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%d rows, %d updated", rows, updated)
}

// TestGORMChecksTheTableReached: the plugin's column check reads the
// table each statement reaches, not the first table of that name it saw.
// A tenant picked per connection by SET search_path (db.Connection), a
// schema-qualified db.Table, a TablePrefix and a db.Table with no model
// each get the refusal for their own bytea or misordering column, with
// strings and with typed IDs, in both protocols, and nothing changes
// (with no model, a misordering collation only for <, >, BETWEEN); a
// statement whose model has no ID field does not pass the table for the
// ID statements after it; and a column another tool re-types after the
// check passed is refused on the next connection. Before, the check was
// keyed by the unqualified name: tenant B's "all but these" deleted every
// row.
func TestGORMChecksTheTableReached(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	pool, dsn := gormTargetDB(t, ctx, gormTarget{admin: servers.pg, install: "extension"})
	ids := []ksuid.KSUID{ksuid.New(), ksuid.New(), ksuid.New(), ksuid.New()}
	keep := []ksuid.KSUID{ids[0], ids[1]}
	keepText := []string{ids[0].String(), ids[1].String()}
	tenantTable(t, ctx, pool, "tenant_a", "ksuid", ids)
	tenantTable(t, ctx, pool, "tenant_b", "bytea", ids)
	tenantTable(t, ctx, pool, "tenant_c", "text", ids) // the database's ICU default
	const untouched = "4 rows, 0 updated"

	for _, simple := range []bool{false, true} {
		t.Run(fmt.Sprintf("search_path/simple=%v", simple), func(t *testing.T) {
			db := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: dsn, PreferSimpleProtocol: simple}))
			inTenant := func(schema string, f func(tx *gorm.DB) error) error {
				return db.Connection(func(tx *gorm.DB) error {
					if err := tx.Exec("SET search_path TO " + schema + ", public").Error; err != nil {
						return err
					}
					defer tx.Exec("RESET search_path")
					return f(tx)
				})
			}
			// Tenant A passes and finds its rows.
			var found []rt
			if err := inTenant("tenant_a", func(tx *gorm.DB) error { return tx.Where("id IN ?", keep).Find(&found).Error }); err != nil || len(found) != 2 {
				t.Fatalf("tenant A: %d rows (%v); want 2", len(found), err)
			}
			for _, tc := range []struct {
				schema string
				want   error
			}{{"tenant_b", gormplugin.ErrColumnType}, {"tenant_c", gormplugin.ErrMisorderingColumn}} {
				for _, keepArg := range []any{keep, keepText} {
					err := inTenant(tc.schema, func(tx *gorm.DB) error { return tx.Where("id NOT IN ?", keepArg).Delete(&rt{}).Error })
					if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "rt.id") {
						t.Errorf("%s, NOT IN %T: %v; want an error wrapping %v naming rt.id", tc.schema, keepArg, err, tc.want)
					}
					if got := tableState(t, ctx, pool, tc.schema+".rt"); got != untouched {
						t.Fatalf("%s holds %s; want %s", tc.schema, got, untouched)
					}
				}
			}
			if got := tableState(t, ctx, pool, "tenant_a.rt"); got != untouched {
				t.Errorf("tenant_a holds %s; want %s", got, untouched)
			}
		})
	}

	t.Run("schema-qualified, TablePrefix, no model", func(t *testing.T) {
		db := openGORMWith(t, gormpostgres.Open(dsn))
		for _, q := range []struct {
			name  string
			run   func() *gorm.DB
			table string
			want  error
		}{
			{"db.Table(schema.rt) after tenant_a.rt passed", func() *gorm.DB {
				if err := db.Table("tenant_a.rt").Where("id IN ?", keep).Find(&[]rt{}).Error; err != nil {
					t.Fatal(err)
				}
				return db.Table("tenant_b.rt").Where("id NOT IN ?", keep).Delete(&rt{})
			}, "tenant_b.rt", gormplugin.ErrColumnType},
			{"no model, Update", func() *gorm.DB {
				return db.Table("tenant_c.rt").Where("id > ?", ids[1]).Update("n", 1)
			}, "tenant_c.rt", gormplugin.ErrMisorderingColumn},
			{"no model, Count", func() *gorm.DB {
				var n int64
				return db.Table("tenant_c.rt").Where("id < ?", ids[2]).Count(&n)
			}, "tenant_c.rt", gormplugin.ErrMisorderingColumn},
			{"no model, map condition", func() *gorm.DB {
				return db.Table("tenant_b.rt").Where(map[string]any{"id": ids[0]}).Update("n", 1)
			}, "tenant_b.rt", gormplugin.ErrColumnType},
			{"a model with no ID field first", func() *gorm.DB {
				if err := db.Table("tenant_b.rt").Find(&[]struct{ N int }{}).Error; err != nil {
					t.Fatal(err)
				}
				return db.Table("tenant_b.rt").Where("id = ?", ids[0]).Find(&[]rt{})
			}, "tenant_b.rt", gormplugin.ErrColumnType},
		} {
			r := q.run()
			if !errors.Is(r.Error, q.want) || !strings.Contains(r.Error.Error(), q.table+".id") || r.RowsAffected != 0 {
				t.Errorf("%s: %d rows (%v); want an error wrapping %v naming %s.id", q.name, r.RowsAffected, r.Error, q.want, q.table)
			}
			if got := tableState(t, ctx, pool, q.table); got != untouched {
				t.Fatalf("%s: %s holds %s; want %s", q.name, q.table, got, untouched)
			}
		}
		// Equality needs no byte order: on the ICU column a model-less
		// update by = finds its one row.
		if r := db.Table("tenant_c.rt").Where("id = ?", ids[2]).Update("n", 1); r.Error != nil || r.RowsAffected != 1 {
			t.Errorf("no model, = on the ICU column: %d rows (%v); want 1", r.RowsAffected, r.Error)
		}
		if _, err := pool.Exec(ctx, "UPDATE tenant_c.rt SET n = 0"); err != nil {
			t.Fatal(err)
		}
		prefixed, err := gorm.Open(gormpostgres.Open(dsn), &gorm.Config{Logger: gormLogger(), NamingStrategy: schema.NamingStrategy{TablePrefix: "tenant_b.", SingularTable: true}})
		if err != nil {
			t.Fatal(err)
		}
		if sqlDB, err := prefixed.DB(); err == nil {
			defer sqlDB.Close()
		}
		if err := prefixed.Use(gormplugin.New()); err != nil {
			t.Fatal(err)
		}
		type tenantRt struct {
			ID ksuid.KSUID
			N  int
		}
		// tenantRt's table under the prefix: tenant_b.tenant_rt.
		if _, err := pool.Exec(ctx, "ALTER TABLE tenant_b.rt RENAME TO tenant_rt"); err != nil {
			t.Fatal(err)
		}
		defer pool.Exec(context.Background(), "ALTER TABLE tenant_b.tenant_rt RENAME TO rt")
		r := prefixed.Where("id NOT IN ?", keep).Delete(&tenantRt{})
		if !errors.Is(r.Error, gormplugin.ErrColumnType) || !strings.Contains(r.Error.Error(), "tenant_b.tenant_rt.id") {
			t.Errorf("TablePrefix tenant_b.: %v; want an error wrapping ErrColumnType naming tenant_b.tenant_rt.id", r.Error)
		}
	})

	t.Run("a column re-typed after the check", func(t *testing.T) {
		if _, err := pool.Exec(ctx, "CREATE TABLE later (id ksuid PRIMARY KEY, n int NOT NULL DEFAULT 0)"); err != nil {
			t.Fatal(err)
		}
		if _, err := pool.Exec(ctx, "INSERT INTO later (id) SELECT unnest($1::text[])::ksuid", texts(ids)); err != nil {
			t.Fatal(err)
		}
		db := openGORMWith(t, gormpostgres.Open(dsn))
		if err := db.Table("later").Where("id IN ?", keep).Find(&[]rt{}).Error; err != nil {
			t.Fatalf("before: %v", err)
		}
		if _, err := pool.Exec(ctx, "ALTER TABLE later ALTER COLUMN id TYPE bytea USING ksuid_to_bytea(id)"); err != nil {
			t.Fatal(err)
		}
		// The pool's next connection.
		sqlDB, err := db.DB()
		if err != nil {
			t.Fatal(err)
		}
		sqlDB.SetMaxIdleConns(0)
		r := db.Table("later").Where("id NOT IN ?", keep).Delete(&rt{})
		if !errors.Is(r.Error, gormplugin.ErrColumnType) {
			t.Errorf("after the column became bytea, on a new connection: %d rows (%v); want ErrColumnType", r.RowsAffected, r.Error)
		}
		if got := tableState(t, ctx, pool, "later"); got != untouched {
			t.Errorf("later holds %s; want %s", got, untouched)
		}
	})
}
