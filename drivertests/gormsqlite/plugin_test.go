package gormsqlite

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
	"gorm.io/gorm/logger"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

type User struct {
	ID     ksuid.KSUID
	Name   string
	Email  string `gorm:"uniqueIndex"`
	Orders []Order
}

type Order struct {
	ID     ksuid.KSUID
	UserID ksuid.KSUID
	Item   string
}

type PtrKey struct {
	ID   *ksuid.KSUID
	Name string
}

type Base struct {
	ID ksuid.KSUID
}

type Embedded struct {
	Base
	Name string
}

type Tagged struct {
	ID    uint
	Ref   ksuid.KSUID `sortid:"auto"`
	Other ksuid.KSUID
}

type Session struct {
	ID   objectid.ObjectID
	Name string
}

func open(t *testing.T, opts ...gormplugin.Option) *gorm.DB {
	t.Helper()
	db, err := gorm.Open(sqlite.Open("file::memory:"), &gorm.Config{Logger: logger.Discard})
	if err != nil {
		t.Fatal(err)
	}
	sqlDB, _ := db.DB()
	sqlDB.SetMaxOpenConns(1) // one in-memory database
	t.Cleanup(func() { sqlDB.Close() })
	if err := db.Use(gormplugin.New(opts...)); err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(&User{}, &Order{}, &PtrKey{}, &Embedded{}, &Tagged{}, &Session{}); err != nil {
		t.Fatal(err)
	}
	return db
}

// stored returns the ID of the users row with the given email.
func stored(t *testing.T, db *gorm.DB, email string) ksuid.KSUID {
	t.Helper()
	var u User
	if err := db.Where("email = ?", email).First(&u).Error; err != nil {
		t.Fatalf("reading back %s: %v", email, err)
	}
	return u.ID
}

func TestCreateAssignsID(t *testing.T) {
	db := open(t)
	u := User{Name: "a", Email: "a@x"}
	if err := db.Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	if u.ID.IsZero() {
		t.Fatal("no ID assigned")
	}
	if got := stored(t, db, "a@x"); got != u.ID {
		t.Errorf("row holds %v, struct %v", got, u.ID)
	}
	if time.Since(u.ID.Time()) > time.Minute {
		t.Errorf("ID made at %v, not now", u.ID.Time())
	}
}

func TestCreateKeepsGivenID(t *testing.T) {
	db := open(t)
	given := ksuid.MustParse("0qjBBlJIfbVLKwnJn4xpLGDr00e")
	u := User{ID: given, Email: "given@x"}
	if err := db.Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	if u.ID != given || stored(t, db, "given@x") != given {
		t.Errorf("ID changed to %v", u.ID)
	}
}

func TestCreateSlices(t *testing.T) {
	db := open(t)
	values := []User{{Email: "1"}, {Email: "2"}, {Email: "3"}}
	if err := db.Create(&values).Error; err != nil {
		t.Fatal(err)
	}
	pointers := []*User{{Email: "4"}, {Email: "5"}}
	if err := db.Create(&pointers).Error; err != nil {
		t.Fatal(err)
	}
	batched := []User{{Email: "6"}, {Email: "7"}, {Email: "8"}, {Email: "9"}, {Email: "10"}}
	if err := db.CreateInBatches(&batched, 2).Error; err != nil {
		t.Fatal(err)
	}
	var all []ksuid.KSUID
	for _, u := range values {
		all = append(all, u.ID)
	}
	for _, u := range pointers {
		all = append(all, u.ID)
	}
	for _, u := range batched {
		all = append(all, u.ID)
	}
	for i, id := range all {
		if id.IsZero() {
			t.Fatalf("record %d has no ID", i)
		}
		// The default generator is monotonic: creation order is ID order.
		if i > 0 && id.Compare(all[i-1]) <= 0 {
			t.Errorf("record %d: %v not after %v", i, id, all[i-1])
		}
	}
	var count int64
	db.Model(&User{}).Count(&count)
	if count != int64(len(all)) {
		t.Errorf("%d rows, want %d", count, len(all))
	}
}

