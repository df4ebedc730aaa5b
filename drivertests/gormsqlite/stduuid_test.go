//go:build go1.27

package gormsqlite

import (
	"testing"
	"uuid"
)

// Go 1.27's uuid.UUID as a primary key: filled with a UUIDv7, stored as
// the text form database/sql makes of it, and read back.
type StdKey struct {
	ID   uuid.UUID
	Name string
}

func TestStandardLibraryUUIDKey(t *testing.T) {
	db := open(t)
	if err := db.AutoMigrate(&StdKey{}); err != nil {
		t.Fatal(err)
	}
	rows := []StdKey{{Name: "a"}, {Name: "b"}}
	if err := db.Create(&rows).Error; err != nil {
		t.Fatal(err)
	}
	for i, r := range rows {
		if !isFreshV7(r.ID) {
			t.Fatalf("row %d got %v", i, r.ID)
		}
	}
	if rows[1].ID.Compare(rows[0].ID) <= 0 {
		t.Errorf("%v not after %v", rows[1].ID, rows[0].ID)
	}
	var back StdKey
	if err := db.First(&back, "id = ?", rows[1].ID).Error; err != nil || back != rows[1] {
		t.Errorf("read back %+v, %v; want %+v", back, err, rows[1])
	}
}
