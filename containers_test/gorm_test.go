package containers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

type gormUser struct {
	ID     ksuid.KSUID
	Email  string `gorm:"size:191;uniqueIndex"` // MySQL indexes only sized strings
	Name   string
	Orders []gormOrder `gorm:"foreignKey:UserID"`
}

type gormOrder struct {
	ID     ksuid.KSUID
	UserID ksuid.KSUID
	Item   string
}

// icuDatabase creates a database whose default collation is ICU, for t
// alone, and returns its name.
func icuDatabase(t *testing.T, ctx context.Context) string {
	t.Helper()
	name := "sortid_" + sanitize(t.Name())
	servers.pg.Exec(ctx, "DROP DATABASE IF EXISTS "+name)
	if _, err := servers.pg.Exec(ctx, "CREATE DATABASE "+name+
		" TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'"); err != nil {
		t.Fatalf("creating an ICU database: %v", err)
	}
	t.Cleanup(func() { servers.pg.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)") })
	return name
}

// gormDSN is the DSN of the named database of the test server.
func gormDSN(database string) string {
	c := servers.pgConfig.ConnConfig
	return fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=disable", c.Host, c.Port, c.User, c.Password, database)
}

// openGORM opens GORM on the named database of the test server the way
// users open it, gorm.io/driver/postgres with postgres.Open(dsn) (pgx
// underneath, no sqltype hook), with the plugin, and migrates the models.
func openGORM(t *testing.T, database string, opts ...gormplugin.Option) *gorm.DB {
	t.Helper()
	db := openGORMWith(t, gormpostgres.Open(gormDSN(database)), opts...)
	if err := db.AutoMigrate(&gormUser{}, &gormOrder{}); err != nil {
		t.Fatal(err)
	}
	return db
}

func openGORMWith(t *testing.T, dialector gorm.Dialector, opts ...gormplugin.Option) *gorm.DB {
	t.Helper()
	db, err := gorm.Open(dialector, &gorm.Config{Logger: gormLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if sqlDB, err := db.DB(); err == nil {
		t.Cleanup(func() { sqlDB.Close() })
	}
	if err := db.Use(gormplugin.New(opts...)); err != nil {
		t.Fatal(err)
	}
	return db
}

// assertTextIDColumns checks that AutoMigrate made the ID columns
// varchar(n) COLLATE "C" with the CHECK of the ID's text.
func assertTextIDColumns(t *testing.T, db *gorm.DB, size int, columns ...[2]string) {
	t.Helper()
	for _, col := range columns {
		var dataType, collation, check string
		var length int
		err := db.Raw(`SELECT c.data_type, coalesce(c.character_maximum_length, 0), coalesce(c.collation_name, ''),
				coalesce((SELECT pg_get_constraintdef(k.oid) FROM pg_constraint k
				WHERE k.conrelid = to_regclass(c.table_name) AND k.contype = 'c'
				AND k.conkey = ARRAY[(SELECT attnum FROM pg_attribute WHERE attrelid = to_regclass(c.table_name) AND attname = c.column_name)]), '')
			FROM information_schema.columns c WHERE c.table_name = ? AND c.column_name = ?`, col[0], col[1]).Row().Scan(&dataType, &length, &collation, &check)
		grammar := "'[^0-9A-Za-z]'"
		if size == 24 {
			grammar = "'[^0-9a-f]'"
		}
		if err != nil || dataType != "character varying" || length != size || collation != "C" || !strings.Contains(check, grammar) {
			t.Errorf("%s.%s is %s(%d) COLLATE %q %q (%v); want varchar(%d) COLLATE \"C\" with a CHECK of %s", col[0], col[1], dataType, length, collation, check, err, size, grammar)
		}
	}
}

func TestGORMPostgresICUDatabase(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	name := icuDatabase(t, ctx)

	db := openGORM(t, name, simulatedTime())

	// The ID columns are varchar COLLATE "C" with the CHECK of the text,
	// whatever the database's ICU default collation.
	assertTextIDColumns(t, db, 27, [2]string{"gorm_users", "id"}, [2]string{"gorm_orders", "id"}, [2]string{"gorm_orders", "user_id"})
	if err := db.AutoMigrate(&gormUser{}, &gormOrder{}); err != nil {
		t.Fatalf("a second AutoMigrate: %v", err)
	}
	assertTextIDColumns(t, db, 27, [2]string{"gorm_users", "id"})

	assertGORMTimeOrder(t, db)
	var bad int
	if err := db.Raw("SELECT count(*) FROM gorm_users WHERE id !~ '^[0-9A-Za-z]{27}$'").Row().Scan(&bad); err != nil || bad != 0 {
		t.Errorf("%d stored IDs not in the text form (%v)", bad, err)
	}
}

// TestGORMPostgresOtherPaths covers what users meet besides a fresh
// AutoMigrate: an ObjectID key, the types `sortid sql` installs, an
// explicit type tag, and ID columns another tool made.
func TestGORMPostgresOtherPaths(t *testing.T) {
	needServers(t)
	ctx := testContext(t)

	t.Run("ObjectID key", func(t *testing.T) {
		db := openGORM(t, icuDatabase(t, ctx))
		if err := db.AutoMigrate(&gormSession{}); err != nil {
			t.Fatal(err)
		}
		s := gormSession{Name: "s"}
		if err := db.Create(&s).Error; err != nil {
			t.Fatal(err)
		}
		var back gormSession
		if err := db.Where("id = ?", s.ID).First(&back).Error; err != nil || back.ID != s.ID {
			t.Errorf("lookup by ObjectID: %v, %v", back.ID, err)
		}
		assertTextIDColumns(t, db, 24, [2]string{"gorm_sessions", "id"})
		var stored string
		if err := db.Raw("SELECT id FROM gorm_sessions").Row().Scan(&stored); err != nil || stored != s.ID.String() {
			t.Errorf("stored %q (%v); want %s", stored, err, s.ID)
		}
		if err := db.Exec("INSERT INTO gorm_sessions (id, name) VALUES (?, 'x')", strings.ToUpper(s.ID.String()[:23])+"0").Error; err == nil ||
			!strings.Contains(err.Error(), "violates check constraint") {
			t.Errorf("uppercase hex into the ObjectID column: %v; want its check violated", err)
		}
	})
	t.Run("the domains of sortid sql", func(t *testing.T) {
		name := icuDatabase(t, ctx)
		db := openGORMWith(t, gormpostgres.Open(gormDSN(name)))
		sqlDB, _ := db.DB()
		script, err := sqltype.InstallSQL("")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sqlDB.ExecContext(ctx, script); err != nil {
			t.Fatal(err)
		}
		for range 2 {
			if err := db.AutoMigrate(&gormUser{}, &gormSession{}); err != nil {
				t.Fatal(err)
			}
		}
		var types string
		if err := db.Raw(`SELECT string_agg(format_type(atttypid, NULL), ',' ORDER BY attrelid::regclass::text)
			FROM pg_attribute WHERE attrelid IN ('gorm_users'::regclass, 'gorm_sessions'::regclass) AND attname = 'id'`).Row().Scan(&types); err != nil || types != "objectid,ksuid" {
			t.Errorf("ID columns: %q (%v); want objectid,ksuid", types, err)
		}
		u := gormUser{Email: "d@x"}
		if err := db.Create(&u).Error; err != nil {
			t.Fatal(err)
		}
		var n int64
		if err := db.Model(&gormUser{}).Where("id = ?", u.ID.String()).Count(&n).Error; err != nil || n != 1 {
			t.Errorf("lookup by the text: %d (%v)", n, err)
		}
	})
	t.Run("type:text tag", func(t *testing.T) {
		type tagged struct {
			ID   ksuid.KSUID `gorm:"type:text COLLATE \"C\""`
			Name string
		}
		db := openGORM(t, icuDatabase(t, ctx))
		if err := db.AutoMigrate(&tagged{}); err != nil {
			t.Fatal(err)
		}
		row := tagged{Name: "t"}
		if err := db.Create(&row).Error; err != nil {
			t.Fatal(err)
		}
		var stored string
		var back tagged
		if err := db.Raw("SELECT id FROM taggeds").Row().Scan(&stored); err != nil || stored != row.ID.String() {
			t.Errorf("type:text holds %q (%v); want %s", stored, err, row.ID)
		}
		if err := db.Where("id = ?", row.ID).First(&back).Error; err != nil || back.ID != row.ID {
			t.Errorf("lookup by ID: %v, %v", back.ID, err)
		}
	})
	t.Run("existing text COLLATE C is kept", func(t *testing.T) {
		name := icuDatabase(t, ctx)
		db := openGORMWith(t, gormpostgres.Open(gormDSN(name)))
		if err := db.Exec(`CREATE TABLE gorm_users (id text COLLATE "C" PRIMARY KEY, email varchar(191), name text)`).Error; err != nil {
			t.Fatal(err)
		}
		if err := db.AutoMigrate(&gormUser{}); err != nil {
			t.Fatalf("AutoMigrate over a text COLLATE \"C\" ID column: %v", err)
		}
		u := gormUser{Email: "kept@x"}
		if err := db.Create(&u).Error; err != nil {
			t.Fatal(err)
		}
		var typ, stored string
		db.Raw("SELECT data_type FROM information_schema.columns WHERE table_name = 'gorm_users' AND column_name = 'id'").Row().Scan(&typ)
		db.Raw("SELECT id FROM gorm_users").Row().Scan(&stored)
		if typ != "text" || stored != u.ID.String() {
			t.Errorf("the column is %s holding %q; want text holding %s", typ, stored, u.ID)
		}
	})
	for _, tc := range []struct {
		name, colType string
		want          error
	}{
		{"existing text under ICU is an error", "text", gormplugin.ErrMisorderingColumn},
		{"existing bytea is an error", "bytea", gormplugin.ErrColumnType},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := icuDatabase(t, ctx)
			db := openGORMWith(t, gormpostgres.Open(gormDSN(name)))
			if err := db.Exec(`CREATE TABLE gorm_users (id ` + tc.colType + ` PRIMARY KEY, email varchar(191), name text)`).Error; err != nil {
				t.Fatal(err)
			}
			err := db.AutoMigrate(&gormUser{})
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "gorm_users.id") {
				t.Errorf("AutoMigrate over a %s ID column: %v; want %v naming gorm_users.id", tc.colType, err, tc.want)
			}
			var typ string
			db.Raw("SELECT data_type FROM information_schema.columns WHERE table_name = 'gorm_users' AND column_name = 'id'").Row().Scan(&typ)
			if typ != tc.colType {
				t.Errorf("the column became %s", typ)
			}
		})
	}
}