func TestSaveAndFirstOrCreate(t *testing.T) {
	db := open(t)
	u := User{Email: "save@x"}
	if err := db.Save(&u).Error; err != nil {
		t.Fatal(err)
	}
	if u.ID.IsZero() || stored(t, db, "save@x") != u.ID {
		t.Errorf("Save: struct %v, row %v", u.ID, stored(t, db, "save@x"))
	}

	var first User
	if err := db.Where(User{Email: "foc@x"}).FirstOrCreate(&first).Error; err != nil {
		t.Fatal(err)
	}
	if first.ID.IsZero() {
		t.Fatal("FirstOrCreate created a row without an ID")
	}
	var again User
	if err := db.Where(User{Email: "foc@x"}).FirstOrCreate(&again).Error; err != nil {
		t.Fatal(err)
	}
	if again.ID != first.ID {
		t.Errorf("second FirstOrCreate found %v, want %v", again.ID, first.ID)
	}
}

func TestEmbeddedPointerTaggedAndObjectID(t *testing.T) {
	db := open(t)
	e := Embedded{Name: "e"}
	p := PtrKey{Name: "p"}
	tg := Tagged{}
	s := Session{Name: "s"}
	for _, v := range []any{&e, &p, &tg, &s} {
		if err := db.Create(v).Error; err != nil {
			t.Fatalf("%T: %v", v, err)
		}
	}
	if e.ID.IsZero() {
		t.Error("embedded Base.ID not assigned")
	}
	if p.ID == nil || p.ID.IsZero() {
		t.Error("nil *ksuid.KSUID key not assigned")
	}
	if tg.Ref.IsZero() || !tg.Other.IsZero() {
		t.Errorf("tagged field %v (want set), untagged %v (want zero)", tg.Ref, tg.Other)
	}
	if s.ID.IsZero() {
		t.Error("ObjectID key not assigned")
	}
	var back Session
	if err := db.First(&back, "name = ?", "s").Error; err != nil || back.ID != s.ID {
		t.Errorf("ObjectID row %v, %v; want %v", back.ID, err, s.ID)
	}
}

func TestAssociations(t *testing.T) {
	db := open(t)
	u := User{Email: "assoc@x", Orders: []Order{{Item: "a"}, {Item: "b"}}}
	if err := db.Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	for _, o := range u.Orders {
		if o.ID.IsZero() || o.UserID != u.ID {
			t.Errorf("order %+v: want an ID and UserID %v", o, u.ID)
		}
	}
	var orders []Order
	db.Where("user_id = ?", u.ID).Find(&orders)
	if len(orders) != 2 {
		t.Errorf("%d orders stored under the parent's ID, want 2", len(orders))
	}
}

func TestNotAddressable(t *testing.T) {
	db := open(t)
	err := db.Create(User{Email: "value@x"}).Error
	if !errors.Is(err, gorm.ErrInvalidValue) {
		t.Errorf("Create of a struct value: %v, want gorm.ErrInvalidValue", err)
	}
}

func TestCreateFromMap(t *testing.T) {
	db := open(t)
	m := map[string]any{"Name": "m", "Email": "map@x"}
	if err := db.Model(&User{}).Create(m).Error; err != nil {
		t.Fatal(err)
	}
	id, ok := m["id"].(ksuid.KSUID)
	if !ok || id.IsZero() {
		t.Fatalf("map holds id %v", m["id"])
	}
	if got := stored(t, db, "map@x"); got != id {
		t.Errorf("row holds %v, map %v", got, id)
	}
	given := ksuid.New()
	if err := db.Model(&User{}).Create(map[string]any{"ID": given, "Email": "map2@x"}).Error; err != nil {
		t.Fatal(err)
	}
	if got := stored(t, db, "map2@x"); got != given {
		t.Errorf("map with an ID: row holds %v, want %v", got, given)
	}
}

