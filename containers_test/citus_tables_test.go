package containers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// citusDistribute runs create_distributed_table on table by column with
// citusShards shards, co-located with colocateWith where it is not
// empty.
func citusDistribute(t *testing.T, ctx context.Context, coord *pgxpool.Pool, table, column, colocateWith string) {
	t.Helper()
	sql := fmt.Sprintf("SELECT create_distributed_table('%s', '%s', shard_count := %d)", table, column, citusShards)
	if colocateWith != "" {
		sql = fmt.Sprintf("SELECT create_distributed_table('%s', '%s', colocate_with := '%s')", table, column, colocateWith)
	}
	if _, err := coord.Exec(ctx, sql); err != nil {
		t.Fatalf("%s: %v", sql, err)
	}
}

// TestCitusColocatedAndReference: beside a table distributed by its ID
// (the extension's ksuid and objectid, and uuid), a child table
// distributed by the ID it refers to, co-located, with its foreign key,
// and a reference table keyed by the ID (a copy on every node). The read
// matrix's operations on the child's order_id and on the reference
// table's id, in pgx's five modes with and without the hook: no silent
// cell; a join of the two distributed tables by a window of IDs gives the
// window's rows; the foreign key holds across shards.
func TestCitusColocatedAndReference(t *testing.T) {
	coord := needCitus(t)
	ctx := testContext(t)
	base := time.Now().Add(-time.Hour).Truncate(time.Second)
	paths := pgxReadPaths(t, ctx, coord.Config().ConnConfig, "Citus ", execModes)
	counts := map[string]int{}
	for _, s := range []idSet{ksuidSet(t, base, 30), objectIDSet(t, base, 30), uuidv7Set(t, base, 30)} {
		orders := citusTableOn(t, ctx, coord, "id "+s.domain+" PRIMARY KEY, n int NOT NULL DEFAULT 0")
		items, products := orders+"_items", orders+"_products"
		for _, sql := range []string{
			"CREATE TABLE " + items + " (order_id " + s.domain + " NOT NULL REFERENCES " + orders + " (id), line int NOT NULL, n int NOT NULL DEFAULT 0, PRIMARY KEY (order_id, line))",
			"CREATE TABLE " + products + " (id " + s.domain + " PRIMARY KEY, n int NOT NULL DEFAULT 0)",
		} {
			if _, err := coord.Exec(ctx, sql); err != nil {
				t.Fatalf("%s: %v", sql, err)
			}
		}
		t.Cleanup(func() { coord.Exec(context.Background(), "DROP TABLE IF EXISTS "+items+", "+products) })
		citusDistribute(t, ctx, coord, items, "order_id", orders)
		if _, err := coord.Exec(ctx, "SELECT create_reference_table('"+products+"')"); err != nil {
			t.Fatal(err)
		}
		var colocated bool
		var method string
		if err := coord.QueryRow(ctx, `SELECT (SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = $1::regclass) =
				(SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = $2::regclass),
				(SELECT partmethod::text FROM pg_dist_partition WHERE logicalrelid = $3::regclass)`, orders, items, products).Scan(&colocated, &method); err != nil || !colocated || method != "n" {
			t.Fatalf("%s co-located with %s: %v; %s's method %q (%v); want co-located and a reference table (n)", items, orders, colocated, products, method, err)
		}
		rows := make([][]any, len(s.ids))
		for i := range s.ids {
			rows[i] = []any{fmt.Sprint(s.ids[i]), 1}
		}
		// The orders before their items: the foreign key holds.
		for _, load := range []struct {
			table string
			cols  []string
		}{{orders, []string{"id", "n"}}, {items, []string{"order_id", "line"}}, {products, []string{"id", "n"}}} {
			if _, err := coord.CopyFrom(ctx, pgx.Identifier{load.table}, load.cols, pgx.CopyFromRows(rows)); err != nil {
				t.Fatalf("copying into %s: %v", load.table, err)
			}
		}
		citusMatrix(t, ctx, paths, s, "child "+s.domain, items, "order_id", counts)
		citusMatrix(t, ctx, paths, s, "reference "+s.domain, products, "id", counts)

		// A window of IDs over the co-located join.
		join := "SELECT i.order_id::text FROM " + orders + " o JOIN " + items + " i ON i.order_id = o.id WHERE o.id BETWEEN $1 AND $2 ORDER BY i.order_id"
		for _, p := range paths {
			for _, form := range paramForms {
				got, err := p.run(ctx, join, s.form(form, s.minAt(5)), s.form(form, s.maxAt(9)))
				want := mapAll(toAny([]int{5, 6, 7, 8, 9}), func(v any) string { return fmt.Sprint(s.ids[v.(int)]) })
				switch {
				case err != nil:
					counts["loud"]++
					t.Errorf("loud: %s, join of %s, %s form: %v", p.name, s.domain, form, err)
				case strings.Join(got, ",") != strings.Join(want, ","):
					counts["silent"]++
					t.Errorf("silent: %s, join of %s, %s form: %d rows, want %d", p.name, s.domain, form, len(got), len(want))
				default:
					counts["correct"]++
				}
			}
		}
		// The foreign key holds on the shards: an item of no order, and
		// the delete of an order with items, are refused.
		_, err := coord.Exec(ctx, "INSERT INTO "+items+" (order_id, line) VALUES ($1, 1)", fmt.Sprint(s.minAt(0)))
		if !isCode(err, "23503") {
			t.Errorf("an item of no order: %v; want a foreign key violation", err)
		}
		_, err = coord.Exec(ctx, "DELETE FROM "+orders+" WHERE id = $1", fmt.Sprint(s.ids[7]))
		if !isCode(err, "23503") {
			t.Errorf("deleting an order with items: %v; want a foreign key violation", err)
		}
		for _, table := range []string{orders, items, products} {
			if n := citusCount(t, ctx, table); n != len(s.ids) {
				t.Errorf("%s holds %d rows after the matrix, want %d", table, n, len(s.ids))
			}
		}
	}
	logCells(t, counts)
	if counts["silent"] != 0 {
		t.Errorf("%d silent cells", counts["silent"])
	}
}

