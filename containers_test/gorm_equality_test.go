package containers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
)

// legacyOrder is a model of a table another tool made: varchar(27) keys
// under the database's ICU default collation.
type legacyOrder struct {
	ID ksuid.KSUID
	N  int
}

func (legacyOrder) TableName() string { return "legacy_orders" }

// warnings keeps the warnings GORM's logger is given.
type warnings struct {
	logger.Interface
	mu   sync.Mutex
	seen []string
}

func (w *warnings) LogMode(logger.LogLevel) logger.Interface { return w }

func (w *warnings) Warn(_ context.Context, format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.seen = append(w.seen, fmt.Sprintf(format, args...))
}

// TestGORMEqualityOnly: WithEqualityOnly lets a model work on a table
// whose text IDs its collation misorders, for what equality answers
// right (create, lookups, IN, NOT IN, updates and deletes by ID), and
// still refuses what it would answer wrong (a comparison by order, First
// and Last with no ID, Order by ID), logging the acceptance once. Without
// the option every statement is refused, as before; another table under
// the same plugin is still refused.
func TestGORMEqualityOnly(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	pool, dsn := gormTargetDB(t, ctx, gormTarget{admin: servers.pg})
	for _, table := range []string{"legacy_orders", "other_orders"} {
		if _, err := pool.Exec(ctx, "CREATE TABLE "+table+" (id varchar(27) PRIMARY KEY, n int NOT NULL DEFAULT 0)"); err != nil {
			t.Fatal(err)
		}
	}
	refused := openGORMWith(t, gormpostgres.Open(dsn))
	if err := refused.Create(&legacyOrder{N: 1}).Error; !errors.Is(err, gormplugin.ErrMisorderingColumn) {
		t.Fatalf("create without the option: %v; want ErrMisorderingColumn", err)
	}

	w := &warnings{Interface: gormLogger()}
	db, err := gorm.Open(gormpostgres.Open(dsn), &gorm.Config{Logger: w})
	if err != nil {
		t.Fatal(err)
	}
	if sqlDB, err := db.DB(); err == nil {
		t.Cleanup(func() { sqlDB.Close() })
	}
	if err := db.Use(gormplugin.New(gormplugin.WithEqualityOnly("legacy_orders"))); err != nil {
		t.Fatal(err)
	}
	orders := make([]legacyOrder, 4)
	for i := range orders {
		orders[i].N = i + 1
	}
	if err := db.Create(&orders).Error; err != nil {
		t.Fatalf("create: %v", err)
	}
	ids := []ksuid.KSUID{orders[0].ID, orders[1].ID, orders[2].ID, orders[3].ID}
	var one legacyOrder
	if err := db.First(&one, "id = ?", ids[2]).Error; err != nil || one.N != 3 {
		t.Errorf("First by id: %+v, %v; want n 3", one, err)
	}
	var some []legacyOrder
	if err := db.Where("id IN ?", ids[:2]).Find(&some).Error; err != nil || len(some) != 2 {
		t.Errorf("IN: %d rows, %v; want 2", len(some), err)
	}
	if err := db.Model(&orders[1]).Update("n", 20).Error; err != nil {
		t.Errorf("update by model: %v", err)
	}
	res := db.Where("id NOT IN ?", ids[:3]).Delete(&legacyOrder{})
	if res.Error != nil || res.RowsAffected != 1 {
		t.Errorf("NOT IN delete: %d rows, %v; want 1", res.RowsAffected, res.Error)
	}
	var sum, count int
	if err := pool.QueryRow(ctx, "SELECT count(*), sum(n) FROM legacy_orders").Scan(&count, &sum); err != nil || count != 3 || sum != 1+20+3 {
		t.Errorf("legacy_orders: %d rows, sum %d (%v); want 3, 24", count, sum, err)
	}
	for _, q := range []struct {
		name string
		run  func() error
	}{
		{"id > ?", func() error { return db.Where("id > ?", ids[0]).Find(&[]legacyOrder{}).Error }},
		{"BETWEEN", func() error { return db.Where("id BETWEEN ? AND ?", ids[0], ids[2]).Find(&[]legacyOrder{}).Error }},
		{"First", func() error { return db.First(&legacyOrder{}).Error }},
		{"Last", func() error { return db.Last(&legacyOrder{}).Error }},
		{"First by n", func() error { return db.Where("n = ?", 1).First(&legacyOrder{}).Error }},
		{"Order(id)", func() error { return db.Order("id desc").Find(&[]legacyOrder{}).Error }},
		{"another table", func() error { return db.Table("other_orders").Where("id = ?", ids[0]).Find(&[]legacyOrder{}).Error }},
	} {
		if err := q.run(); !errors.Is(err, gormplugin.ErrMisorderingColumn) {
			t.Errorf("%s: %v; want ErrMisorderingColumn", q.name, err)
		}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	accepted := 0
	for _, s := range w.seen {
		if strings.Contains(s, "legacy_orders accepted for equality only") {
			accepted++
		}
	}
	if accepted != 1 {
		t.Errorf("the acceptance was logged %d times; want once: %q", accepted, w.seen)
	}
}
