package containers

import (
	"errors"
	"testing"
	"time"

	googleuuid "github.com/google/uuid"
	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/uuidv7"
)

// UUID keys through GORM: sortid's type and google/uuid's, filled by the
// plugin.
type (
	gormAccount struct {
		ID       uuidv7.UUID
		Email    string        `gorm:"uniqueIndex;size:64"`
		Invoices []gormInvoice `gorm:"foreignKey:AccountID"`
	}
	gormInvoice struct {
		ID        googleuuid.UUID
		AccountID uuidv7.UUID
		Item      string
	}
)

// checkGORMUUIDKeys creates accounts one simulated second apart, each
// with an invoice, and reads them back every way a user asks: by ID, by
// its text, a window of IDs, a page, and a DELETE below an ID.
func checkGORMUUIDKeys(t *testing.T, db *gorm.DB, columnType func(table, column string) string, want string) {
	t.Helper()
	if err := db.AutoMigrate(&gormAccount{}, &gormInvoice{}); err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(&gormAccount{}, &gormInvoice{}); err != nil {
		t.Fatalf("a second AutoMigrate: %v", err)
	}
	for _, c := range [][2]string{{"gorm_accounts", "id"}, {"gorm_invoices", "id"}, {"gorm_invoices", "account_id"}} {
		if got := columnType(c[0], c[1]); got != want {
			t.Errorf("%s.%s is %s, want %s", c[0], c[1], got, want)
		}
	}
	var accounts []*gormAccount
	for i := range 20 {
		a := &gormAccount{Email: string(rune('a'+i)) + "@x", Invoices: []gormInvoice{{Item: "i"}}}
		accounts = append(accounts, a)
	}
	if err := db.CreateInBatches(accounts, 7).Error; err != nil {
		t.Fatal(err)
	}
	for i, a := range accounts {
		if a.ID.IsZero() || a.Invoices[0].ID == (googleuuid.UUID{}) || a.Invoices[0].ID.Version() != 7 || a.Invoices[0].AccountID != a.ID {
			t.Fatalf("account %d: %v, invoice %+v", i, a.ID, a.Invoices[0])
		}
	}
	var ordered []gormAccount
	if err := db.Order("id").Find(&ordered).Error; err != nil || len(ordered) != len(accounts) {
		t.Fatalf("%d rows, %v", len(ordered), err)
	}
	for i := range ordered {
		if ordered[i].ID != accounts[i].ID {
			t.Fatalf("ORDER BY id: row %d is %v, created %d-th was %v", i, ordered[i].ID, i, accounts[i].ID)
		}
	}
	pivot := accounts[12]
	var got gormAccount
	if err := db.Preload("Invoices").First(&got, "id = ?", pivot.ID).Error; err != nil || got.ID != pivot.ID || len(got.Invoices) != 1 {
		t.Errorf("by ID: %v, %v", got.ID, err)
	}
	got = gormAccount{}
	if err := db.First(&got, "id = ?", pivot.ID.String()).Error; err != nil || got.ID != pivot.ID {
		t.Errorf("by the text form: %v, %v", got.ID, err)
	}
	var inv gormInvoice
	if err := db.First(&inv, "id = ?", pivot.Invoices[0].ID).Error; err != nil || inv.ID != pivot.Invoices[0].ID {
		t.Errorf("invoice by google/uuid's ID: %v, %v", inv.ID, err)
	}
	var window []gormAccount
	lo, hi := must(uuidv7.MinAt(accounts[5].ID.Time())), must(uuidv7.MaxAt(accounts[9].ID.Time()))
	if err := db.Where("id BETWEEN ? AND ?", lo, hi).Order("id").Find(&window).Error; err != nil || len(window) != 5 || window[0].ID != accounts[5].ID {
		t.Errorf("a window of 5 seconds: %d rows, %v", len(window), err)
	}
	var page []gormAccount
	if err := db.Where("id > ?", pivot.ID).Order("id").Limit(3).Find(&page).Error; err != nil || len(page) != 3 || page[0].ID != accounts[13].ID {
		t.Errorf("the next page: %d rows, %v", len(page), err)
	}
	// A string that is no UUID: PostgreSQL's uuid refuses it; in a text
	// column (MySQL's) no row holds it.
	err := db.Where("id = ?", "not-a-uuid").First(&got).Error
	if want == "uuid" && (err == nil || errors.Is(err, gorm.ErrRecordNotFound)) || want != "uuid" && !errors.Is(err, gorm.ErrRecordNotFound) {
		t.Errorf("a string that is no UUID: %v", err)
	}
	res := db.Where("account_id < ?", accounts[4].ID).Delete(&gormInvoice{})
	if res.Error != nil || res.RowsAffected != 4 {
		t.Errorf("DELETE below the 5th account: %d rows, %v; want 4", res.RowsAffected, res.Error)
	}
}

// simulatedUUIDTime makes the plugin's UUIDv7s one second apart.
func simulatedUUIDTime() gormplugin.Option {
	at := time.Now().Add(-time.Hour).Truncate(time.Second)
	return gormplugin.WithUUIDGenerator(uuidv7.NewGenerator(uuidv7.WithClock(func() time.Time {
		at = at.Add(time.Second)
		return at
	})))
}

func TestGORMUUIDKeysPostgres(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	for _, simple := range []bool{false, true} {
		name := map[bool]string{false: "extended protocol", true: "simple protocol"}[simple]
		t.Run(name, func(t *testing.T) {
			db := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: gormDSN(icuDatabase(t, ctx)), PreferSimpleProtocol: simple}), simulatedUUIDTime())
			checkGORMUUIDKeys(t, db, func(table, column string) string {
				var typ string
				db.Raw("SELECT data_type FROM information_schema.columns WHERE table_name = ? AND column_name = ?", table, column).Scan(&typ)
				return typ
			}, "uuid")
		})
	}
}

func TestGORMUUIDKeysMySQL(t *testing.T) {
	forEachMySQL(t, func(t *testing.T, m *mysqlServer) {
		db := openGORMMySQL(t, m, simulatedUUIDTime())
		checkGORMUUIDKeys(t, db, func(table, column string) string {
			var typ string
			db.Raw(`SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?`, table, column).Scan(&typ)
			return typ
		}, "char(36)")
	})
}
