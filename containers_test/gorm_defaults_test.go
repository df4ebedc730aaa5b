package containers

import (
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	gormmysql "gorm.io/driver/mysql"
	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"

	"github.com/sortid/sortid/gormplugin"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// Models whose key the database fills: the tag gives the column a
// default the server computes.
type (
	gormDBUUIDKey struct {
		ID   uuidv7.UUID `gorm:"default:uuidv7()"`
		Name string
	}
	gormDBKSUIDKey struct {
		ID   ksuid.KSUID `gorm:"default:ksuid_generate()"`
		Name string
	}
	gormGoUUIDKey struct {
		ID   uuidv7.UUID
		Name string
	}
	// MariaDB 11.8 has no UUIDv7 function: the expression lays one out
	// (the millisecond, version 7, random bits, the RFC 9562 variant).
	gormMariaDBUUIDKey struct {
		ID   uuidv7.UUID `gorm:"default:(lower(concat(substr(lpad(hex(floor(unix_timestamp(now(3)) * 1000)), 12, '0'), 1, 8), '-', substr(lpad(hex(floor(unix_timestamp(now(3)) * 1000)), 12, '0'), 9, 4), '-7', substr(md5(rand()), 1, 3), '-8', substr(md5(rand()), 1, 3), '-', substr(md5(rand()), 1, 12))))"`
		Name string
	}
)

// pluginEpoch is the time of the plugin's IDs in these tests, so that a key made in Go
// and one made by the server (now) are told apart by their time.
var pluginEpoch = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)

// pastGenerators make the plugin's IDs at pluginEpoch.
func pastGenerators() []gormplugin.Option {
	clock := func() time.Time { return pluginEpoch }
	return []gormplugin.Option{
		gormplugin.WithUUIDGenerator(uuidv7.NewGenerator(uuidv7.WithClock(clock))),
		gormplugin.WithKSUIDGenerator(ksuid.NewGenerator(ksuid.WithClock(clock))),
	}
}

// madeBy says who made a key: "the database" (a time within a minute of
// now), "the plugin" (2020) or "nobody" (the zero ID).
func madeBy(zero bool, made time.Time) string {
	switch {
	case zero:
		return "nobody"
	case made.Equal(pluginEpoch.Truncate(time.Second)) || made.Equal(pluginEpoch):
		return "the plugin"
	case time.Since(made) < time.Minute && time.Until(made) < time.Minute:
		return "the database"
	}
	return "unknown (" + made.String() + ")"
}

// checkCreates creates one record, a batch of three and one with its key
// set, reads each back by its key, and checks who made the keys.
func checkCreates[T any](t *testing.T, db *gorm.DB, newRec func(name string, id *T) any, key func(any) (id any, zero bool, made time.Time, text string), want string) {
	t.Helper()
	one := newRec("one", nil)
	if err := db.Create(one).Error; err != nil {
		t.Fatalf("create: %v", err)
	}
	batch := []any{newRec("b1", nil), newRec("b2", nil), newRec("b3", nil)}
	for _, r := range batch {
		if err := db.Create(r).Error; err != nil {
			t.Fatalf("create: %v", err)
		}
	}
	seen := make(map[string]bool)
	for _, r := range append([]any{one}, batch...) {
		id, zero, made, text := key(r)
		if got := madeBy(zero, made); got != want {
			t.Errorf("%T key %s made by %s, want %s", r, text, got, want)
		}
		if seen[text] {
			t.Errorf("key %s twice", text)
		}
		seen[text] = true
		// The key in the struct is the stored one.
		var n int64
		if err := db.Model(r).Where("id = ?", id).Count(&n).Error; err != nil || n != 1 {
			t.Errorf("%s: %d rows by the struct's key (%v), want 1", text, n, err)
		}
	}
}

