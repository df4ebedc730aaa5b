package containers

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/go-sql-driver/mysql"
	gormmysql "gorm.io/driver/mysql"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// The create paths the SQLite unit tests of gormplugin cover, as models
// of this package.
type (
	gormPtrKey struct {
		ID   *ksuid.KSUID
		Name string
	}
	GormBase struct {
		ID ksuid.KSUID
	}
	gormEmbedded struct {
		GormBase
		Name string
	}
	gormTagged struct {
		ID    uint
		Ref   ksuid.KSUID `sortid:"auto"`
		Other ksuid.KSUID
	}
	gormSession struct {
		ID   objectid.ObjectID
		Name string
	}
)

var gormMySQLModels = []any{&gormUser{}, &gormOrder{}, &gormPtrKey{}, &gormEmbedded{}, &gormTagged{}, &gormSession{}}

// openGORMMySQL opens GORM, through gorm.io/driver/mysql, on a database of
// the MySQL server made for t alone (with the server's default character
// set and collation), with the plugin, and migrates the models.
func openGORMMySQL(t *testing.T, m *mysqlServer, opts ...gormplugin.Option) *gorm.DB {
	t.Helper()
	db, err := gorm.Open(gormmysql.New(gormmysql.Config{Conn: mysqlDatabase(t, m)}), &gorm.Config{Logger: gormLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Use(gormplugin.New(opts...)); err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(gormMySQLModels...); err != nil {
		t.Fatal(err)
	}
	return db
}

// mysqlDatabase creates a database of the MySQL server for t alone (with
// the server's default character set and collation), dropped when t
// ends, and opens it.
func mysqlDatabase(t *testing.T, m *mysqlServer) *sql.DB {
	t.Helper()
	ctx := testContext(t)
	name := "sortid_" + sanitize(t.Name())
	m.db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+name)
	if _, err := m.db.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+name) })
	cfg := m.config.Clone()
	cfg.DBName = name
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return sqlOpenDB(t, connector)
}

func sqlOpenDB(t *testing.T, c driver.Connector) *sql.DB {
	db := sql.OpenDB(c)
	t.Cleanup(func() { db.Close() })
	return db
}

func TestGORMMySQLColumnTypes(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		db := openGORMMySQL(t, m)
		if err := db.AutoMigrate(gormMySQLModels...); err != nil {
			t.Fatalf("a second AutoMigrate: %v", err)
		}
		for _, col := range []struct{ table, column, want string }{
			{"gorm_users", "id", "char(27)"},
			{"gorm_orders", "id", "char(27)"},
			{"gorm_orders", "user_id", "char(27)"},
			{"gorm_ptr_keys", "id", "char(27)"},
			{"gorm_embeddeds", "id", "char(27)"},
			{"gorm_taggeds", "ref", "char(27)"},
			{"gorm_taggeds", "other", "char(27)"},
			{"gorm_sessions", "id", "char(24)"},
		} {
			var typ, charset, collation string
			err := db.Raw(`SELECT COLUMN_TYPE, CHARACTER_SET_NAME, COLLATION_NAME FROM information_schema.COLUMNS
				WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?`, col.table, col.column).Row().Scan(&typ, &charset, &collation)
			if err != nil || typ != col.want || charset != "ascii" || collation != "ascii_bin" {
				t.Errorf("%s.%s is %s %s %s (%v); want %s ascii ascii_bin", col.table, col.column, typ, charset, collation, err, col.want)
			}
		}
	})
}

// storedUserID returns the ID of the gorm_users row with the given email.
func storedUserID(t *testing.T, db *gorm.DB, email string) ksuid.KSUID {
	t.Helper()
	var u gormUser
	if err := db.Where("email = ?", email).First(&u).Error; err != nil {
		t.Fatalf("reading back %s: %v", email, err)
	}
	return u.ID
}

func TestGORMMySQLOrderAndWindow(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		assertGORMTimeOrder(t, openGORMMySQL(t, m, simulatedTime()))
	})
}

