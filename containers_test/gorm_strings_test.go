package containers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"
	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// Tables made by SQL, as another tool (or sortid sql) makes them, not by
// AutoMigrate.
type (
	strOrder struct {
		ID        ksuid.KSUID
		Parent    ksuid.NullKSUID
		N         int
		Items     []strItem `gorm:"foreignKey:OrderID"`
		DeletedAt gorm.DeletedAt
	}
	strItem struct {
		ID      ksuid.KSUID
		OrderID ksuid.KSUID
	}
)

func (strOrder) TableName() string { return "orders" }
func (strItem) TableName() string  { return "items" }

// gormTarget is a database for the GORM tests, with its ID column type.
type gormTarget struct {
	name    string
	admin   *pgxpool.Pool
	install string // "sql" (sortid sql), "extension", or "" for nothing
	colType string
}

func gormTargets() []gormTarget {
	var out []gormTarget
	for _, s := range []struct {
		name  string
		admin *pgxpool.Pool
	}{{"pg18", servers.pg}, {"pg15", servers.pg15}} {
		out = append(out,
			gormTarget{s.name + "/domain", s.admin, "sql", "ksuid"},
			gormTarget{s.name + "/varchar C", s.admin, "", `varchar(27) COLLATE "C"`},
			gormTarget{s.name + "/text C", s.admin, "", `text COLLATE "C"`})
	}
	return append(out,
		gormTarget{"ext18/type", servers.ext18.pool, "extension", "ksuid"},
		gormTarget{"ext15/type", servers.ext15.pool, "extension", "ksuid"})
}

// gormTargetDB makes a database of its own for target on its server,
// installs what target says, and returns a pool on it and its DSN.
func gormTargetDB(t *testing.T, ctx context.Context, target gormTarget) (*pgxpool.Pool, string) {
	t.Helper()
	dbName := "sortid_" + sanitize(t.Name())
	target.admin.Exec(ctx, "DROP DATABASE IF EXISTS "+dbName+" WITH (FORCE)")
	if _, err := target.admin.Exec(ctx, "CREATE DATABASE "+dbName); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { target.admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+dbName+" WITH (FORCE)") })
	c := target.admin.Config().ConnConfig
	dsn := fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", c.Host, c.Port, c.User, c.Password, dbName)
	pool, err := pgxpool.New(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	switch target.install {
	case "sql":
		err = sqltype.Install(ctx, pool, "")
	case "extension":
		_, err = pool.Exec(ctx, "CREATE EXTENSION sortid")
	}
	if err != nil {
		t.Fatal(err)
	}
	return pool, dsn
}

// TestGORMStringsNeverTouchOtherRows: every way a GORM user compares Go
// strings and IDs with an ID column, and the raw statements of the red
// team that emptied whole tables through the plugin's SQL rewriting, on
// each column type sortid makes (the domain, the extension's type,
// varchar and text COLLATE "C"), on PostgreSQL 18 and 15, in both
// protocols: each finds or changes exactly the rows it names, or fails.
// The plugin rewrites no SQL: every ID goes as its text, which each of
// these columns reads.
func TestGORMStringsNeverTouchOtherRows(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	for _, target := range gormTargets() {
		for _, simple := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/simple=%v", target.name, simple), func(t *testing.T) {
				checkStringShapes(t, ctx, target, simple)
			})
		}
	}
}