func TestGORMDatabaseDefaultsPostgres(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	name := icuDatabase(t, ctx)
	cfg := servers.pgConfig.ConnConfig.Copy()
	cfg.Database = name
	installer, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer installer.Close(ctx)
	if err := sqltype.Install(ctx, installer, "", "ksuid"); err != nil {
		t.Fatal(err)
	}
	db := openGORMWith(t, gormpostgres.Open(gormDSN(name)), pastGenerators()...)
	if err := db.AutoMigrate(&gormDBUUIDKey{}, &gormDBKSUIDKey{}, &gormGoUUIDKey{}); err != nil {
		t.Fatal(err)
	}
	var def string
	if err := db.Raw("SELECT column_default FROM information_schema.columns WHERE table_name = 'gorm_db_uuid_keys' AND column_name = 'id'").Scan(&def).Error; err != nil || def != "uuidv7()" {
		t.Errorf("the uuid key's default is %q (%v), want uuidv7()", def, err)
	}
	uuidKey := func(r any) (any, bool, time.Time, string) {
		var id uuidv7.UUID
		switch r := r.(type) {
		case *gormDBUUIDKey:
			id = r.ID
		case *gormGoUUIDKey:
			id = r.ID
		}
		return id, id.IsZero(), id.Time(), id.String()
	}
	ksuidKey := func(r any) (any, bool, time.Time, string) {
		id := r.(*gormDBKSUIDKey).ID
		return id, id.IsZero(), id.Time(), id.String()
	}
	t.Run("uuid default uuidv7()", func(t *testing.T) {
		checkCreates(t, db, func(name string, _ *uuidv7.UUID) any { return &gormDBUUIDKey{Name: name} }, uuidKey, "the database")
	})
	t.Run("ksuid default ksuid_generate()", func(t *testing.T) {
		checkCreates(t, db, func(name string, _ *ksuid.KSUID) any { return &gormDBKSUIDKey{Name: name} }, ksuidKey, "the database")
	})
	t.Run("no default", func(t *testing.T) {
		checkCreates(t, db, func(name string, _ *uuidv7.UUID) any { return &gormGoUUIDKey{Name: name} }, uuidKey, "the plugin")
	})
	t.Run("key set by the caller", func(t *testing.T) {
		mine := uuidv7.MustParse("01890a5d-ac96-774b-bcce-b302099a8057")
		r := &gormDBUUIDKey{ID: mine, Name: "mine"}
		if err := db.Create(r).Error; err != nil || r.ID != mine {
			t.Fatalf("create with a key: %v, %v", r.ID, err)
		}
		var back gormDBUUIDKey
		if err := db.First(&back, "id = ?", mine).Error; err != nil || back.Name != "mine" {
			t.Errorf("the caller's key: %+v, %v", back, err)
		}
	})
	t.Run("map", func(t *testing.T) {
		m := map[string]any{"Name": "from a map"}
		if err := db.Model(&gormDBUUIDKey{}).Create(m).Error; err != nil {
			t.Fatal(err)
		}
		var back gormDBUUIDKey
		if err := db.First(&back, "name = ?", "from a map").Error; err != nil {
			t.Fatal(err)
		}
		if got := madeBy(back.ID.IsZero(), back.ID.Time()); got != "the database" {
			t.Errorf("the map's row has key %s made by %s, want the database", back.ID, got)
		}
		// GORM returns the server's key into the map (RETURNING).
		if got := fmt.Sprint(m["id"]); got != back.ID.String() {
			t.Errorf("the map holds id %q after create, the row %s", got, back.ID)
		}
	})
	t.Run("slice", func(t *testing.T) {
		rows := []gormDBUUIDKey{{Name: "s1"}, {Name: "s2"}}
		if err := db.Create(&rows).Error; err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if got := madeBy(r.ID.IsZero(), r.ID.Time()); got != "the database" {
				t.Errorf("slice element %s made by %s", r.ID, got)
			}
		}
		if rows[0].ID == rows[1].ID {
			t.Error("one key for two rows")
		}
	})
}

func TestGORMDatabaseDefaultsMariaDB(t *testing.T) {
	needServers(t)
	uuidKey := func(r any) (any, bool, time.Time, string) {
		id := r.(*gormMariaDBUUIDKey).ID
		return id, id.IsZero(), id.Time(), id.String()
	}
	for _, tc := range []struct {
		name      string
		returning bool
		want      string
	}{
		// MariaDB 10.5 and later: GORM reads the server's key back with
		// RETURNING, so the plugin leaves the key to the server.
		{"with RETURNING", true, "the database"},
		// Without RETURNING (MySQL) GORM could not read the key back; the
		// plugin fills it, or the record would keep the zero ID.
		{"without RETURNING", false, "the plugin"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := openGORMWith(t, gormmysql.New(gormmysql.Config{Conn: mysqlDatabase(t, &servers.mariadbSrv), DisableWithReturning: !tc.returning}), pastGenerators()...)
			if err := db.AutoMigrate(&gormMariaDBUUIDKey{}); err != nil {
				t.Fatal(err)
			}
			checkCreates(t, db, func(name string, _ *uuidv7.UUID) any { return &gormMariaDBUUIDKey{Name: name} }, uuidKey, tc.want)
			var n int64
			if err := db.Model(&gormMariaDBUUIDKey{}).Count(&n).Error; err != nil || n != 4 {
				t.Errorf("%d rows (%v), want 4", n, err)
			}
		})
	}
}