// simulatedTime gives the plugin a monotonic generator whose clock moves
// one second every 100 IDs, from base.
func simulatedTime() gormplugin.Option {
	var calls atomic.Int64
	clock := func() time.Time { return base.Add(time.Duration(calls.Add(1)/100) * time.Second) }
	return gormplugin.WithKSUIDGenerator(ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(clock)))
}

// assertGORMTimeOrder creates 10,000 users in batches through db, opened
// with simulatedTime, and checks that ORDER BY id gives them in the order
// they were made, over 100 simulated seconds, and that a window of ten
// seconds between MinAt and MaxAt counts their 1,000.
func assertGORMTimeOrder(t *testing.T, db *gorm.DB) {
	t.Helper()
	users := make([]gormUser, 10_000)
	for i := range users {
		users[i].Email = fmt.Sprintf("u%d@x", i)
	}
	if err := db.CreateInBatches(&users, 500).Error; err != nil {
		t.Fatal(err)
	}
	var read []gormUser
	if err := db.Order("id").Find(&read).Error; err != nil {
		t.Fatal(err)
	}
	if len(read) != len(users) {
		t.Fatalf("read back %d users, created %d", len(read), len(users))
	}
	for i := range read {
		if read[i].ID != users[i].ID {
			t.Fatalf("row %d in ID order is %v; the %dth made was %v", i, read[i].ID, i, users[i].ID)
		}
	}
	if first, last := users[0].ID.Time(), users[len(users)-1].ID.Time(); last.Sub(first) < 99*time.Second {
		t.Errorf("IDs span %v to %v; the simulated clock should spread them over 100 s", first, last)
	}

	lo, _ := ksuid.MinAt(base.Add(20 * time.Second))
	hi, _ := ksuid.MaxAt(base.Add(29 * time.Second))
	var inWindow int64
	if err := db.Model(&gormUser{}).Where("id BETWEEN ? AND ?", lo, hi).Count(&inWindow).Error; err != nil {
		t.Fatal(err)
	}
	if inWindow != 1000 {
		t.Errorf("a window of 10 s counted %d rows, want 1000 (100 a second)", inWindow)
	}
}

