package containers

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/stdlib"
	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
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

// openGORM opens GORM, through gorm.io/driver/postgres over pgx, on the
// named database of the test server, with the plugin.
func openGORM(t *testing.T, database string, opts ...gormplugin.Option) *gorm.DB {
	t.Helper()
	cfg := servers.pgConfig.ConnConfig.Copy()
	cfg.Database = database
	sqlDB := stdlib.OpenDB(*cfg)
	t.Cleanup(func() { sqlDB.Close() })
	db, err := gorm.Open(gormpostgres.New(gormpostgres.Config{Conn: sqlDB}), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Use(gormplugin.New(opts...)); err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(&gormUser{}, &gormOrder{}); err != nil {
		t.Fatal(err)
	}
	return db
}

func TestGORMPostgresICUDatabase(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	name := icuDatabase(t, ctx)

	db := openGORM(t, name, simulatedTime())

	// The ID columns are text under "C", not the database's ICU default.
	for _, col := range []struct{ table, column string }{{"gorm_users", "id"}, {"gorm_orders", "id"}, {"gorm_orders", "user_id"}} {
		var dataType, collation string
		err := db.Raw(`SELECT data_type, coalesce(collation_name, '') FROM information_schema.columns
			WHERE table_name = ? AND column_name = ?`, col.table, col.column).Row().Scan(&dataType, &collation)
		if err != nil || dataType != "text" || collation != "C" {
			t.Errorf("%s.%s is %s collate %q (%v); want text collate C", col.table, col.column, dataType, collation, err)
		}
	}
	if err := db.AutoMigrate(&gormUser{}, &gormOrder{}); err != nil {
		t.Fatalf("a second AutoMigrate: %v", err)
	}

	assertGORMTimeOrder(t, db)
}

// simulatedTime gives the plugin a monotonic generator whose clock moves
// one second every 100 IDs, from base.
func simulatedTime() gormplugin.Option {
	var calls atomic.Int64
	clock := func() time.Time { return base.Add(time.Duration(calls.Add(1)/100) * time.Second) }
	return gormplugin.WithGenerator(ksuid.NewGenerator(ksuid.WithMonotonic(), ksuid.WithClock(clock)))
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