func citusCount(t *testing.T, ctx context.Context, table string) int {
	t.Helper()
	var n int
	if err := servers.citus.pool.QueryRow(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// isCode reports whether err is a PostgreSQL error of code.
func isCode(err error, code string) bool {
	var e interface{ SQLState() string }
	return errors.As(err, &e) && e.SQLState() == code
}

// TestCitusRangeWindow: the bounds `sortid range --json` prints for a
// day, as a user pastes them, select exactly that day's rows of a table
// distributed by ksuid over 32 shards, in every pgx mode: each shard
// answers for its part and the coordinator adds them up.
func TestCitusRangeWindow(t *testing.T) {
	coord := needCitus(t)
	ctx := testContext(t)
	bin := filepath.Join(t.TempDir(), "sortid")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/sortid/sortid/cmd/sortid").CombinedOutput(); err != nil {
		t.Fatalf("building sortid: %v\n%s", err, out)
	}
	table := citusTable(t, ctx, "id ksuid PRIMARY KEY, at timestamptz NOT NULL")
	// Three days, one row every 30 s, and the first and last second of
	// each day: the middle day holds 2,880 + its edges.
	day := time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)
	var rows [][]any
	want := 0
	for at := day.Add(-24 * time.Hour); at.Before(day.Add(48 * time.Hour)); at = at.Add(30 * time.Second) {
		for _, t2 := range []time.Time{at, at.Add(29 * time.Second)} {
			id := must(ksuid.NewAt(t2))
			rows = append(rows, []any{id.String(), t2})
			if !t2.Before(day) && t2.Before(day.Add(24*time.Hour)) {
				want++
			}
		}
	}
	if _, err := coord.CopyFrom(ctx, pgx.Identifier{table}, []string{"id", "at"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	// A date as TO is the whole day; a half-open window ends at a time.
	for _, args := range [][]string{{"--half-open", "2026-11-20T00:00:00Z", "2026-11-21T00:00:00Z"}, {"2026-11-20", "2026-11-20"}} {
		out, err := exec.CommandContext(ctx, bin, append([]string{"range", "--json"}, args...)...).Output()
		if err != nil {
			t.Fatalf("sortid range %v: %v (%s)", args, err, stderrOf(err))
		}
		var b struct{ Min, Max, Before string }
		if err := json.Unmarshal(out, &b); err != nil {
			t.Fatalf("sortid range %v: %v\n%s", args, err, out)
		}
		sql, hi := "SELECT count(*) FROM "+table+" WHERE id BETWEEN $1 AND $2", b.Max
		if b.Before != "" {
			sql, hi = "SELECT count(*) FROM "+table+" WHERE id >= $1 AND id < $2", b.Before
		}
		for _, mode := range execModes {
			var n int
			if err := coord.QueryRow(ctx, sql, mode, b.Min, hi).Scan(&n); err != nil || n != want {
				t.Errorf("sortid range %v, %v: %d rows (%v), want %d", args, mode, n, err, want)
			}
		}
		// psql, with the bounds pasted as literals.
		q := strings.NewReplacer("$1", "'"+b.Min+"'", "$2", "'"+hi+"'").Replace(sql)
		psqlOut, err := exec.CommandContext(ctx, "psql", "-X", "-At", "-c", q, servers.citus.url).Output()
		if err != nil || strings.TrimSpace(string(psqlOut)) != fmt.Sprint(want) {
			t.Errorf("psql %s: %q (%v), want %d", q, psqlOut, err, want)
		}
	}
}

// citusOrder and citusItem are GORM models of a distributed table and its
// co-located child, keyed by KSUIDs the plugin assigns.
type citusOrder struct {
	ID       ksuid.KSUID
	Customer string
	N        int
	Items    []citusItem `gorm:"foreignKey:OrderID"`
}

type citusItem struct {
	OrderID ksuid.KSUID `gorm:"primaryKey"`
	Line    int         `gorm:"primaryKey;autoIncrement:false"`
	Sku     string
}

// citusDefaultOrder's key is the database's to make (a default the
// server computes, which GORM reads back with RETURNING).
type citusDefaultOrder struct {
	ID       ksuid.KSUID `gorm:"default:ksuid_generate()"`
	Customer string
	Items    []citusDefaultItem `gorm:"foreignKey:OrderID"`
}

type citusDefaultItem struct {
	OrderID ksuid.KSUID `gorm:"primaryKey"`
	Line    int         `gorm:"primaryKey;autoIncrement:false"`
	Sku     string
}

// citusAccount is distributed by Tenant, with a unique email per tenant:
// an upsert by (tenant, email) finds rows whose ID is not the record's.
type citusAccount struct {
	Tenant string      `gorm:"primaryKey;uniqueIndex:citus_accounts_email"`
	ID     ksuid.KSUID `gorm:"primaryKey"`
	Email  string      `gorm:"uniqueIndex:citus_accounts_email"`
	N      int
}

// citusDefaultAccount is citusAccount with a key the database makes.
type citusDefaultAccount struct {
	Tenant string      `gorm:"primaryKey;uniqueIndex:citus_default_accounts_email"`
	ID     ksuid.KSUID `gorm:"primaryKey;default:ksuid_generate()"`
	Email  string      `gorm:"uniqueIndex:citus_default_accounts_email"`
	N      int
}

func (a *citusAccount) keys() (string, *ksuid.KSUID)        { return a.Tenant, &a.ID }
func (a *citusDefaultAccount) keys() (string, *ksuid.KSUID) { return a.Tenant, &a.ID }

// checkCitusUpsert migrates M's table, distributes it by tenant, creates
// 20 accounts, then upserts 40 by (tenant, email), the first 20 of which
// exist with keys other than the records', and checks that each record
// ends up holding its row's ID.
func checkCitusUpsert[M any, P interface {
	*M
	keys() (string, *ksuid.KSUID)
}](t *testing.T, ctx context.Context, coord *pgxpool.Pool, db *gorm.DB, table string, account func(tenant string) M) {
	t.Helper()
	if err := db.AutoMigrate(new(M)); err != nil {
		t.Fatal(err)
	}
	citusDistribute(t, ctx, coord, table, "tenant", "")
	accounts := make([]M, 40)
	for i := range accounts {
		accounts[i] = account(fmt.Sprintf("t%d", i))
	}
	if err := db.Create(accounts[:20]).Error; err != nil {
		t.Fatal(err)
	}
	for i := range accounts[:20] {
		_, id := P(&accounts[i]).keys()
		*id = ksuid.Nil
	}
	err := db.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "tenant"}, {Name: "email"}}, DoUpdates: clause.AssignmentColumns([]string{"n"})}).
		Create(&accounts).Error
	if err != nil {
		t.Fatalf("upsert into %s: %v", table, err)
	}
	var rows []M
	if err := db.Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	idOf := map[string]ksuid.KSUID{}
	for i := range rows {
		tenant, id := P(&rows[i]).keys()
		idOf[tenant] = *id
	}
	wrong := 0
	for i := range accounts {
		tenant, id := P(&accounts[i]).keys()
		if *id != idOf[tenant] {
			wrong++
		}
	}
	if len(rows) != 40 || wrong != 0 {
		t.Errorf("after the upsert into %s: %d rows; %d of 40 records hold another row's ID", table, len(rows), wrong)
	}
}

