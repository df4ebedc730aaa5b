package containers

import (
	"context"
	"errors"
	"fmt"
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

// TestGORMStringsNeverTouchOtherRows: every way a GORM user compares Go
// strings (and IDs) with an ID column, on PostgreSQL 18 and 15, in both
// protocols, on tables whose ID columns are the ksuid domain, bytea, or
// text as another tool made them (text, varchar(27), text COLLATE "C"):
// each finds or changes exactly the rows it names, or fails. Before, with
// string IDs, Where("id NOT IN ?") and Not(map) deleted every row, and on
// text tables Create stored the ID as the text \x….
func TestGORMStringsNeverTouchOtherRows(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	for _, server := range []struct {
		name string
		pool *pgxpool.Pool
	}{{"pg18", servers.pg}, {"pg15", servers.pg15}} {
		for _, colType := range []string{"ksuid", "bytea", "text", "varchar(27)", `text COLLATE "C"`} {
			for _, simple := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/simple=%v", server.name, strings.Fields(colType)[0], simple)
				t.Run(name, func(t *testing.T) {
					checkStringShapes(t, ctx, server.pool, colType, simple)
				})
			}
		}
	}
}

func checkStringShapes(t *testing.T, ctx context.Context, admin *pgxpool.Pool, colType string, simple bool) {
	dbName := "sortid_" + sanitize(t.Name())
	admin.Exec(ctx, "DROP DATABASE IF EXISTS "+dbName)
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+dbName); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+dbName+" WITH (FORCE)") })
	c := admin.Config().ConnConfig
	dsn := fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", c.Host, c.Port, c.User, c.Password, dbName)
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if colType == "ksuid" {
		if err := sqltype.Install(ctx, pool, ""); err != nil {
			t.Fatal(err)
		}
	}
	_, err = pool.Exec(ctx, fmt.Sprintf(`CREATE TABLE orders (id %[1]s PRIMARY KEY, parent %[1]s, n int NOT NULL DEFAULT 0, deleted_at timestamptz);
		CREATE TABLE items (id %[1]s PRIMARY KEY, order_id %[1]s NOT NULL)`, colType))
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
	// What Create stored is the ID, in the column's form.
	var stored string
	if err := pool.QueryRow(ctx, "SELECT CASE WHEN pg_typeof(id)::text IN ('bytea', 'ksuid') THEN encode(id::bytea, 'hex') ELSE id::text END FROM orders WHERE n = 0 LIMIT 1").Scan(&stored); err != nil {
		t.Fatal(err)
	}
	if want := []string{fmt.Sprintf("%x", orders[0].ID[:])}; strings.HasPrefix(colType, "text") || strings.HasPrefix(colType, "varchar") {
		var found bool
		pool.QueryRow(ctx, "SELECT EXISTS (SELECT FROM orders WHERE id::text = $1)", orders[0].ID.String()).Scan(&found)
		if !found || len(stored) != 27 {
			t.Fatalf("Create stored %q; want each ID's 27-character text", stored)
		}
	} else if len(stored) != 40 {
		t.Fatalf("Create stored %s; want 20 bytes like %s", stored, want[0])
	}

	// A text column under a linguistic collation does not sort IDs by
	// time: there <, > and BETWEEN must fail rather than answer.
	var collation string
	pool.QueryRow(ctx, `SELECT coalesce((SELECT collname FROM pg_collation WHERE oid = attcollation), '') FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'id'`).Scan(&collation)
	misorders := false
	if collation != "" {
		var ordered bool
		// The column's own collation, by the pairs base62 puts in byte order.
		if err := pool.QueryRow(ctx, `WITH t AS (SELECT '9'::text AS a, 'A'::text AS b UNION ALL SELECT 'Z', 'a' UNION ALL SELECT 'B', 'a' UNION ALL SELECT 'Y', 'b')
			SELECT bool_and(x.a < x.b) FROM (SELECT a::`+colType+` AS a, b::`+colType+` AS b FROM t) x`).Scan(&ordered); err != nil {
			t.Fatal(err)
		}
		misorders = !ordered
	}
	t.Logf("column collation %q, misorders IDs: %v", collation, misorders)
	s := func(i int) string { return orders[i].ID.String() }
	keep := []string{s(1), s(3)}
	count := func(q *gorm.DB) int64 {
		var n int64
		if err := q.Model(&strOrder{}).Count(&n).Error; err != nil {
			t.Errorf("count: %v", err)
		}
		return n
	}
	// Each shape runs in a transaction that is rolled back, so each sees
	// the five orders; it must change exactly want rows, and leave
	// 5 - want of them.
	for _, tc := range []struct {
		name string
		run  func(tx *gorm.DB) *gorm.DB
		want int64
	}{
		{"Where NOT IN strings, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Where("id NOT IN ?", keep).Delete(&strOrder{}) }, 3},
		{"Not(map), Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Not(map[string]any{"id": keep}).Delete(&strOrder{}) }, 3},
		{"Not(id IN ?), Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Not("id IN ?", keep).Delete(&strOrder{}) }, 3},
		{"NOT (id IN ?), Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Where("NOT (id IN ?)", keep).Delete(&strOrder{}) }, 3},
		{"IS DISTINCT FROM, Delete", func(tx *gorm.DB) *gorm.DB {
			return tx.Unscoped().Where("id IS DISTINCT FROM ?", s(2)).Delete(&strOrder{})
		}, 4},
		{"<>, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Unscoped().Where("id <> ?", s(2)).Delete(&strOrder{}) }, 4},
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
	} {
		err := db.Transaction(func(tx *gorm.DB) error {
			res := tc.run(tx)
			switch {
			case misorders && tc.name == "<, Delete":
				if !errors.Is(res.Error, gormplugin.ErrMisorderingColumn) || res.RowsAffected != 0 {
					t.Errorf("%s on a misordering text column: %d rows (%v); want ErrMisorderingColumn", tc.name, res.RowsAffected, res.Error)
				}
			case res.Error != nil || res.RowsAffected != tc.want:
				t.Errorf("%s: %d rows (%v), want %d", tc.name, res.RowsAffected, res.Error, tc.want)
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) && !misorders {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	// SQL written whole, through db.Exec and db.Raw: the same.
	for _, tc := range []struct {
		name string
		run  func(tx *gorm.DB) *gorm.DB
		want int64
	}{
		{"Exec NOT IN strings", func(tx *gorm.DB) *gorm.DB {
			return tx.Exec("DELETE FROM orders WHERE id NOT IN (?, ?)", keep[0], keep[1])
		}, 3},
		{"Exec NOT IN a slice", func(tx *gorm.DB) *gorm.DB { return tx.Exec("DELETE FROM orders WHERE id NOT IN ?", keep) }, 3},
		{"Exec IS DISTINCT FROM", func(tx *gorm.DB) *gorm.DB { return tx.Exec("DELETE FROM orders o WHERE o.id IS DISTINCT FROM ?", s(2)) }, 4},
		{"Exec UPDATE by a string", func(tx *gorm.DB) *gorm.DB { return tx.Exec("UPDATE orders SET n = 9 WHERE id = ?", s(2)) }, 1},
		{"Exec UPDATE by an ID", func(tx *gorm.DB) *gorm.DB {
			return tx.Exec("UPDATE orders SET parent = ? WHERE id = ?", orders[0].ID, orders[2].ID)
		}, 1},
	} {
		err := db.Transaction(func(tx *gorm.DB) error {
			if res := tc.run(tx); res.Error != nil || res.RowsAffected != tc.want {
				t.Errorf("%s: %d rows (%v), want %d", tc.name, res.RowsAffected, res.Error, tc.want)
			}
			return errRollback
		})
		if !errors.Is(err, errRollback) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	var rawN int64
	if err := db.Raw("SELECT count(*) FROM orders WHERE id IN ?", keep).Scan(&rawN).Error; err != nil || rawN != 2 {
		t.Errorf("Raw IN strings: %d (%v), want 2", rawN, err)
	}
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
		if n != 1 || (colType != "ksuid" && colType != "bytea" && asText != made.String()) {
			t.Errorf("Exec INSERT of an ID: found %d, stored as %q", n, asText)
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Error(err)
	}
	// A string that is no KSUID: for a binary ID column an error, and
	// nothing deleted; a text column no model describes holds any text,
	// and NOT IN is then right to keep only s(1).
	binary := colType == "ksuid" || colType == "bytea"
	err = db.Transaction(func(tx *gorm.DB) error {
		q := tx.Exec("DELETE FROM orders WHERE id NOT IN (?, ?)", s(1), "not-a-ksuid")
		if binary && (q.Error == nil || q.RowsAffected != 0) || !binary && (q.Error != nil || q.RowsAffected != 4) {
			t.Errorf("Exec with a string that is no KSUID: %d rows (%v)", q.RowsAffected, q.Error)
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) && !binary {
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
		{"NOT IN IDs", db.Where("id NOT IN ?", []ksuid.KSUID{orders[1].ID, orders[3].ID}), 3},
		{"a pointer", db.Where("id = ?", &orders[2].ID), 1},
		{"a Null", db.Where("id = ?", ksuid.NullKSUID{KSUID: orders[2].ID, Valid: true}), 1},
		{"joined table's qualified column", db.Joins("JOIN items ON items.order_id = orders.id").Where("items.order_id = ?", s(2)), 2},
		{"joined by an alias", db.Joins("JOIN items AS it ON it.order_id = orders.id").Where("it.order_id IN ?", keep), 4},
		{"a window", db.Where("id >= ? AND id < ?", must(ksuid.MinAt(orders[0].ID.Time())).String(), must(ksuid.MinAt(orders[0].ID.Time().Add(24*3600e9))).String()), 5},
	} {
		var n int64
		err := tc.q.Model(&strOrder{}).Count(&n).Error
		ordered := strings.HasPrefix(tc.name, ">") || strings.HasPrefix(tc.name, "BETWEEN") || tc.name == "a window"
		switch {
		case misorders && ordered:
			if !errors.Is(err, gormplugin.ErrMisorderingColumn) {
				t.Errorf("%s on a misordering text column: %d rows (%v); want ErrMisorderingColumn", tc.name, n, err)
			}
		case err != nil || n != tc.want:
			t.Errorf("%s: %d rows (%v), want %d", tc.name, n, err, tc.want)
		}
	}
	// = ANY(?) with a slice: GORM writes the slice as a list, which
	// PostgreSQL refuses; with a driver's array value it would be one
	// parameter. Right or an error, never other rows.
	var anyN int64
	if err := db.Model(&strOrder{}).Where("id = ANY(?)", keep).Count(&anyN).Error; err == nil && anyN != 2 {
		t.Errorf("= ANY(?) with strings: %d rows, want 2 or an error", anyN)
	}
	var o strOrder
	if err := db.Preload("Items").First(&o, "id = ?", s(3)).Error; err != nil || o.ID != orders[3].ID || len(o.Items) != 2 {
		t.Errorf("First with Preload by a string: %v with %d items (%v)", o.ID, len(o.Items), err)
	}
	var page []strOrder
	if err := db.Where("id > ?", s(0)).Order("id").Limit(2).Find(&page).Error; misorders && !errors.Is(err, gormplugin.ErrMisorderingColumn) ||
		!misorders && (err != nil || len(page) != 2 || page[0].ID != orders[1].ID) {
		t.Errorf("a page after a string: %d rows (%v)", len(page), err)
	}
	// A string that is no ID, and a value whose column cannot be told,
	// fail before anything is sent: nothing is deleted.
	for _, tc := range []struct {
		q    *gorm.DB
		want error
	}{
		{db.Unscoped().Where("id NOT IN ?", []string{s(1), "not-a-ksuid"}).Delete(&strOrder{}), ksuid.ErrInvalidLength},
		{db.Unscoped().Where("coalesce(parent, id) <> ?", s(1)).Delete(&strOrder{}), gormplugin.ErrUnclearColumn},
	} {
		if !errors.Is(tc.q.Error, tc.want) || tc.q.RowsAffected != 0 {
			t.Errorf("%s: %d rows deleted (%v); want an error wrapping %v", tc.q.Statement.SQL.String(), tc.q.RowsAffected, tc.q.Error, tc.want)
		}
	}
	if n := count(db); n != 5 {
		t.Errorf("%d orders left after the refused statements; want 5", n)
	}
}

// TestGORMStringsMySQL: the same shapes against MariaDB's BINARY(16) UUID
// column, the one ID column there that holds bytes.
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
			{"Not(map), Delete", func(tx *gorm.DB) *gorm.DB { return tx.Not(map[string]any{"id": keep}).Delete(&strAccount{}) }, 3},
			{"<>, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Where("id <> ?", keep[0]).Delete(&strAccount{}) }, 4},
			{"? = id, Delete", func(tx *gorm.DB) *gorm.DB { return tx.Where("? = id", keep[0]).Delete(&strAccount{}) }, 1},
			{"Delete(&T{}, id IN ?)", func(tx *gorm.DB) *gorm.DB { return tx.Delete(&strAccount{}, "id IN ?", keep) }, 2},
			{"Update by a string", func(tx *gorm.DB) *gorm.DB {
				return tx.Model(&strAccount{}).Where("id = ?", keep[1]).Update("name", "x")
			}, 1},
			// SQL written whole: the table's columns come from the
			// information schema.
			{"Exec NOT IN strings", func(tx *gorm.DB) *gorm.DB { return tx.Exec("DELETE FROM str_accounts WHERE id NOT IN ?", keep) }, 3},
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
		if q := db.Where("id NOT IN ?", []string{keep[0], "nope"}).Delete(&strAccount{}); !errors.Is(q.Error, uuidv7.ErrInvalidLength) || q.RowsAffected != 0 {
			t.Errorf("a string that is no UUID: %d rows (%v); want uuidv7.ErrInvalidLength", q.RowsAffected, q.Error)
		}
		var n int64
		if db.Model(&strAccount{}).Count(&n); n != 5 {
			t.Errorf("%d accounts left; want 5", n)
		}
	})
}

// TestGORMStaleColumnTypeIsLoud: a column converted by another tool
// while the application runs (text to the ksuid domain and back), which
// the plugin read before the change: every value is cast to the type it
// read, so the statement fails for want of an operator until the plugin
// reads the catalog again, instead of comparing the old form with the new
// type. Uncast, NOT IN with strings deleted every row of the converted
// table.
func TestGORMStaleColumnTypeIsLoud(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	for _, simple := range []bool{false, true} {
		t.Run(fmt.Sprintf("simple=%v", simple), func(t *testing.T) {
			name, conn := sortidDatabase(t, ctx)
			if _, err := conn.Exec(ctx, "CREATE TABLE orders (id text PRIMARY KEY, parent text, n int NOT NULL DEFAULT 0, deleted_at timestamptz)"); err != nil {
				t.Fatal(err)
			}
			db := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: gormDSN(name), PreferSimpleProtocol: simple}))
			orders := make([]strOrder, 5)
			if err := db.Omit("Items").Create(&orders).Error; err != nil {
				t.Fatal(err)
			}
			keep := []string{orders[1].ID.String(), orders[3].ID.String()}
			count := func() int64 {
				var n int64
				if err := conn.QueryRow(ctx, "SELECT count(*) FROM orders").Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			for _, convert := range []string{
				"ALTER TABLE orders ALTER COLUMN id TYPE ksuid USING ksuid_from_text(id)",
				"ALTER TABLE orders ALTER COLUMN id TYPE text USING ksuid_to_text(id)",
			} {
				var n int64 // the plugin reads the table's columns now
				if err := db.Model(&strOrder{}).Where("id IN ?", keep).Count(&n).Error; err != nil || n != 2 {
					t.Fatalf("before %q: %d rows (%v)", convert, n, err)
				}
				if _, err := conn.Exec(ctx, convert); err != nil {
					t.Fatal(err)
				}
				res := db.Unscoped().Where("id NOT IN ?", keep).Delete(&strOrder{})
				if res.Error == nil || res.RowsAffected != 0 || count() != 5 {
					t.Fatalf("after %q, with the old column type read: %d rows deleted (%v), %d left; want an error and 5", convert, res.RowsAffected, res.Error, count())
				}
				if err := db.Model(&strOrder{}).Where("id = ?", keep[0]).Count(&n).Error; err == nil {
					t.Errorf("after %q, = with the old column type read: %d rows, no error", convert, n)
				}
				// AutoMigrate of another model forgets the column types:
				// the next statement reads the new ones and is right.
				if err := db.AutoMigrate(&gormNote{}); err != nil {
					t.Fatal(err)
				}
			}
			var n int64
			if err := db.Model(&strOrder{}).Where("id NOT IN ?", keep).Count(&n).Error; err != nil || n != 3 {
				t.Errorf("after the plugin read the columns again: %d rows (%v), want 3", n, err)
			}
		})
	}
}