func TestGORMMySQLCreatePaths(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		db := openGORMMySQL(t, m)

		t.Run("struct", func(t *testing.T) {
			u := gormUser{Email: "a@x"}
			if err := db.Create(&u).Error; err != nil {
				t.Fatal(err)
			}
			if u.ID.IsZero() || storedUserID(t, db, "a@x") != u.ID {
				t.Errorf("struct %v, row %v", u.ID, storedUserID(t, db, "a@x"))
			}
			given := ksuid.New()
			if err := db.Create(&gormUser{ID: given, Email: "given@x"}).Error; err != nil {
				t.Fatal(err)
			}
			if got := storedUserID(t, db, "given@x"); got != given {
				t.Errorf("a given ID: row holds %v, want %v", got, given)
			}
		})
		t.Run("slice of pointers", func(t *testing.T) {
			users := []*gormUser{{Email: "p1@x"}, {Email: "p2@x"}, {Email: "p3@x"}}
			if err := db.Create(users).Error; err != nil {
				t.Fatal(err)
			}
			for _, u := range users {
				if u.ID.IsZero() || storedUserID(t, db, u.Email) != u.ID {
					t.Errorf("%s: struct %v, row %v", u.Email, u.ID, storedUserID(t, db, u.Email))
				}
			}
		})
		t.Run("Save and FirstOrCreate", func(t *testing.T) {
			u := gormUser{Email: "save@x"}
			if err := db.Save(&u).Error; err != nil {
				t.Fatal(err)
			}
			if u.ID.IsZero() || storedUserID(t, db, "save@x") != u.ID {
				t.Errorf("Save: struct %v, row %v", u.ID, storedUserID(t, db, "save@x"))
			}
			var first, again gormUser
			if err := db.Where(gormUser{Email: "foc@x"}).FirstOrCreate(&first).Error; err != nil || first.ID.IsZero() {
				t.Fatalf("FirstOrCreate: %v, ID %v", err, first.ID)
			}
			if err := db.Where(gormUser{Email: "foc@x"}).FirstOrCreate(&again).Error; err != nil || again.ID != first.ID {
				t.Errorf("second FirstOrCreate: %v, %v; want %v", err, again.ID, first.ID)
			}
		})
		t.Run("map", func(t *testing.T) {
			m := map[string]any{"Email": "map@x"}
			if err := db.Model(&gormUser{}).Create(m).Error; err != nil {
				t.Fatal(err)
			}
			id, ok := m["id"].(ksuid.KSUID)
			if !ok || id.IsZero() || storedUserID(t, db, "map@x") != id {
				t.Errorf("map holds %v; row %v", m["id"], storedUserID(t, db, "map@x"))
			}
		})
		t.Run("associations", func(t *testing.T) {
			u := gormUser{Email: "assoc@x", Orders: []gormOrder{{Item: "a"}, {Item: "b"}}}
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
		})
		t.Run("pointer, embedded, tagged, ObjectID", func(t *testing.T) {
			p := gormPtrKey{Name: "p"}
			e := gormEmbedded{Name: "e"}
			tg := gormTagged{}
			s := gormSession{Name: "s"}
			for _, v := range []any{&p, &e, &tg, &s} {
				if err := db.Create(v).Error; err != nil {
					t.Fatalf("%T: %v", v, err)
				}
			}
			var backP gormPtrKey
			if err := db.First(&backP, "name = ?", "p").Error; err != nil || p.ID == nil || backP.ID == nil || *backP.ID != *p.ID {
				t.Errorf("pointer key: struct %v, row %v, %v", p.ID, backP.ID, err)
			}
			var backE gormEmbedded
			if err := db.First(&backE, "name = ?", "e").Error; err != nil || e.ID.IsZero() || backE.ID != e.ID {
				t.Errorf("embedded key: struct %v, row %v, %v", e.ID, backE.ID, err)
			}
			var backT gormTagged
			if err := db.First(&backT, tg.ID).Error; err != nil || tg.Ref.IsZero() || backT.Ref != tg.Ref || !backT.Other.IsZero() {
				t.Errorf("tagged: struct %v, row %v (other %v), %v", tg.Ref, backT.Ref, backT.Other, err)
			}
			var backS gormSession
			if err := db.First(&backS, "name = ?", "s").Error; err != nil || s.ID.IsZero() || backS.ID != s.ID {
				t.Errorf("ObjectID key: struct %v, row %v, %v", s.ID, backS.ID, err)
			}
		})
		t.Run("not addressable", func(t *testing.T) {
			if err := db.Create(gormUser{Email: "value@x"}).Error; !errors.Is(err, gorm.ErrInvalidValue) || !strings.HasPrefix(err.Error(), "gormplugin: ") {
				t.Errorf("Create of a struct value: %v, want gormplugin's error wrapping gorm.ErrInvalidValue", err)
			}
		})
		t.Run("concurrent", func(t *testing.T) {
			const goroutines, each = 8, 100
			var wg sync.WaitGroup
			errs := make(chan error, goroutines)
			for g := range goroutines {
				wg.Go(func() {
					for i := range each {
						if err := db.Create(&gormUser{Email: fmt.Sprintf("concurrent-%d-%d@x", g, i)}).Error; err != nil {
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
			db.Model(&gormUser{}).Where("email LIKE 'concurrent-%'").Count(&count)
			db.Model(&gormUser{}).Where("email LIKE 'concurrent-%'").Distinct("id").Count(&distinct)
			if count != goroutines*each || distinct != count {
				t.Errorf("%d rows, %d distinct IDs; want %d", count, distinct, goroutines*each)
			}
		})
	})
}

// TestGORMMySQLUpsert: MySQL has no RETURNING, so the plugin reads the IDs
// of upserted rows back by the conflict columns the upsert names, and an
// upsert that names none is an error where it would leave a record with
// an ID no row has.
func TestGORMMySQLUpsert(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		db := openGORMMySQL(t, m)
		first := gormUser{Name: "first", Email: "up@x"}
		other := gormUser{Name: "other", Email: "other@x"}
		if err := db.Create(&first).Error; err != nil {
			t.Fatal(err)
		}
		if err := db.Create(&other).Error; err != nil {
			t.Fatal(err)
		}
		byEmail := clause.OnConflict{Columns: []clause.Column{{Name: "email"}}, DoUpdates: clause.AssignmentColumns([]string{"name"})}

		second := gormUser{Name: "second", Email: "up@x"}
		if err := db.Clauses(byEmail).Create(&second).Error; err != nil {
			t.Fatal(err)
		}
		if row := storedUser(t, db, "up@x"); row.ID != first.ID || row.Name != "second" || second.ID != first.ID {
			t.Errorf("upsert by email: row %v %q, struct %v; want the row's own ID %v in both and the new name", row.ID, row.Name, second.ID, first.ID)
		}

		batch := []gormUser{{Name: "b1", Email: "up@x"}, {Name: "b2", Email: "new@x"}, {Name: "b3", Email: "other@x"}}
		if err := db.Clauses(byEmail).Create(&batch).Error; err != nil {
			t.Fatal(err)
		}
		for _, u := range batch {
			if row := storedUser(t, db, u.Email); row.ID != u.ID || row.Name != u.Name {
				t.Errorf("batch upsert: %s holds %v %q, the struct %v %q", u.Email, row.ID, row.Name, u.ID, u.Name)
			}
		}
		if batch[0].ID != first.ID || batch[2].ID != other.ID {
			t.Errorf("batch upsert: updated rows' IDs %v, %v; want %v, %v", batch[0].ID, batch[2].ID, first.ID, other.ID)
		}

		// A map is not read back (its ID is the caller's to look up), and the
		// upsert still works.
		if err := db.Model(&gormUser{}).Clauses(byEmail).Create(map[string]any{"Email": "up@x", "Name": "from a map"}).Error; err != nil {
			t.Errorf("upsert of a map: %v", err)
		}
		if row := storedUser(t, db, "up@x"); row.ID != first.ID || row.Name != "from a map" {
			t.Errorf("after the map upsert the row is %v %q", row.ID, row.Name)
		}
		if err := db.Model(&gormUser{}).Where("email = ?", "up@x").Update("name", "b1").Error; err != nil {
			t.Fatal(err)
		}

		blind := clause.OnConflict{DoUpdates: clause.AssignmentColumns([]string{"name"})}
		lone := gormUser{Name: "lone", Email: "lone@x"}
		if err := db.Clauses(blind).Create(&lone).Error; err != nil || storedUser(t, db, "lone@x").ID != lone.ID {
			t.Errorf("an upsert without columns that inserts: %v, struct %v", err, lone.ID)
		}
		third := gormUser{Name: "third", Email: "up@x"}
		err := db.Clauses(blind).Create(&third).Error
		if !errors.Is(err, gormplugin.ErrUpsertID) || !strings.HasPrefix(err.Error(), "gormplugin: ") {
			t.Errorf("an upsert without columns that updates: %v; want ErrUpsertID", err)
		}
		if row := storedUser(t, db, "up@x"); row.Name != "b1" {
			t.Errorf("after the failed upsert the row's name is %q; the transaction should have rolled back to b1", row.Name)
		}
		var before, after int64
		db.Model(&gormUser{}).Count(&before)
		err = db.Clauses(blind).Create(&[]gormUser{{Email: "m1@x"}, {Email: "m2@x"}}).Error
		db.Model(&gormUser{}).Count(&after)
		if !errors.Is(err, gormplugin.ErrUpsertID) || after != before {
			t.Errorf("a batch upsert without columns: %v, rows %d -> %d; want ErrUpsertID and no rows", err, before, after)
		}

		fourth := gormUser{Name: "fourth", Email: "up@x"}
		res := db.Clauses(clause.OnConflict{DoNothing: true}).Create(&fourth)
		if res.Error != nil || res.RowsAffected != 0 || storedUserID(t, db, "up@x") != first.ID {
			t.Errorf("DoNothing: %v, %d rows; the row must keep %v", res.Error, res.RowsAffected, first.ID)
		}
	})
}

// storedUser returns the gorm_users row with the given email.
func storedUser(t *testing.T, db *gorm.DB, email string) gormUser {
	t.Helper()
	var u gormUser
	if err := db.Where("email = ?", email).First(&u).Error; err != nil {
		t.Fatalf("reading back %s: %v", email, err)
	}
	return u
}

// gormLogger logs every statement with SORTID_GORM_LOG set, and nothing
// otherwise.
func gormLogger() logger.Interface {
	if os.Getenv("SORTID_GORM_LOG") != "" {
		return logger.Default.LogMode(logger.Info)
	}
	return logger.Discard
}

// TestGORMMySQLUpsertOtherSchema: an upsert into db.Table("inv.t") reads
// its IDs back from inv.t, not from the t of the connection's database,
// where a row with the same conflict key has another ID.
func TestGORMMySQLUpsertOtherSchema(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		ctx := testContext(t)
		db := openGORMMySQL(t, m)
		inv := "sortid_" + sanitize(t.Name()) + "_inv"
		m.db.ExecContext(ctx, "DROP DATABASE IF EXISTS "+inv)
		t.Cleanup(func() { m.db.ExecContext(context.Background(), "DROP DATABASE IF EXISTS "+inv) })
		if err := db.Exec("CREATE DATABASE " + inv).Error; err != nil {
			t.Fatal(err)
		}
		if err := db.Exec("CREATE TABLE " + inv + ".gorm_users LIKE gorm_users").Error; err != nil {
			t.Fatal(err)
		}
		here := gormUser{Name: "here", Email: "same@x"}
		there := gormUser{Name: "there", Email: "same@x"}
		if err := db.Create(&here).Error; err != nil {
			t.Fatal(err)
		}
		if err := db.Table(inv + ".gorm_users").Create(&there).Error; err != nil {
			t.Fatal(err)
		}
		byEmail := clause.OnConflict{Columns: []clause.Column{{Name: "email"}}, DoUpdates: clause.AssignmentColumns([]string{"name"})}
		up := gormUser{Name: "upserted", Email: "same@x"}
		if err := db.Table(inv + ".gorm_users").Clauses(byEmail).Create(&up).Error; err != nil {
			t.Fatal(err)
		}
		if up.ID != there.ID {
			t.Errorf("upsert into %s.gorm_users read back %v; want its row's %v (the connection's database has %v)", inv, up.ID, there.ID, here.ID)
		}
	})
}