// TestCitusGORM: GORM with sortid's plugin through the coordinator, as a
// user opens it (no hook), with and without the simple protocol.
// AutoMigrate makes the extension's ksuid columns; the tables are then
// distributed (orders by id, items by order_id, co-located) and the
// foreign key added; AutoMigrate again changes nothing. Every way the
// GORM read tests ask for rows by ID gives the right rows: 0 silent
// cells. The plugin's column check reads the distributed tables from the
// coordinator: a distributed table with varchar(27) KSUIDs under the ICU
// default is refused as on one server, and accepted for equality with
// WithEqualityOnly.
func TestCitusGORM(t *testing.T) {
	needCitus(t)
	ctx := testContext(t)
	pools, url := citusDatabase(t, ctx)
	coord := pools[0]
	if _, err := coord.Exec(ctx, "CREATE EXTENSION sortid"); err != nil {
		t.Fatal(err)
	}
	for _, simple := range []bool{false, true} {
		t.Run(fmt.Sprintf("simple=%v", simple), func(t *testing.T) {
			for _, sql := range []string{"DROP TABLE IF EXISTS citus_items, citus_orders, citus_accounts, citus_default_accounts, citus_default_items, citus_default_orders, legacy_orders CASCADE"} {
				if _, err := coord.Exec(ctx, sql); err != nil {
					t.Fatal(err)
				}
			}
			db := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: url, PreferSimpleProtocol: simple}), simulatedTime())
			// Citus distributes a table before another refers to it: the
			// tables first, with no foreign key, then the key.
			db.Config.DisableForeignKeyConstraintWhenMigrating = true
			if err := db.AutoMigrate(&citusOrder{}, &citusItem{}); err != nil {
				t.Fatal(err)
			}
			citusDistribute(t, ctx, coord, "citus_orders", "id", "")
			citusDistribute(t, ctx, coord, "citus_items", "order_id", "citus_orders")
			db.Config.DisableForeignKeyConstraintWhenMigrating = false
			if err := db.Migrator().CreateConstraint(&citusOrder{}, "Items"); err != nil {
				t.Fatalf("the foreign key on the distributed tables: %v", err)
			}
			schema := func() string {
				var s string
				if err := coord.QueryRow(ctx, `SELECT string_agg(format('%s.%s %s', attrelid::regclass, attname, format_type(atttypid, atttypmod)), ', ' ORDER BY attrelid::regclass::text, attnum)
					FROM pg_attribute WHERE attrelid IN ('citus_orders'::regclass, 'citus_items'::regclass) AND attnum > 0 AND NOT attisdropped`).Scan(&s); err != nil {
					t.Fatal(err)
				}
				var fks int
				coord.QueryRow(ctx, "SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = 'citus_items'::regclass").Scan(&fks)
				return fmt.Sprintf("%s; %d foreign keys", s, fks)
			}
			before := schema()
			if !strings.Contains(before, "citus_orders.id ksuid") || !strings.Contains(before, "citus_items.order_id ksuid") || !strings.HasSuffix(before, "1 foreign keys") {
				t.Fatalf("after AutoMigrate: %s; want ksuid keys and the foreign key", before)
			}
			if err := db.AutoMigrate(&citusOrder{}, &citusItem{}); err != nil {
				t.Fatalf("AutoMigrate on the distributed tables: %v", err)
			}
			if after := schema(); after != before {
				t.Errorf("AutoMigrate again changed the tables:\n%s\n%s", before, after)
			}

			orders := make([]citusOrder, 300) // 3 simulated seconds of 100
			for i := range orders {
				orders[i].Customer = fmt.Sprintf("c%d", i)
				orders[i].Items = []citusItem{{Line: 1, Sku: orders[i].Customer}, {Line: 2, Sku: orders[i].Customer}}
			}
			if err := db.CreateInBatches(&orders, 100).Error; err != nil {
				t.Fatal(err)
			}
			// GORM saves the items with an upsert by (order_id, line);
			// before this version the plugin added RETURNING order_id, and
			// GORM gave Citus's rows, which come shard by shard, to the
			// items by position: in memory an item held another order's ID.
			var stored []citusItem
			if err := db.Find(&stored).Error; err != nil {
				t.Fatal(err)
			}
			byOrder := map[ksuid.KSUID][]string{}
			for _, it := range stored {
				byOrder[it.OrderID] = append(byOrder[it.OrderID], it.Sku)
			}
			swapped := 0
			for _, o := range orders {
				skus := byOrder[o.ID]
				if o.ID == ksuid.Nil || len(skus) != 2 || skus[0] != o.Customer || skus[1] != o.Customer ||
					o.Items[0].OrderID != o.ID || o.Items[1].OrderID != o.ID {
					swapped++
				}
			}
			if swapped != 0 {
				t.Fatalf("%d of 300 orders hold other items, in the table or in memory (%s: %v, its items in memory %v)", swapped, orders[0].Customer, orders[0].ID, orders[0].Items)
			}
			id, pivot := orders[150].ID, orders[150].ID
			lo, hi := must(ksuid.MinAt(base.Add(time.Second))), must(ksuid.MaxAt(base.Add(time.Second)))
			cells := map[string]int{}
			check := func(name string, got, want int64, err error) {
				t.Helper()
				switch {
				case err != nil:
					cells["loud"]++
					t.Errorf("loud: %s: %v", name, err)
				case got != want:
					cells["silent"]++
					t.Errorf("silent: %s: %d rows, want %d", name, got, want)
				default:
					cells["correct"]++
				}
			}
			count := func(q *gorm.DB) (n int64, err error) { err = q.Model(&citusOrder{}).Count(&n).Error; return n, err }
			for _, tc := range []struct {
				name string
				q    *gorm.DB
				want int64
			}{
				{"= ID", db.Where("id = ?", id), 1},
				{"= pointer", db.Where("id = ?", &id), 1},
				{"= string", db.Where("id = ?", id.String()), 1},
				{"IN IDs", db.Where("id IN ?", []ksuid.KSUID{orders[3].ID, id}), 2},
				{"IN strings", db.Where("id IN ?", []string{orders[3].ID.String(), id.String()}), 2},
				{"NOT IN IDs", db.Where("id NOT IN ?", []ksuid.KSUID{orders[3].ID, id}), 298},
				{"<> ID", db.Where("id <> ?", id), 299},
				{"< ID", db.Where("id < ?", pivot), 150},
				{"< string", db.Where("id < ?", pivot.String()), 150},
				{"> ID", db.Where("id > ?", pivot), 149},
				{"BETWEEN MinAt AND MaxAt", db.Where("id BETWEEN ? AND ?", lo, hi), 100},
				{"BETWEEN strings", db.Where(`"citus_orders"."id" BETWEEN ? AND ?`, lo.String(), hi.String()), 100},
				{"struct condition", db.Where(&citusOrder{ID: id}), 1},
			} {
				n, err := count(tc.q)
				check(tc.name, n, tc.want, err)
			}
			var items int64
			err := db.Model(&citusItem{}).Where("order_id BETWEEN ? AND ?", lo, hi).Count(&items).Error
			check("items by a window of order_id", items, 200, err)
			var joined int64
			err = db.Model(&citusOrder{}).Joins("JOIN citus_items ON citus_items.order_id = citus_orders.id").
				Where("citus_orders.id BETWEEN ? AND ?", lo, hi).Count(&joined).Error
			check("co-located join by a window", joined, 200, err)
			var o citusOrder
			err = db.Preload("Items").First(&o, "id = ?", id.String()).Error
			check("First by the text form, Preload", int64(len(o.Items)), 2, err)
			if o.ID != id {
				t.Errorf("First by the text form: %v, want %v", o.ID, id)
			}
			err = db.First(&o, "id = ?", "3Mswuv-not-a-ksuid").Error
			if err == nil || !strings.Contains(err.Error(), "invalid input syntax for type ksuid") {
				t.Errorf("First by a bad string: %v; want the extension's refusal", err)
			}
			var page []citusOrder
			err = db.Where("id > ?", pivot).Order("id").Limit(5).Find(&page).Error
			check("next page", int64(len(page)), 5, err)
			if len(page) == 5 && page[0].ID != orders[151].ID {
				t.Errorf("next page starts at %v, want %v", page[0].ID, orders[151].ID)
			}
			err = db.Where("id < ?", pivot).Order("id DESC").Limit(5).Find(&page).Error
			check("previous page", int64(len(page)), 5, err)
			if len(page) == 5 && page[0].ID != orders[149].ID {
				t.Errorf("previous page starts at %v, want %v", page[0].ID, orders[149].ID)
			}
			err = db.Transaction(func(tx *gorm.DB) error {
				res := tx.Model(&citusOrder{}).Where("id = ?", id).Update("n", 7)
				check("Update by ID", res.RowsAffected, 1, res.Error)
				res = tx.Where("order_id < ?", pivot).Delete(&citusItem{})
				check("Delete items older", res.RowsAffected, 300, res.Error)
				res = tx.Where("id < ?", pivot).Delete(&citusOrder{})
				check("Delete orders older", res.RowsAffected, 150, res.Error)
				res = tx.Where("order_id NOT IN ?", []ksuid.KSUID{orders[200].ID, orders[201].ID}).Delete(&citusItem{})
				check("Delete items NOT IN", res.RowsAffected, 300-4, res.Error)
				return errRollback
			})
			if !errors.Is(err, errRollback) {
				t.Fatal(err)
			}
			var n7 int64
			db.Model(&citusOrder{}).Where("n = 7").Count(&n7)
			if total, _ := count(db); total != 300 || n7 != 0 {
				t.Errorf("after the rolled-back transaction: %d orders, %d updated; want 300, 0", total, n7)
			}
			t.Logf("GORM through the coordinator: %d correct, %d loud, %d silent", cells["correct"], cells["loud"], cells["silent"])

			// An upsert of 40 accounts by (tenant, email), 20 of which
			// exist: each record ends up with its row's ID, whether the
			// plugin or the database makes the key.
			checkCitusUpsert(t, ctx, coord, db, "citus_accounts", func(tenant string) citusAccount { return citusAccount{Tenant: tenant, Email: "a@x", N: 1} })
			checkCitusUpsert(t, ctx, coord, db, "citus_default_accounts", func(tenant string) citusDefaultAccount {
				return citusDefaultAccount{Tenant: tenant, Email: "a@x", N: 1}
			})

			// Keys the database makes: GORM reads them back by RETURNING
			// and gives them to the records by position, which Citus does
			// not keep.
			if err := db.AutoMigrate(&citusDefaultOrder{}, &citusDefaultItem{}); err != nil {
				t.Fatal(err)
			}
			citusDistribute(t, ctx, coord, "citus_default_orders", "id", "")
			citusDistribute(t, ctx, coord, "citus_default_items", "order_id", "citus_default_orders")
			defaults := make([]citusDefaultOrder, 100)
			for i := range defaults {
				defaults[i].Customer = fmt.Sprintf("d%d", i)
				defaults[i].Items = []citusDefaultItem{{Line: 1, Sku: defaults[i].Customer}}
			}
			if err := db.CreateInBatches(&defaults, 50).Error; err != nil {
				t.Fatal(err)
			}
			var storedOrders []citusDefaultOrder
			if err := db.Preload("Items").Find(&storedOrders).Error; err != nil {
				t.Fatal(err)
			}
			idOfCustomer := map[string]ksuid.KSUID{}
			mismatched := 0
			for _, o := range storedOrders {
				idOfCustomer[o.Customer] = o.ID
				if len(o.Items) != 1 || o.Items[0].Sku != o.Customer {
					mismatched++
				}
			}
			for _, o := range defaults {
				if o.ID == ksuid.Nil || o.ID != idOfCustomer[o.Customer] {
					mismatched++
				}
			}
			if len(storedOrders) != 100 || mismatched != 0 {
				t.Errorf("keys the database made: %d orders stored, %d mismatched (an order's items, or the record's ID, are another order's)", len(storedOrders), mismatched)
			}

			// The plugin's check on a distributed table it would refuse.
			for _, sql := range []string{
				"CREATE TABLE legacy_orders (id varchar(27) PRIMARY KEY, n int NOT NULL DEFAULT 0)",
				"SELECT create_distributed_table('legacy_orders', 'id', shard_count := 8)",
			} {
				if _, err := coord.Exec(ctx, sql); err != nil {
					t.Fatal(err)
				}
			}
			if err := db.Create(&legacyOrder{N: 1}).Error; !errors.Is(err, gormplugin.ErrMisorderingColumn) {
				t.Errorf("a distributed varchar(27) table under ICU: %v; want ErrMisorderingColumn", err)
			}
			eq := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: url, PreferSimpleProtocol: simple}), gormplugin.WithEqualityOnly("legacy_orders"))
			legacy := []legacyOrder{{N: 1}, {N: 2}, {N: 3}}
			if err := eq.Create(&legacy).Error; err != nil {
				t.Fatalf("create with WithEqualityOnly: %v", err)
			}
			var got legacyOrder
			if err := eq.First(&got, "id = ?", legacy[1].ID).Error; err != nil || got.N != 2 {
				t.Errorf("First by ID with WithEqualityOnly: %+v (%v)", got, err)
			}
			if err := eq.Where("id > ?", legacy[0].ID).Find(&[]legacyOrder{}).Error; !errors.Is(err, gormplugin.ErrMisorderingColumn) {
				t.Errorf("id > ? with WithEqualityOnly: %v; want ErrMisorderingColumn", err)
			}
		})
	}
}