func TestUpsertKeepsRowID(t *testing.T) {
	db := open(t)
	first := User{Name: "first", Email: "up@x"}
	if err := db.Create(&first).Error; err != nil {
		t.Fatal(err)
	}
	second := User{Name: "second", Email: "up@x"}
	err := db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "email"}},
		DoUpdates: clause.AssignmentColumns([]string{"name"}),
	}).Create(&second).Error
	if err != nil {
		t.Fatal(err)
	}
	if second.ID != first.ID {
		t.Errorf("after the upsert the struct holds %v; the row's ID is %v", second.ID, first.ID)
	}

	third := User{Name: "third", Email: "up@x"}
	res := db.Clauses(clause.OnConflict{DoNothing: true}).Create(&third)
	if res.Error != nil || res.RowsAffected != 0 || stored(t, db, "up@x") != first.ID {
		t.Errorf("DoNothing: %v, %d rows; the row must keep %v", res.Error, res.RowsAffected, first.ID)
	}
}

// An upsert whose update has a WHERE skips some rows, which RETURNING then
// leaves out; each struct must still hold its own row's ID (GORM handed
// the returned rows to the structs by position: b got c's ID).
func TestUpsertWhereSkipsARow(t *testing.T) {
	db := open(t)
	old := []User{{Name: "a", Email: "a@x"}, {Name: "b", Email: "b@x"}}
	if err := db.Create(&old).Error; err != nil {
		t.Fatal(err)
	}
	batch := []User{{Name: "a2", Email: "a@x"}, {Name: "b2", Email: "b@x"}, {Name: "c", Email: "c@x"}}
	err := db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "email"}},
		DoUpdates: clause.AssignmentColumns([]string{"name"}),
		Where:     clause.Where{Exprs: []clause.Expression{clause.Neq{Column: clause.Column{Table: "excluded", Name: "name"}, Value: "b2"}}},
	}).Create(&batch).Error
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range batch {
		if got := stored(t, db, u.Email); u.ID != got {
			t.Errorf("%s: the struct holds %v, the row %v", u.Email, u.ID, got)
		}
	}
	if batch[0].ID != old[0].ID || batch[1].ID != old[1].ID {
		t.Errorf("updated and skipped rows keep their IDs: got %v, %v; want %v, %v", batch[0].ID, batch[1].ID, old[0].ID, old[1].ID)
	}
	// One record whose update is skipped: no row comes back, and the
	// struct must not keep an ID no row has.
	one := User{Name: "b2", Email: "b@x"}
	err = db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "email"}},
		DoUpdates: clause.AssignmentColumns([]string{"name"}),
		Where:     clause.Where{Exprs: []clause.Expression{clause.Neq{Column: clause.Column{Table: "excluded", Name: "name"}, Value: "b2"}}},
	}).Create(&one).Error
	if err != nil || one.ID != old[1].ID {
		t.Errorf("skipped single upsert: %v (%v), want %v", one.ID, err, old[1].ID)
	}
}

func TestWithGenerator(t *testing.T) {
	at := time.Date(2020, 2, 2, 2, 2, 2, 0, time.UTC)
	g := ksuid.NewGenerator(ksuid.WithClock(func() time.Time { return at }))
	db := open(t, gormplugin.WithKSUIDGenerator(g))
	u := User{Email: "gen@x"}
	if err := db.Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	if !u.ID.Time().Equal(at) {
		t.Errorf("ID made at %v, want the generator's clock %v", u.ID.Time(), at)
	}

	failing := ksuid.NewGenerator(ksuid.WithRand(io.LimitReader(bytes.NewReader(nil), 0)))
	db = open(t, gormplugin.WithKSUIDGenerator(failing))
	err := db.Create(&User{Email: "fail@x"}).Error
	var count int64
	db.Model(&User{}).Count(&count)
	if !errors.Is(err, io.EOF) || count != 0 {
		t.Errorf("failing generator: %v, %d rows; want the error and no row", err, count)
	}
}