func checkStringShapes(t *testing.T, ctx context.Context, target gormTarget, simple bool) {
	pool, dsn := gormTargetDB(t, ctx, target)
	_, err := pool.Exec(ctx, fmt.Sprintf(`CREATE TABLE orders (id %[1]s PRIMARY KEY, parent %[1]s, n int NOT NULL DEFAULT 0, deleted_at timestamptz);
		CREATE TABLE items (id %[1]s PRIMARY KEY, order_id %[1]s NOT NULL)`, target.colType))
	if err != nil {
		t.Fatal(err)
	}
	db := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: dsn, PreferSimpleProtocol: simple}))

	orders := make([]strOrder, 5)
	for i := range orders {
		orders[i].Items = []strItem{{}, {}}
	}
	if err := db.Create(&orders).Error; err != nil {
		t.Fatal(err)
	}
	// What Create stored is each ID's text, in time order: the order of
	// the slice. (ORDER BY names the table's column: a bare id would be
	// the output's text, in the database's collation.)
	var stored, want []string
	for _, o := range orders {
		want = append(want, o.ID.String())
	}
	if err := db.Raw("SELECT id::text FROM orders ORDER BY orders.id").Scan(&stored).Error; err != nil || !slices.Equal(stored, want) {
		t.Fatalf("Create stored %q (%v); want the five IDs' text, in time order: %q", stored, err, want)
	}
	s := func(i int) string { return orders[i].ID.String() }
	keep := []string{s(1), s(3)}
	keepIDs := []ksuid.KSUID{orders[1].ID, orders[3].ID}
	count := func(q *gorm.DB) int64 {
		var n int64
		if err := q.Model(&strOrder{}).Count(&n).Error; err != nil {
			t.Errorf("count: %v", err)
		}
		return n
	}
	// Each shape runs in a transaction that is rolled back, so each sees
	// the five orders; it must change exactly want rows.
	type shape struct {
		name string
		run  func(tx *gorm.DB) *gorm.DB
		want int64
	}
	shapes := []shape{
		{"Where NOT IN strings, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Where("id NOT IN ?", keep).Delete(&strOrder{}) }, 3},
		{"Where NOT IN IDs, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Where("id NOT IN ?", keepIDs).Delete(&strOrder{}) }, 3},
		{"Not(map), Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Not(map[string]any{"id": keep}).Delete(&strOrder{}) }, 3},
		{"Not(id IN ?), Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Not("id IN ?", keep).Delete(&strOrder{}) }, 3},
		{"NOT (id IN ?), Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Where("NOT (id IN ?)", keep).Delete(&strOrder{}) }, 3},
		{"IS DISTINCT FROM, Delete", func(tx *gorm.DB) *gorm.DB {
			return tx.Unscoped().Where("id IS DISTINCT FROM ?", s(2)).Delete(&strOrder{})
		}, 4},
		{"<>, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Where("id <> ?", s(2)).Delete(&strOrder{}) }, 4},
		{"coalesce(parent, id) <>, Delete", func(tx *gorm.DB) *gorm.DB {
			return tx.Unscoped().Where("coalesce(parent, id) <> ?", s(2)).Delete(&strOrder{})
		}, 4},
		{"? = id, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Where("? = id", s(2)).Delete(&strOrder{}) }, 1},
		{"<, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Where("id < ?", s(2)).Delete(&strOrder{}) }, 2},
		{"Delete(&T{}, id IN ?)", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Delete(&strOrder{}, "id IN ?", keep) }, 2},
		{"soft Delete by IN", func(tx *gorm.DB) *gorm.DB { return tx.Delete(&strOrder{}, "id IN ?", keep) }, 2},
		{"Update by a string", func(tx *gorm.DB) *gorm.DB { return tx.Model(&strOrder{}).Where("id = ?", s(4)).Update("n", 7) }, 1},
		{"Update by a struct's ID", func(tx *gorm.DB) *gorm.DB { return tx.Model(&strOrder{ID: orders[4].ID}).Update("n", 7) }, 1},
		{"Update parent by ID, NOT IN", func(tx *gorm.DB) *gorm.DB {
			return tx.Model(&strOrder{}).Where("id NOT IN ?", keep).Update("parent", orders[0].ID)
		}, 3},
		{"joined table's column", func(tx *gorm.DB) *gorm.DB {
			return tx.Unscoped().Where("id IN (?)", tx.Table("items").Select("items.order_id").Where("items.order_id = ?", s(0))).Delete(&strOrder{})
		}, 1},
	}
	// SQL written whole, through db.Exec: the red team's statements, each
	// meaning "delete every order but these two", with strings and with
	// typed IDs.
	for _, keepArgs := range []struct {
		name string
		a, b any
	}{{"strings", keep[0], keep[1]}, {"IDs", keepIDs[0], keepIDs[1]}} {
		a, b := keepArgs.a, keepArgs.b
		for _, sql := range []string{
			"DELETE FROM orders WHERE id NOT IN (?, ?)",
			"DELETE FROM orders WHERE (id) NOT IN (?, ?)",
			"DELETE FROM orders WHERE id <> ALL (ARRAY[?, ?])",
			"DELETE FROM orders WHERE id::text <> ALL (ARRAY[?, ?]::text[])",
			"DELETE FROM orders WHERE NOT (id = ? OR id = ?)",
			"DELETE FROM orders o WHERE o.id IS DISTINCT FROM ? AND o.id IS DISTINCT FROM ?",
			"WITH k(id) AS (VALUES (?), (?)) DELETE FROM orders WHERE id NOT IN (SELECT id FROM k)",
			"DELETE FROM orders WHERE id NOT IN (SELECT ? UNION SELECT ?)",
			"DELETE FROM orders WHERE id NOT IN (SELECT unnest(ARRAY[?, ?]))",
			"DELETE FROM orders o WHERE NOT EXISTS (SELECT FROM (VALUES (?), (?)) AS k(id) WHERE k.id = o.id)",
			"DELETE FROM orders WHERE (id, n) NOT IN ((?, 0), (?, 0))",
		} {
			shapes = append(shapes, shape{"Exec " + keepArgs.name + ": " + sql, func(tx *gorm.DB) *gorm.DB { return tx.Exec(sql, a, b) }, 3})
		}
	}
	shapes = append(shapes,
		shape{"Exec UPDATE by a string", func(tx *gorm.DB) *gorm.DB { return tx.Exec("UPDATE orders SET n = 9 WHERE id = ?", s(2)) }, 1},
		shape{"Exec UPDATE by an ID", func(tx *gorm.DB) *gorm.DB {
			return tx.Exec("UPDATE orders SET parent = ? WHERE id = ?", orders[0].ID, orders[2].ID)
		}, 1})
	loud := 0
	for _, tc := range shapes {
		err := db.Transaction(func(tx *gorm.DB) error {
			res := tc.run(tx)
			switch {
			case res.Error == nil && res.RowsAffected == tc.want:
			case res.Error != nil && res.RowsAffected == 0 && target.install == "extension" &&
				strings.Contains(res.Error.Error(), "operator does not exist"):
				// An array, VALUES or UNION of parameters is text[] or
				// text to PostgreSQL, which the extension's type does not
				// compare with: an error, never other rows.
				loud++
			default:
				t.Errorf("%s: %d rows (%v), want %d", tc.name, res.RowsAffected, res.Error, tc.want)
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) && !(target.install == "extension" && err != nil) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	t.Logf("%d of %d statements right, %d an error", len(shapes)-loud, len(shapes), loud)
	var rawN int64
	if err := db.Raw("SELECT count(*) FROM orders WHERE id IN ?", keep).Scan(&rawN).Error; err != nil || rawN != 2 {
		t.Errorf("Raw IN strings: %d (%v), want 2", rawN, err)
	}
	// An ID written by Exec is stored as its text, and found by a string.
	err = db.Transaction(func(tx *gorm.DB) error {
		made := ksuid.New()
		if err := tx.Exec("INSERT INTO orders (id, n) VALUES (?, ?)", made, 5).Error; err != nil {
			t.Errorf("Exec INSERT of an ID: %v", err)
			return errRollback
		}
		var n int64
		tx.Model(&strOrder{}).Where("id = ?", made.String()).Count(&n)
		var asText string
		tx.Raw("SELECT id::text FROM orders WHERE n = 5").Scan(&asText)
		if n != 1 || asText != made.String() {
			t.Errorf("Exec INSERT of an ID: found %d, stored as %q", n, asText)
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Error(err)
	}
	for _, tc := range []struct {
		name string
		q    *gorm.DB
		want int64
	}{
		{"= string", db.Where("id = ?", s(2)), 1},
		{"IN strings", db.Where("id IN ?", keep), 2},
		{"Not(map) strings", db.Not(map[string]any{"id": keep}), 3},
		{"IS NOT DISTINCT FROM", db.Where("id IS NOT DISTINCT FROM ?", s(2)), 1},
		{"> string", db.Where("id > ?", s(2)), 2},
		{"BETWEEN strings", db.Where("id BETWEEN ? AND ?", s(1), s(3)), 3},
		{"= ID", db.Where("id = ?", orders[2].ID), 1},
		{"NOT IN IDs", db.Where("id NOT IN ?", keepIDs), 3},
		{"a pointer", db.Where("id = ?", &orders[2].ID), 1},
		{"a Null", db.Where("id = ?", ksuid.NullKSUID{KSUID: orders[2].ID, Valid: true}), 1},
		{"joined table's qualified column", db.Joins("JOIN items ON items.order_id = orders.id").Where("items.order_id = ?", s(2)), 2},
		{"joined by an alias", db.Joins("JOIN items AS it ON it.order_id = orders.id").Where("it.order_id IN ?", keep), 4},
		{"a window", db.Where("id >= ? AND id < ?", must(ksuid.MinAt(orders[0].ID.Time())).String(), must(ksuid.MinAt(orders[0].ID.Time().Add(24*3600e9))).String()), 5},
	} {
		var n int64
		if err := tc.q.Model(&strOrder{}).Count(&n).Error; err != nil || n != tc.want {
			t.Errorf("%s: %d rows (%v), want %d", tc.name, n, err, tc.want)
		}
	}
	var o strOrder
	if err := db.Preload("Items").First(&o, "id = ?", s(3)).Error; err != nil || o.ID != orders[3].ID || len(o.Items) != 2 {
		t.Errorf("First with Preload by a string: %v with %d items (%v)", o.ID, len(o.Items), err)
	}
	var page []strOrder
	if err := db.Where("id > ?", s(0)).Order("id").Limit(2).Find(&page).Error; err != nil || len(page) != 2 || page[0].ID != orders[1].ID {
		t.Errorf("a page after a string: %d rows (%v)", len(page), err)
	}
	// A string that is no KSUID: the extension's type refuses it; in the
	// domain and text columns it is a value no row holds, and NOT IN is
	// then right to keep only s(1). Either way no other row goes.
	ext := target.install == "extension"
	q := db.Unscoped().Where("id NOT IN ?", []string{s(1), "not-a-ksuid"}).Delete(&strOrder{})
	if ext && (q.Error == nil || q.RowsAffected != 0) || !ext && (q.Error != nil || q.RowsAffected != 4) {
		t.Errorf("NOT IN with a string that is no KSUID: %d rows (%v)", q.RowsAffected, q.Error)
	}
	if n := count(db); ext && n != 5 || !ext && n != 1 {
		t.Errorf("%d orders left", n)
	}
}

// TestGORMRefusesWrongColumns: a table another tool made with its ID
// columns as bytea, or as text under a collation that does not sort IDs by
// time, gets an error naming the column and the fix before the first
// statement on it is sent, and nothing is changed; a DryRun builds its SQL
// and runs no query; after the column is fixed (and the plugin told by a
// new pool) the same statements run.
func TestGORMRefusesWrongColumns(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	for _, tc := range []struct {
		colType string
		want    error
		fix     string
	}{
		{"bytea", gormplugin.ErrColumnType, "ALTER TABLE orders ALTER COLUMN id TYPE ksuid USING bytea_to_ksuid(id), after `sortid sql`"},
		{`text COLLATE "und-x-icu"`, gormplugin.ErrMisorderingColumn, `TYPE text COLLATE "C"`},
		{`varchar(27) COLLATE "en-x-icu"`, gormplugin.ErrMisorderingColumn, `TYPE character varying(27) COLLATE "C"`},
	} {
		t.Run(strings.Fields(tc.colType)[0], func(t *testing.T) {
			pool, dsn := gormTargetDB(t, ctx, gormTarget{admin: servers.pg, install: "sql"})
			if _, err := pool.Exec(ctx, "CREATE TABLE orders (id "+tc.colType+" PRIMARY KEY, parent ksuid, n int NOT NULL DEFAULT 0, deleted_at timestamptz)"); err != nil {
				t.Fatal(err)
			}
			if _, err := pool.Exec(ctx, "INSERT INTO orders (id) VALUES ($1), ($2)", ksuid.New().String(), ksuid.New().String()); err != nil {
				t.Fatal(err)
			}
			db := openGORMWith(t, gormpostgres.Open(dsn))
			dry := db.Session(&gorm.Session{DryRun: true}).Unscoped().Where("id NOT IN ?", []string{ksuid.New().String()}).Delete(&strOrder{})
			if dry.Error != nil || !strings.Contains(dry.Statement.SQL.String(), "NOT IN") {
				t.Errorf("DryRun: %q (%v)", dry.Statement.SQL.String(), dry.Error)
			}
			for _, q := range []*gorm.DB{
				db.Unscoped().Where("id NOT IN ?", []string{ksuid.New().String()}).Delete(&strOrder{}),
				db.Model(&strOrder{}).Where("id = ?", ksuid.New()).Update("n", 1),
				db.Omit("Items").Create(&strOrder{}),
				db.Where("id > ?", ksuid.New()).Find(&[]strOrder{}),
			} {
				if !errors.Is(q.Error, tc.want) || !strings.Contains(q.Error.Error(), "orders.id") || !strings.Contains(q.Error.Error(), tc.fix) || q.RowsAffected != 0 {
					t.Errorf("%d rows (%v); want an error wrapping %v naming orders.id and %q", q.RowsAffected, q.Error, tc.want, tc.fix)
				}
			}
			var n, changed int
			if err := pool.QueryRow(ctx, "SELECT count(*), count(*) FILTER (WHERE n <> 0) FROM orders").Scan(&n, &changed); err != nil || n != 2 || changed != 0 {
				t.Errorf("%d rows, %d changed (%v); want 2 untouched", n, changed, err)
			}
		})
	}
}

// TestGORMStringsMySQL: the same shapes against the UUID column the
// plugin makes on MySQL and MariaDB, char(36) ascii_bin: text like every
// other ID column, so that a string finds its row.
func TestGORMStringsMySQL(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		db := openGORMMySQL(t, m)
		type strAccount struct {
			ID   uuidv7.UUID
			Name string
		}
		if err := db.AutoMigrate(&strAccount{}); err != nil {
			t.Fatal(err)
		}
		accounts := make([]strAccount, 5)
		if err := db.Create(&accounts).Error; err != nil {
			t.Fatal(err)
		}
		keep := []string{accounts[1].ID.String(), accounts[3].ID.String()}
		for _, tc := range []struct {
			name string
			run  func(tx *gorm.DB) *gorm.DB
			want int64
		}{
			{"Where NOT IN strings, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Where("id NOT IN ?", keep).Delete(&strAccount{}) }, 3},
			{"Where NOT IN UUIDs, Delete", func(tx *gorm.DB) *gorm.DB {
				return tx.Where("id NOT IN ?", []uuidv7.UUID{accounts[1].ID, accounts[3].ID}).Delete(&strAccount{})
			}, 3},
			{"Not(map), Delete", func(tx *gorm.DB) *gorm.DB { return tx.Not(map[string]any{"id": keep}).Delete(&strAccount{}) }, 3},
			{"<>, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Where("id <> ?", keep[0]).Delete(&strAccount{}) }, 4},
			{"? = id, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Where("? = id", keep[0]).Delete(&strAccount{}) }, 1},
			{"Delete(&T{}, id IN ?)", func(tx *gorm.DB) *gorm.DB { return tx.Delete(&strAccount{}, "id IN ?", keep) }, 2},
			{"Update by a string", func(tx *gorm.DB) *gorm.DB {
				return tx.Model(&strAccount{}).Where("id = ?", keep[1]).Update("name", "x")
			}, 1},
			{"Exec NOT IN strings", func(tx *gorm.DB) *gorm.DB { return tx.Exec("DELETE FROM str_accounts WHERE id NOT IN ?", keep) }, 3},
			{"Exec NOT IN UUIDs", func(tx *gorm.DB) *gorm.DB {
				return tx.Exec("DELETE FROM str_accounts WHERE id NOT IN (?, ?)", accounts[1].ID, accounts[3].ID)
			}, 3},
			{"Exec UPDATE by a string", func(tx *gorm.DB) *gorm.DB {
				return tx.Exec("UPDATE str_accounts a SET a.name = ? WHERE a.id = ?", "y", keep[0])
			}, 1},
		} {
			err := db.Transaction(func(tx *gorm.DB) error {
				res := tc.run(tx)
				if res.Error != nil || res.RowsAffected != tc.want {
					t.Errorf("%s: %d rows (%v), want %d", tc.name, res.RowsAffected, res.Error, tc.want)
				}
				return errRollback
			})
			if !errors.Is(err, errRollback) {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
		var n int64
		if db.Model(&strAccount{}).Count(&n); n != 5 {
			t.Errorf("%d accounts left; want 5", n)
		}
	})
}