// TestCitusWorkerAddedLater: a worker that joins after sortid was
// installed gets what the coordinator has, the extension in one database
// and sortid sql's domains and functions in another, and the shards moved
// onto it read right: Citus copies the objects it tracks to a node as it
// is added.
func TestCitusWorkerAddedLater(t *testing.T) {
	needCitus(t)
	for _, install := range []string{"extension", "domains"} {
		t.Run(install, func(t *testing.T) {
			ctx := testContext(t)
			pools, _ := citusDatabase(t, ctx)
			coord, late := pools[0], pools[2]
			if _, err := coord.Exec(ctx, "SELECT citus_remove_node('worker2', 5432)"); err != nil {
				t.Fatal(err)
			}
			// Each table: a key Citus distributes by, and a column of
			// sortid's that the workers must know.
			columns := "id ksuid PRIMARY KEY DEFAULT ksuid_generate(), other uuid DEFAULT uuidv7_generate()"
			probe := "SELECT (SELECT extversion FROM pg_extension WHERE extname = 'sortid') IS NOT NULL, to_regprocedure('ksuid_generate()') IS NOT NULL"
			if install == "extension" {
				if _, err := coord.Exec(ctx, "CREATE EXTENSION sortid"); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := sqltype.Install(ctx, coord, ""); err != nil {
					t.Fatalf("sortid sql: %v", err)
				}
				columns = "id uuid PRIMARY KEY DEFAULT uuidv7_generate(), other ksuid DEFAULT ksuid_generate()"
				probe = "SELECT to_regtype('ksuid') IS NOT NULL, to_regprocedure('ksuid_generate()') IS NOT NULL"
			}
			var typ, fn bool
			if err := late.QueryRow(ctx, probe).Scan(&typ, &fn); err != nil || typ || fn {
				t.Fatalf("worker2 before it joins: sortid's type %v, ksuid_generate() %v (%v); want neither", typ, fn, err)
			}
			table := citusTableOn(t, ctx, coord, columns)
			if _, err := coord.Exec(ctx, "INSERT INTO "+table+" SELECT FROM generate_series(1, 1000)"); err != nil {
				t.Fatal(err)
			}
			if _, err := coord.Exec(ctx, "SELECT citus_add_node('worker2', 5432)"); err != nil {
				t.Fatal(err)
			}
			if err := late.QueryRow(ctx, probe).Scan(&typ, &fn); err != nil || !typ || !fn {
				t.Fatalf("worker2 after citus_add_node: sortid's type %v, ksuid_generate() %v (%v); want both", typ, fn, err)
			}
			if _, err := coord.Exec(ctx, "SELECT rebalance_table_shards(shard_transfer_mode := 'block_writes')"); err != nil {
				t.Fatalf("rebalancing onto worker2: %v", err)
			}
			var onLate int
			if err := coord.QueryRow(ctx, "SELECT count(*) FROM citus_shards WHERE table_name = $1::regclass AND nodename = 'worker2'", table).Scan(&onLate); err != nil || onLate == 0 {
				t.Fatalf("%d shards of %s on worker2 after the rebalance (%v)", onLate, table, err)
			}
			// Every row found by its ID, the other column as it was, every
			// row on its shard, and new rows made on the shards.
			var found, distinct int
			if err := coord.QueryRow(ctx, "SELECT count(*), count(DISTINCT t2.other) FROM "+table+" t JOIN "+table+" t2 ON t2.id = t.id AND t2.other = t.other").Scan(&found, &distinct); err != nil {
				t.Fatal(err)
			}
			if _, err := coord.Exec(ctx, "INSERT INTO "+table+" SELECT FROM generate_series(1, 1000)"); err != nil {
				t.Fatalf("inserting after the rebalance: %v", err)
			}
			misplaced, counts := citusShardCountsIn(t, ctx, coord, table)
			if found != 1000 || distinct != 1000 || misplaced != 0 || sum(counts) != 2000 {
				t.Errorf("after the rebalance: %d rows found by ID, %d distinct; %d misplaced, %d in shards; want 1000, 1000, 0, 2000", found, distinct, misplaced, sum(counts))
			}
		})
	}
}