func TestColumnTypes(t *testing.T) {
	db := open(t)
	if err := db.AutoMigrate(&User{}, &Session{}); err != nil { // a second time changes nothing
		t.Fatal(err)
	}
	for _, tc := range []struct{ table, column, want string }{
		{"users", "id", "text"},
		{"orders", "user_id", "text"},
		{"sessions", "id", "text"},
	} {
		var typ string
		// SQLite reports declared types in upper case.
		if err := db.Raw("SELECT type FROM pragma_table_info(?) WHERE name = ?", tc.table, tc.column).Scan(&typ).Error; err != nil || !strings.EqualFold(typ, tc.want) {
			t.Errorf("%s.%s is %q, %v; want %q", tc.table, tc.column, typ, err, tc.want)
		}
	}
	for _, tc := range []struct {
		dialect string
		ksuid   bool
		want    string
	}{
		{"postgres", true, `varchar(27) COLLATE "C"`},
		{"postgres", false, `varchar(24) COLLATE "C"`},
		{"mysql", true, "char(27) CHARACTER SET ascii COLLATE ascii_bin"},
		{"mysql", false, "char(24) CHARACTER SET ascii COLLATE ascii_bin"},
		{"sqlserver", true, ""},
	} {
		got := gormplugin.ObjectIDColumnType(tc.dialect)
		if tc.ksuid {
			got = gormplugin.KSUIDColumnType(tc.dialect)
		}
		if got != tc.want {
			t.Errorf("column type for %s (KSUID: %v) = %q, want %q", tc.dialect, tc.ksuid, got, tc.want)
		}
	}
}

// statements is a GORM logger that keeps the SQL it is given.
type statements struct {
	logger.Interface
	sql []string
}

func (s *statements) LogMode(logger.LogLevel) logger.Interface { return s }

func (s *statements) Trace(_ context.Context, _ time.Time, fc func() (string, int64), _ error) {
	sql, _ := fc()
	s.sql = append(s.sql, sql)
}

// TestUpsertsDoNotReadIDsByPosition: GORM gives RETURNING's rows to the
// records by position, and a server may return them in another order
// (Citus does, shard by shard: containers_test's TestCitusGORM). So the
// plugin adds no RETURNING where every ID field is a conflict column
// (GORM's save of associations, ON CONFLICT (id)), and for an upsert of
// several records by another key it reads the IDs back by that key.
func TestUpsertsDoNotReadIDsByPosition(t *testing.T) {
	db := open(t)
	log := &statements{Interface: logger.Discard}
	db = db.Session(&gorm.Session{Logger: log})
	u := User{Email: "pos@x", Orders: []Order{{Item: "a"}, {Item: "b"}}}
	if err := db.Create(&u).Error; err != nil {
		t.Fatal(err)
	}
	old := []User{{Name: "a", Email: "a@x"}, {Name: "b", Email: "b@x"}}
	if err := db.Create(&old).Error; err != nil {
		t.Fatal(err)
	}
	log.sql = nil
	batch := []User{{Name: "a2", Email: "a@x"}, {Name: "c", Email: "c@x"}, {Name: "b2", Email: "b@x"}}
	err := db.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "email"}}, DoUpdates: clause.AssignmentColumns([]string{"name"})}).
		Create(&batch).Error
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range batch {
		if got := stored(t, db, u.Email); u.ID != got {
			t.Errorf("%s: the struct holds %v, the row %v", u.Email, u.ID, got)
		}
	}
	if batch[0].ID != old[0].ID || batch[2].ID != old[1].ID {
		t.Errorf("updated rows keep their IDs: got %v, %v; want %v, %v", batch[0].ID, batch[2].ID, old[0].ID, old[1].ID)
	}
	var upsert string
	for _, sql := range log.sql {
		if strings.HasPrefix(sql, "INSERT INTO `users`") {
			upsert = sql
		}
	}
	if upsert == "" || strings.Contains(upsert, "RETURNING") {
		t.Errorf("the upsert of 3 users: %q; want one with no RETURNING (the IDs read back by email)", upsert)
	}

	log.sql = nil
	v := User{Email: "pos2@x", Orders: []Order{{Item: "c"}, {Item: "d"}}}
	if err := db.Create(&v).Error; err != nil {
		t.Fatal(err)
	}
	for _, sql := range log.sql {
		if strings.HasPrefix(sql, "INSERT INTO `orders`") && strings.Contains(sql, "RETURNING") {
			t.Errorf("the orders saved with their user: %q; want no RETURNING (ON CONFLICT on their own ID)", sql)
		}
	}
	if v.Orders[0].UserID != v.ID || v.Orders[1].UserID != v.ID {
		t.Errorf("orders hold user %v and %v, want %v", v.Orders[0].UserID, v.Orders[1].UserID, v.ID)
	}
}
