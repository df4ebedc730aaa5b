package gormsqlite

import (
	"strings"
	"testing"
	"time"

	googleuuid "github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/uuidv7"
)

type Account struct {
	ID       uuidv7.UUID
	Email    string `gorm:"uniqueIndex"`
	Name     string
	Invoices []Invoice
}

// Invoice has google/uuid's type for its key, which the plugin fills
// with UUIDv7s too.
type Invoice struct {
	ID        googleuuid.UUID
	AccountID uuidv7.UUID
	Item      string
}

type PtrUUIDKey struct {
	ID   *googleuuid.UUID
	Name string
}

func openUUID(t *testing.T, opts ...gormplugin.Option) *gorm.DB {
	t.Helper()
	db := open(t, opts...)
	if err := db.AutoMigrate(&Account{}, &Invoice{}, &PtrUUIDKey{}); err != nil {
		t.Fatal(err)
	}
	return db
}

// isFreshV7 reports whether id is a UUIDv7 of the last minute.
func isFreshV7(id [16]byte) bool {
	u, err := uuidv7.FromBytes(id[:])
	return err == nil && time.Since(u.Time()) < time.Minute && time.Until(u.Time()) < time.Second
}

func TestUUIDCreatePaths(t *testing.T) {
	db := openUUID(t)
	one := Account{Email: "one@x", Invoices: []Invoice{{Item: "a"}, {Item: "b"}}}
	if err := db.Create(&one).Error; err != nil {
		t.Fatal(err)
	}
	many := []Account{{Email: "2"}, {Email: "3"}}
	if err := db.Create(&many).Error; err != nil {
		t.Fatal(err)
	}
	batched := []*Account{{Email: "4"}, {Email: "5"}, {Email: "6"}}
	if err := db.CreateInBatches(&batched, 2).Error; err != nil {
		t.Fatal(err)
	}
	m := map[string]any{"Email": "map@x"}
	if err := db.Model(&Account{}).Create(m).Error; err != nil {
		t.Fatal(err)
	}
	fromMap, ok := m["id"].(uuidv7.UUID)
	if !ok {
		t.Fatalf("the map holds id %#v", m["id"])
	}
	var firstOrCreate Account
	if err := db.Where(Account{Email: "foc@x"}).FirstOrCreate(&firstOrCreate).Error; err != nil {
		t.Fatal(err)
	}
	ids := []uuidv7.UUID{one.ID, many[0].ID, many[1].ID, batched[0].ID, batched[1].ID, batched[2].ID, fromMap, firstOrCreate.ID}
	for i, id := range ids {
		if !isFreshV7(id) {
			t.Fatalf("account %d got %v", i, id)
		}
		// One generator: creation order is key order.
		if i > 0 && id.Compare(ids[i-1]) <= 0 {
			t.Errorf("account %d: %v not after %v", i, id, ids[i-1])
		}
	}
	// What is stored is what the structs hold, in the text form.
	var stored []Account
	if err := db.Order("id").Find(&stored).Error; err != nil || len(stored) != len(ids) {
		t.Fatalf("%d accounts, %v", len(stored), err)
	}
	for i := range stored {
		if stored[i].ID != ids[i] {
			t.Errorf("row %d holds %v, want %v", i, stored[i].ID, ids[i])
		}
	}
	var text string
	if err := db.Raw("SELECT id FROM accounts WHERE email = ?", "one@x").Scan(&text).Error; err != nil || text != one.ID.String() {
		t.Errorf("the column holds %q, %v; want %s", text, err, one.ID)
	}
	// The association's keys, of google/uuid's type.
	for _, inv := range one.Invoices {
		if !isFreshV7(inv.ID) || inv.AccountID != one.ID {
			t.Errorf("invoice %+v", inv)
		}
	}
	var back Account
	if err := db.Preload("Invoices").First(&back, "id = ?", one.ID).Error; err != nil || len(back.Invoices) != 2 {
		t.Fatalf("reading back by ID: %+v, %v", back, err)
	}
	// A string holding the ID finds the row too.
	if err := db.First(&back, "id = ?", one.ID.String()).Error; err != nil || back.ID != one.ID {
		t.Errorf("by the text form: %v, %v", back.ID, err)
	}
	given := uuidv7.New()
	kept := Account{ID: given, Email: "given@x"}
	if err := db.Create(&kept).Error; err != nil || kept.ID != given {
		t.Errorf("a given ID became %v, %v", kept.ID, err)
	}
	ptr := PtrUUIDKey{Name: "p"}
	if err := db.Create(&ptr).Error; err != nil || ptr.ID == nil || !isFreshV7(*ptr.ID) {
		t.Errorf("pointer key %v, %v", ptr.ID, err)
	}
}

func TestUUIDUpsertKeepsRowID(t *testing.T) {
	db := openUUID(t)
	first := Account{Email: "up@x", Name: "first"}
	if err := db.Create(&first).Error; err != nil {
		t.Fatal(err)
	}
	second := Account{Email: "up@x", Name: "second"}
	err := db.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "email"}},
		DoUpdates: clause.AssignmentColumns([]string{"name"}),
	}).Create(&second).Error
	if err != nil || second.ID != first.ID {
		t.Errorf("after the upsert the struct holds %v (%v); the row's ID is %v", second.ID, err, first.ID)
	}
}

func TestUUIDColumnTypes(t *testing.T) {
	db := openUUID(t)
	for _, c := range []struct{ table, column string }{{"accounts", "id"}, {"invoices", "id"}, {"invoices", "account_id"}} {
		var typ string
		if err := db.Raw("SELECT type FROM pragma_table_info(?) WHERE name = ?", c.table, c.column).Scan(&typ).Error; err != nil || !strings.EqualFold(typ, "text") {
			t.Errorf("%s.%s is %q, %v; want text", c.table, c.column, typ, err)
		}
	}
	for dialect, want := range map[string]string{"postgres": "uuid", "mysql": "char(36) CHARACTER SET ascii COLLATE ascii_bin", "sqlite": "text", "sqlserver": ""} {
		if got := gormplugin.UUIDColumnType(dialect); got != want {
			t.Errorf("UUIDColumnType(%q) = %q, want %q", dialect, got, want)
		}
	}
}

func TestWithUUIDGenerator(t *testing.T) {
	at := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	g := uuidv7.NewGenerator(uuidv7.WithClock(func() time.Time { return at }))
	db := openUUID(t, gormplugin.WithUUIDGenerator(g))
	a := Account{Email: "g@x"}
	if err := db.Create(&a).Error; err != nil || !a.ID.Time().Equal(at) {
		t.Errorf("ID %v dated %v, %v; want %v", a.ID, a.ID.Time(), err, at)
	}
}

// dbKeyed's key is the database's: a default SQLite computes, here one
// constant UUIDv7, so that the test knows the key the server gave.
type dbKeyed struct {
	ID   uuidv7.UUID `gorm:"default:(x'01890a5dac96774bbcceb302099a8057')"`
	Name string
}

// TestDatabaseDefaultKey: the plugin leaves a key with a database default
// to SQLite, which GORM reads back with RETURNING.
func TestDatabaseDefaultKey(t *testing.T) {
	db := open(t)
	if err := db.AutoMigrate(&dbKeyed{}); err != nil {
		t.Fatal(err)
	}
	r := dbKeyed{Name: "x"}
	if err := db.Create(&r).Error; err != nil {
		t.Fatal(err)
	}
	if want := uuidv7.MustParse("01890a5d-ac96-774b-bcce-b302099a8057"); r.ID != want {
		t.Errorf("the key is %v, want the database's default %v", r.ID, want)
	}
}