// TestCitusPartitions: `sortid sql partitions` (its SQL, run in psql)
// on a table partitioned by its ksuid and distributed by it: the new
// partitions are distributed and co-located with the table, rows land in
// their day's partition on the shard their ID hashes to, a later run adds
// the next day's partition, distributed too, and retention drops the old
// partitions with their shards on every worker, leaving every other row.
func TestCitusPartitions(t *testing.T) {
	coord := needCitus(t)
	ctx := testContext(t)
	table := fmt.Sprintf("citus_events_%d", tableSeq.Add(1))
	for _, sql := range []string{
		"CREATE TABLE " + table + " (id ksuid NOT NULL DEFAULT ksuid_generate(), n int NOT NULL DEFAULT 0, PRIMARY KEY (id)) PARTITION BY RANGE (id)",
		"SELECT create_distributed_table('" + table + "', 'id', shard_count := 8)",
	} {
		if _, err := coord.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	t.Cleanup(func() { coord.Exec(context.Background(), "DROP TABLE IF EXISTS "+table) })
	day := func(i int) time.Time { return time.Date(2026, 12, 2+i, 0, 0, 0, 0, time.UTC) }
	partitionsOf := func(now time.Time, retain int) {
		t.Helper()
		sql, err := sqltype.PartitionsSQL(sqltype.PartitionSpec{Table: table, IDType: "ksuid", Period: sqltype.Day, Back: 2, Ahead: 2, Retain: retain}, now)
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(ctx, "psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", servers.citus.url)
		cmd.Stdin = strings.NewReader(sql)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("sortid sql partitions in psql: %v\n%s", err, out)
		}
	}
	// distributed returns the partitions of table, each with whether Citus
	// distributes it co-located with table.
	distributed := func() map[string]bool {
		t.Helper()
		rows, err := coord.Query(ctx, `SELECT c.relname, coalesce((SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = c.oid) =
				(SELECT colocationid FROM pg_dist_partition WHERE logicalrelid = $1::regclass), false)
			FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass`, table)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for rows.Next() {
			var name string
			var ok bool
			if err := rows.Scan(&name, &ok); err != nil {
				t.Fatal(err)
			}
			out[name] = ok
		}
		return out
	}
	partitionsOf(day(0).Add(10*time.Hour), 0)
	parts := distributed()
	for i := -2; i <= 2; i++ {
		name := table + "_p" + day(i).Format("20060102")
		if ok, found := parts[name]; !found || !ok {
			t.Errorf("%s: made %v, distributed and co-located %v; want both", name, found, ok)
		}
	}
	if len(parts) != 5 {
		t.Fatalf("%d partitions %v, want 5", len(parts), parts)
	}
	// A row each hour of the five days.
	var rows [][]any
	for at := day(-2); at.Before(day(3)); at = at.Add(time.Hour) {
		rows = append(rows, []any{must(ksuid.NewAt(at)).String()})
	}
	if _, err := coord.CopyFrom(ctx, pgx.Identifier{table}, []string{"id"}, pgx.CopyFromRows(rows)); err != nil {
		t.Fatal(err)
	}
	for i := -2; i <= 2; i++ {
		if n := citusCount(t, ctx, table+"_p"+day(i).Format("20060102")); n != 24 {
			t.Errorf("the partition of %s holds %d rows, want 24", day(i).Format(time.DateOnly), n)
		}
	}
	for name := range parts {
		if misplaced, counts := citusShardCountsIn(t, ctx, coord, name); misplaced != 0 || sum(counts) != 24 {
			t.Errorf("%s: %d rows off their shard, %d in its shards; want 0, 24", name, misplaced, sum(counts))
		}
	}
	// The shards the workers hold, as retention will look for them.
	if n := workerShards(t, ctx, servers.citus.workers[0], table+"_p"+day(-2).Format("20060102")) +
		workerShards(t, ctx, servers.citus.workers[1], table+"_p"+day(-2).Format("20060102")); n != 8 {
		t.Fatalf("the workers hold %d shards of the oldest partition, want its 8", n)
	}
	// A day later, with retention of one day back: the next day's
	// partition is made and distributed, the two oldest are dropped.
	partitionsOf(day(1).Add(10*time.Hour), 1)
	parts = distributed()
	next := table + "_p" + day(3).Format("20060102")
	if ok := parts[next]; !ok || len(parts) != 4 {
		t.Errorf("after the next run: %v; want the four days from %s to %s, %s distributed", parts, day(0).Format(time.DateOnly), day(3).Format(time.DateOnly), next)
	}
	for _, gone := range []int{-2, -1} {
		name := table + "_p" + day(gone).Format("20060102")
		if _, kept := parts[name]; kept {
			t.Errorf("retention kept %s", name)
		}
		for i, w := range servers.citus.workers {
			if n := workerShards(t, ctx, w, name); n != 0 {
				t.Errorf("worker%d still holds %d shards of %s", i+1, n, name)
			}
		}
	}
	if n := citusCount(t, ctx, table); n != 3*24 {
		t.Errorf("after retention %s holds %d rows, want the 72 of the three days kept", table, n)
	}
}