func TestGORMPostgresAssociationsAndConcurrency(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	db := openGORM(t, icuDatabase(t, ctx))

	u := gormUser{Email: "parent@x", Orders: []gormOrder{{Item: "a"}, {Item: "b"}}}
	if err := db.Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	var orders []gormOrder
	if err := db.Where("user_id = ?", u.ID).Order("id").Find(&orders).Error; err != nil || len(orders) != 2 {
		t.Fatalf("orders under the parent's ID: %d, %v", len(orders), err)
	}
	if orders[0].ID != u.Orders[0].ID || orders[1].ID != u.Orders[1].ID {
		t.Errorf("stored orders %v, created %v", orders, u.Orders)
	}

	// An upsert on the unique email leaves the struct with the row's ID.
	again := gormUser{Email: "parent@x", Name: "renamed"}
	if err := db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "email"}},
		DoUpdates: clause.AssignmentColumns([]string{"name"}),
	}).Create(&again).Error; err != nil {
		t.Fatal(err)
	}
	if again.ID != u.ID {
		t.Errorf("after the upsert the struct holds %v; the row's ID is %v", again.ID, u.ID)
	}

	const goroutines, each = 8, 250
	var wg sync.WaitGroup
	errs := make(chan error, goroutines*each)
	for g := range goroutines {
		wg.Go(func() {
			for i := range each {
				if err := db.Create(&gormUser{Email: fmt.Sprintf("g%d-%d@x", g, i)}).Error; err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	var count, distinct int64
	db.Model(&gormUser{}).Count(&count)
	db.Model(&gormUser{}).Distinct("id").Count(&distinct)
	if count != goroutines*each+1 || distinct != count {
		t.Errorf("%d rows, %d distinct IDs; want %d", count, distinct, goroutines*each+1)
	}
}

// gormLongNamed has a table name long enough that the names of its two
// columns' checks differ only past PostgreSQL's 63 bytes.
type gormLongNamed struct {
	ParentOrderID ksuid.KSUID `gorm:"primaryKey"`
	ParentOwnerID ksuid.KSUID
}

func (gormLongNamed) TableName() string {
	return "order_line_item_order_line_item_order_line_item_archive"
}

// TestGORMPostgresLongTableName: each ID column of a table with a long
// name gets its own check, also after a second AutoMigrate.
func TestGORMPostgresLongTableName(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	db := openGORMWith(t, gormpostgres.Open(gormDSN(icuDatabase(t, ctx))))
	for range 2 {
		if err := db.AutoMigrate(&gormLongNamed{}); err != nil {
			t.Fatal(err)
		}
	}
	table := gormLongNamed{}.TableName()
	assertTextIDColumns(t, db, 27, [2]string{table, "parent_order_id"}, [2]string{table, "parent_owner_id"})
	sqlDB, err := db.DB()
	if err != nil {
		t.Fatal(err)
	}
	_, err = sqlDB.ExecContext(ctx, "INSERT INTO "+table+" (parent_order_id, parent_owner_id) VALUES ($1, $2)",
		ksuid.New().String(), "0qjBBlJIfbVLKwnJn4xpLGDr00-")
	if err == nil || !strings.Contains(err.Error(), "violates check constraint") {
		t.Errorf("27 characters that are no KSUID into the second ID column: %v; want its check violated", err)
	}
}
