package gormsqlite

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/logger"
	gormmigrator "gorm.io/gorm/migrator"
	"gorm.io/gorm/schema"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// TestPointerToZeroIDIsFilled checks that a key pointing at the zero ID is
// assigned like a zero key, and that records sharing one such pointer get
// IDs of their own without the shared value being written through.
func TestPointerToZeroIDIsFilled(t *testing.T) {
	db := open(t)
	var zero ksuid.KSUID
	rows := []PtrKey{{ID: &zero, Name: "a"}, {ID: &zero, Name: "b"}}
	if err := db.Create(&rows).Error; err != nil {
		t.Fatal(err)
	}
	if !zero.IsZero() {
		t.Errorf("the caller's zero KSUID was overwritten with %v", zero)
	}
	if rows[0].ID == &zero || rows[0].ID.IsZero() || rows[1].ID.IsZero() || *rows[0].ID == *rows[1].ID {
		t.Fatalf("IDs %v, %v; want two new IDs", *rows[0].ID, *rows[1].ID)
	}
	var n int64
	db.Model(&PtrKey{}).Where("id IN ?", []ksuid.KSUID{*rows[0].ID, *rows[1].ID}).Count(&n)
	if n != 2 {
		t.Errorf("%d rows found by the new IDs, want 2", n)
	}
}

// openBare is open without the plugin: what GORM alone does.
func openBare(t *testing.T) *gorm.DB {
	t.Helper()
	db, err := gorm.Open(sqlite.Open("file::memory:"), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := db.DB()
	sqlDB.SetMaxOpenConns(1)
	t.Cleanup(func() { sqlDB.Close() })
	if err := db.AutoMigrate(&User{}); err != nil {
		t.Fatal(err)
	}
	return db
}

type nameKey string

// TestOddInputsBehaveAsGORM runs the inputs that made the plugin panic
// (and leave GORM's transaction open, so that the next query on a pool of
// one connection blocked forever) with and without the plugin: both must
// succeed or fail alike, and the connection must be free afterwards.
func TestOddInputsBehaveAsGORM(t *testing.T) {
	for _, tc := range []struct {
		name   string
		create func(db *gorm.DB) error
	}{
		{"nil element", func(db *gorm.DB) error { return db.Create([]*User{{Name: "a", Email: "a"}, nil}).Error }},
		{"nil map", func(db *gorm.DB) error { return db.Model(&User{}).Create(map[string]any(nil)).Error }},
		{"nil map in slice", func(db *gorm.DB) error {
			return db.Model(&User{}).Create([]map[string]any{{"name": "b", "email": "b"}, nil}).Error
		}},
		{"named key type", func(db *gorm.DB) error {
			return db.Model(&User{}).Create(map[nameKey]any{"name": "c", "email": "c"}).Error
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var errs [2]error
			for i, db := range []*gorm.DB{openBare(t), open(t)} {
				func() {
					defer func() {
						if r := recover(); r != nil {
							errs[i] = errors.New("panic")
							if i == 1 {
								t.Errorf("with the plugin: panic %v", r)
							}
						}
					}()
					errs[i] = tc.create(db)
				}()
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				var n int64
				if err := db.WithContext(ctx).Model(&User{}).Count(&n).Error; err != nil {
					t.Errorf("query after the create (plugin %v): %v", i == 1, err)
				}
				cancel()
			}
			if (errs[0] == nil) != (errs[1] == nil) {
				t.Errorf("GORM alone: %v; with the plugin: %v", errs[0], errs[1])
			}
		})
	}
}

func TestWithObjectIDGenerator(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	g := objectid.NewGenerator(objectid.WithClock(func() time.Time { return at }))
	db := open(t, gormplugin.WithObjectIDGenerator(g))
	s := Session{Name: "x"}
	if err := db.Create(&s).Error; err != nil {
		t.Fatal(err)
	}
	if !s.ID.Time().Equal(at) {
		t.Errorf("ObjectID dated %v, want %v: the generator was not used", s.ID.Time(), at)
	}
}

// TestMigratorBuildsIndexOptions: GORM's generic CreateTable and
// CreateIndex (the MySQL dialect uses them) type-assert db.Migrator() to
// BuildIndexOptionsInterface and panic if the plugin's wrapper hides it.
func TestMigratorBuildsIndexOptions(t *testing.T) {
	db := open(t)
	b, ok := db.Migrator().(gormmigrator.BuildIndexOptionsInterface)
	if !ok {
		t.Fatal("the plugin's migrator does not offer BuildIndexOptions")
	}
	stmt := &gorm.Statement{DB: db}
	if err := stmt.Parse(&User{}); err != nil {
		t.Fatal(err)
	}
	idx := stmt.Schema.LookIndex("idx_users_email")
	if idx == nil {
		t.Fatal("no index idx_users_email on User")
	}
	plain, err := gorm.Open(sqlite.Open("file::memory:"), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	want := plain.Migrator().(gormmigrator.BuildIndexOptionsInterface).BuildIndexOptions(idx.Fields, stmt)
	if got := b.BuildIndexOptions(idx.Fields, stmt); !reflect.DeepEqual(got, want) || len(got) != 1 {
		t.Errorf("BuildIndexOptions gave %#v; the SQLite migrator gives %#v", got, want)
	}
}

// mysqlLike is SQLite under the name "mysql", with a migrator built the way
// gorm.io/driver/mysql builds its own: embedding both GORM's migrator and
// the dialector, so that neither one's DataTypeOf is promoted.
type mysqlLike struct{ sqlite.Dialector }

type mysqlLikeMigrator struct {
	gormmigrator.Migrator
	sqlite.Dialector
}

func (mysqlLike) Name() string { return "mysql" }

func (d mysqlLike) Migrator(db *gorm.DB) gorm.Migrator {
	return mysqlLikeMigrator{
		Migrator:  gormmigrator.Migrator{Config: gormmigrator.Config{DB: db, Dialector: d}},
		Dialector: d.Dialector,
	}
}

// TestColumnTypeWhereMigratorHidesDataTypeOf: the MySQL column types must
// not depend on the migrator offering DataTypeOf.
func TestColumnTypeWhereMigratorHidesDataTypeOf(t *testing.T) {
	inner := sqlite.Open("file::memory:").(*sqlite.Dialector)
	db, err := gorm.Open(mysqlLike{*inner}, &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if sqlDB, err := db.DB(); err == nil {
			sqlDB.Close()
		}
	})
	if err := db.Use(gormplugin.New()); err != nil {
		t.Fatal(err)
	}
	if _, ok := db.Migrator().(interface{ DataTypeOf(*schema.Field) string }); ok {
		t.Fatal("the test migrator offers DataTypeOf; it should hide it as MySQL's does")
	}
	stmt := &gorm.Statement{DB: db}
	if err := stmt.Parse(&Order{}); err != nil {
		t.Fatal(err)
	}
	for _, column := range []string{"id", "user_id"} {
		got := db.Migrator().FullDataTypeOf(stmt.Schema.LookUpField(column)).SQL
		if want := "char(27) CHARACTER SET ascii COLLATE ascii_bin"; got != want {
			t.Errorf("orders.%s: %q, want %q", column, got, want)
		}
	}
}