// workerShards counts the shard tables of table on a worker, which Citus
// hides from catalog queries unless asked.
func workerShards(t *testing.T, ctx context.Context, w *pgxpool.Pool, table string) int {
	t.Helper()
	tx, err := w.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, "SET LOCAL citus.override_table_visibility = off"); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRow(ctx, "SELECT count(*) FROM pg_class WHERE relkind IN ('r', 'p') AND relname ~ ('^' || $1 || '_[0-9]+$')", table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// citusOIDEvent and citusUUIDEvent are GORM models keyed by the other
// two ID types, which the plugin fills.
type citusOIDEvent struct {
	ID objectid.ObjectID
	N  int
}

type citusUUIDEvent struct {
	ID uuidv7.UUID
	N  int
}

func (citusOIDEvent) TableName() string  { return "citus_oid_events" }
func (citusUUIDEvent) TableName() string { return "citus_uuid_events" }

// TestCitusGORMKeyTypes: GORM through the coordinator on tables keyed by
// the extension's objectid and by uuid, distributed by the key, in both
// protocols: AutoMigrate makes the types, and every way of asking by ID
// gives the right rows, 0 silent cells.
func TestCitusGORMKeyTypes(t *testing.T) {
	needCitus(t)
	ctx := testContext(t)
	pools, url := citusDatabase(t, ctx)
	coord := pools[0]
	if _, err := coord.Exec(ctx, "CREATE EXTENSION sortid"); err != nil {
		t.Fatal(err)
	}
	// 100 IDs a simulated second, as simulatedTime does for KSUIDs.
	clock := func() func() time.Time {
		var calls atomic.Int64
		return func() time.Time { return base.Add(time.Duration(calls.Add(1)/100) * time.Second) }
	}
	cells := map[string]int{}
	for _, simple := range []bool{false, true} {
		t.Run(fmt.Sprintf("objectid/simple=%v", simple), func(t *testing.T) {
			db := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: url, PreferSimpleProtocol: simple}),
				gormplugin.WithObjectIDGenerator(objectid.NewGenerator(objectid.WithClock(clock()))))
			checkCitusGORMKeys(t, ctx, coord, db, "citus_oid_events", "objectid",
				func(e *citusOIDEvent) objectid.ObjectID { return e.ID }, objectid.MinAt, objectid.MaxAt, cells)
		})
		t.Run(fmt.Sprintf("uuidv7/simple=%v", simple), func(t *testing.T) {
			db := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: url, PreferSimpleProtocol: simple}),
				gormplugin.WithUUIDGenerator(uuidv7.NewGenerator(uuidv7.WithClock(clock()))))
			checkCitusGORMKeys(t, ctx, coord, db, "citus_uuid_events", "uuid",
				func(e *citusUUIDEvent) uuidv7.UUID { return e.ID }, uuidv7.MinAt, uuidv7.MaxAt, cells)
		})
	}
	t.Logf("GORM through the coordinator, objectid and uuid keys: %d correct, %d loud, %d silent", cells["correct"], cells["loud"], cells["silent"])
}

