package containers

import (
	"context"
	"database/sql"
	"slices"
	"strings"
	"testing"
	"time"

	entdialect "entgo.io/ent/dialect"
	entsql "entgo.io/ent/dialect/sql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	_ "github.com/mattn/go-sqlite3"

	"github.com/sortid/sortid/containers_test/entdb"
	"github.com/sortid/sortid/containers_test/entdb/order"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

// TestEnt runs the ent client generated from entdb/schema (KSUID keys as
// field.Other with a monotonic default, a KSUID foreign key, a nullable
// KSUID): ent's migration makes the recommended column type, and rows
// read back in time order, on PostgreSQL 18 (the ksuid domain, through
// pgx's database/sql driver with sqltype.AfterConnect) and on SQLite
// (text, as the GORM plugin makes it). On PostgreSQL without the hook the
// domain refuses the text form.
func TestEnt(t *testing.T) {
	t.Run("PostgreSQL", func(t *testing.T) {
		needServers(t)
		ctx := testContext(t)
		cfg := servers.pgConfig.ConnConfig.Copy()
		cfg.Database = icuDatabase(t, ctx)
		// Install first: a connection learns the domains when it connects.
		installer, err := pgx.ConnectConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		err = sqltype.Install(ctx, installer, "")
		installer.Close(ctx)
		if err != nil {
			t.Fatal(err)
		}
		db := stdlib.OpenDB(*cfg, stdlib.OptionAfterConnect(sqltype.AfterConnect))
		defer db.Close()
		client := entdb.NewClient(entdb.Driver(entsql.OpenDB(entdialect.Postgres, db)))
		if err := client.Schema.Create(ctx); err != nil {
			t.Fatalf("ent migration: %v", err)
		}
		for _, col := range []string{"id", "account_id", "parent"} {
			var domain sql.NullString
			if err := db.QueryRowContext(ctx, `SELECT domain_name FROM information_schema.columns
				WHERE table_name = 'orders' AND column_name = $1`, col).Scan(&domain); err != nil || domain.String != "ksuid" {
				t.Errorf("orders.%s: domain %q (%v); want ksuid", col, domain.String, err)
			}
		}
		exerciseEnt(t, ctx, client, func(table string) string {
			var bad int
			db.QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE id !~ '^[0-9A-Za-z]{27}$'").Scan(&bad)
			if bad != 0 {
				return "ids not in the text form"
			}
			return ""
		})

		// Without the hook pgx sends the text form, which the domain reads.
		plain := stdlib.OpenDB(*cfg)
		defer plain.Close()
		a, err := entdb.NewClient(entdb.Driver(entsql.OpenDB(entdialect.Postgres, plain))).Account.Create().SetName("x").Save(ctx)
		var stored string
		if err == nil {
			err = db.QueryRowContext(ctx, "SELECT id FROM accounts WHERE name = 'x'").Scan(&stored)
		}
		if err != nil || stored != a.ID.String() {
			t.Errorf("ent without sqltype.AfterConnect: stored %q (%v)", stored, err)
		}
	})
	t.Run("SQLite", func(t *testing.T) {
		ctx := testContext(t)
		db, err := sql.Open("sqlite3", "file:ent?mode=memory&cache=shared&_fk=1")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		client := entdb.NewClient(entdb.Driver(entsql.OpenDB(entdialect.SQLite, db)))
		if err := client.Schema.Create(ctx); err != nil {
			t.Fatalf("ent migration: %v", err)
		}
		var typ string
		if err := db.QueryRowContext(ctx, "SELECT type FROM pragma_table_info('orders') WHERE name = 'id'").Scan(&typ); err != nil || !strings.EqualFold(typ, "text") {
			t.Errorf("orders.id is %q (%v); want text", typ, err)
		}
		exerciseEnt(t, ctx, client, func(table string) string {
			var bad int
			db.QueryRowContext(ctx, "SELECT count(*) FROM "+table+" WHERE typeof(id) <> 'text' OR length(id) <> 27").Scan(&bad)
			if bad != 0 {
				return "ids not 27 characters of text"
			}
			return ""
		})
	})
}

// exerciseEnt makes accounts (keys from the schema's default) and orders
// (keys made over time), and checks the stored form with storedForm, the
// order of the keys, a MinAt/MaxAt window, a lookup by foreign key and
// the nullable parent.
func exerciseEnt(t *testing.T, ctx context.Context, client *entdb.Client, storedForm func(table string) string) {
	t.Helper()
	before := time.Now().Truncate(time.Second)
	var accounts []ksuid.KSUID
	for _, name := range []string{"a", "b", "c"} {
		a, err := client.Account.Create().SetName(name).Save(ctx)
		if err != nil {
			t.Fatalf("creating an account: %v", err)
		}
		if a.ID.Time().Before(before) || a.ID.Time().After(time.Now()) {
			t.Errorf("default key %v dated %v; want now", a.ID, a.ID.Time())
		}
		accounts = append(accounts, a.ID)
	}
	if !slices.IsSortedFunc(accounts, ksuid.KSUID.Compare) {
		t.Errorf("the monotonic default gave keys out of order: %v", accounts)
	}

	rows := toolRows(t)
	builders := make([]*entdb.OrderCreate, len(rows))
	for i, r := range rows {
		builders[i] = client.Order.Create().SetID(r.ID).SetAccountID(accounts[i%3]).SetTotal(int64(i)).SetParent(r.Parent)
	}
	for chunk := range slices.Chunk(builders, 200) {
		if err := client.Order.CreateBulk(chunk...).Exec(ctx); err != nil {
			t.Fatalf("creating orders: %v", err)
		}
	}
	if msg := storedForm("orders"); msg != "" {
		t.Errorf("orders: %s", msg)
	}
	ids := make([]ksuid.KSUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	got, err := client.Order.Query().Order(order.ByID()).IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	assertOrder(t, got, ids)
	got, err = client.Order.Query().Where(order.IDGTE(must(ksuid.MinAt(windowFrom))), order.IDLTE(must(ksuid.MaxAt(windowTo)))).
		Order(order.ByID()).IDs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	assertOrder(t, got, idsInWindow(ids))

	n, err := client.Order.Query().Where(order.AccountID(accounts[1])).Count(ctx)
	if err != nil || n != len(rows)/3 {
		t.Errorf("orders of account %v: %d (%v); want %d", accounts[1], n, err, len(rows)/3)
	}
	for _, i := range []int{41, 42} {
		o, err := client.Order.Get(ctx, rows[i].ID)
		if err != nil || o.Parent != rows[i].Parent || o.AccountID != accounts[i%3] {
			t.Errorf("order %v: %+v, %v; want parent %+v", rows[i].ID, o, err, rows[i].Parent)
		}
	}
}