// checkCitusGORMKeys migrates M's table (its key of wantType),
// distributes it by id, creates 300 records (3 simulated seconds of
// 100) and asks for rows by ID every way TestCitusGORM does, counting
// the cells.
func checkCitusGORMKeys[M any, T comparable](t *testing.T, ctx context.Context, coord *pgxpool.Pool, db *gorm.DB, table, wantType string,
	idOf func(*M) T, minAt, maxAt func(time.Time) (T, error), cells map[string]int) {
	t.Helper()
	if _, err := coord.Exec(ctx, "DROP TABLE IF EXISTS "+table); err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(new(M)); err != nil {
		t.Fatal(err)
	}
	var typ string
	if err := coord.QueryRow(ctx, "SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = $1::regclass AND attname = 'id'", table).Scan(&typ); err != nil || typ != wantType {
		t.Fatalf("AutoMigrate made %s.id %s (%v), want %s", table, typ, err, wantType)
	}
	citusDistribute(t, ctx, coord, table, "id", "")
	if err := db.AutoMigrate(new(M)); err != nil {
		t.Fatalf("AutoMigrate on the distributed table: %v", err)
	}
	recs := make([]M, 300)
	if err := db.CreateInBatches(&recs, 100).Error; err != nil {
		t.Fatal(err)
	}
	ids := make([]T, len(recs))
	for i := range recs {
		ids[i] = idOf(&recs[i])
	}
	var ordered []M
	if err := db.Order("id").Find(&ordered).Error; err != nil || len(ordered) != 300 {
		t.Fatalf("ORDER BY id: %d rows (%v)", len(ordered), err)
	}
	for i := range ordered {
		if idOf(&ordered[i]) != ids[i] {
			t.Fatalf("ORDER BY id: row %d is %v, the %d-th made %v", i, idOf(&ordered[i]), i, ids[i])
		}
	}
	check := func(name string, got, want int64, err error) {
		t.Helper()
		switch {
		case err != nil:
			cells["loud"]++
			t.Errorf("loud: %s: %v", name, err)
		case got != want:
			cells["silent"]++
			t.Errorf("silent: %s: %d rows, want %d", name, got, want)
		default:
			cells["correct"]++
		}
	}
	count := func(q *gorm.DB) (n int64, err error) { err = q.Model(new(M)).Count(&n).Error; return n, err }
	id, text := ids[150], fmt.Sprint(ids[150])
	lo, hi := must(minAt(base.Add(time.Second))), must(maxAt(base.Add(time.Second)))
	for _, tc := range []struct {
		name string
		q    *gorm.DB
		want int64
	}{
		{"= ID", db.Where("id = ?", id), 1},
		{"= string", db.Where("id = ?", text), 1},
		{"IN IDs", db.Where("id IN ?", []T{ids[3], id}), 2},
		{"IN strings", db.Where("id IN ?", []string{fmt.Sprint(ids[3]), text}), 2},
		{"NOT IN IDs", db.Where("id NOT IN ?", []T{ids[3], id}), 298},
		{"<> ID", db.Where("id <> ?", id), 299},
		{"< ID", db.Where("id < ?", id), 150},
		{"> string", db.Where("id > ?", text), 149},
		{"BETWEEN MinAt AND MaxAt", db.Where("id BETWEEN ? AND ?", lo, hi), 100},
	} {
		n, err := count(tc.q)
		check(tc.name, n, tc.want, err)
	}
	var page []M
	err := db.Where("id > ?", id).Order("id").Limit(5).Find(&page).Error
	check("next page", int64(len(page)), 5, err)
	if len(page) == 5 && idOf(&page[0]) != ids[151] {
		t.Errorf("next page starts at %v, want %v", idOf(&page[0]), ids[151])
	}
	err = db.Where("id < ?", id).Order("id DESC").Limit(5).Find(&page).Error
	check("previous page", int64(len(page)), 5, err)
	if len(page) == 5 && idOf(&page[0]) != ids[149] {
		t.Errorf("previous page starts at %v, want %v", idOf(&page[0]), ids[149])
	}
	err = db.Transaction(func(tx *gorm.DB) error {
		res := tx.Model(new(M)).Where("id = ?", id).Update("n", 7)
		check("Update by ID", res.RowsAffected, 1, res.Error)
		res = tx.Where("id < ?", id).Delete(new(M))
		check("Delete older", res.RowsAffected, 150, res.Error)
		res = tx.Where("id NOT IN ?", []T{ids[200], ids[201]}).Delete(new(M))
		check("Delete NOT IN", res.RowsAffected, 148, res.Error)
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Fatal(err)
	}
	if n, _ := count(db); n != 300 {
		t.Errorf("after the rolled-back transaction: %d rows, want 300", n)
	}
}
