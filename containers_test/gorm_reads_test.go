package containers

import (
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	gormpostgres "gorm.io/driver/postgres"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/sortid/sortid/ksuid"
)

// gormNote has a nullable KSUID column, and a text column Ref that holds
// another service's KSUIDs as text.
type gormNote struct {
	ID     ksuid.KSUID
	Parent ksuid.NullKSUID
	Text   string
	Ref    string
}

var errRollback = errors.New("roll back")

// TestGORMPostgresReads: every way a GORM user asks for rows by ID, with
// GORM opened as users open it (postgres.Open, no hook), in the default
// mode and with PreferSimpleProtocol, directly and through PgBouncer in
// transaction pooling (PostgreSQL 18), on a database with
// sortid's domains (the columns are then the domains), on one with the
// sortid extension (the columns are its types; PostgreSQL 15) and on one
// with neither (bytea with a length check): the right rows or an error, never others.
// Before this version, the simple protocol found nothing by ID and
// Where("id < ?", t).Delete deleted every row, and a Go string matched
// nothing.
func TestGORMPostgresReads(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	for _, install := range []string{"domains", "extension", "none"} {
		for _, mode := range []string{"simple=false", "simple=true", "simple=true/PgBouncer"} {
			simple, bouncer := mode != "simple=false", strings.HasSuffix(mode, "PgBouncer")
			if bouncer && install == "extension" {
				continue // PgBouncer fronts the PostgreSQL 18 server
			}
			t.Run(install+"/"+mode, func(t *testing.T) {
				var dsn string
				switch install {
				case "domains":
					name, _ := sortidDatabase(t, ctx)
					dsn = gormDSN(name)
					if bouncer {
						dsn = gormDSNTo(servers.bouncerConfig, name)
					}
				case "extension":
					name := "sortid_gorm_reads_extension"
					if _, err := pg15Database(t, ctx, name).Exec(ctx, "CREATE EXTENSION sortid"); err != nil {
						t.Fatal(err)
					}
					dsn = gormDSNTo(servers.pgExtConfig.ConnConfig, name)
				default:
					name := icuDatabase(t, ctx)
					dsn = gormDSN(name)
					if bouncer {
						dsn = gormDSNTo(servers.bouncerConfig, name)
					}
				}
				db := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: dsn, PreferSimpleProtocol: simple}), simulatedTime())
				wantType := map[string]string{"domains": "ksuid", "extension": "ksuid", "none": "character varying"}[install]
				domains := install != "none" // no CHECK: the type holds the length
				for migration := range 2 {   // the second keeps what the first made
					if err := db.AutoMigrate(&gormUser{}, &gormOrder{}, &gormNote{}); err != nil {
						t.Fatal(err)
					}
					for _, col := range [][2]string{{"gorm_users", "id"}, {"gorm_orders", "user_id"}, {"gorm_notes", "parent"}} {
						var typ string
						var checks int
						db.Raw(`SELECT format_type(atttypid, NULL), (SELECT count(*) FROM pg_constraint WHERE conrelid = attrelid AND contype = 'c' AND conkey = ARRAY[attnum])
							FROM pg_attribute WHERE attrelid = to_regclass(?) AND attname = ?`, col[0], col[1]).Row().Scan(&typ, &checks)
						if typ != wantType || (checks == 1) == domains {
							t.Errorf("AutoMigrate %d: %s.%s is %s with %d checks; want %s, with a check only as varchar", migration+1, col[0], col[1], typ, checks, wantType)
						}
					}
				}
				users := make([]gormUser, 300) // 3 simulated seconds of 100
				for i := range users {
					users[i].Email = fmt.Sprintf("u%d@x", i)
				}
				if err := db.CreateInBatches(&users, 100).Error; err != nil {
					t.Fatal(err)
				}
				id, pivot := users[150].ID, users[150].ID
				// simulatedTime dates calls 100 to 199 (users[99:199]) at
				// base + 1 s.
				lo, hi := must(ksuid.MinAt(base.Add(time.Second))), must(ksuid.MaxAt(base.Add(time.Second)))
				count := func(q *gorm.DB) (n int64, err error) { err = q.Model(&gormUser{}).Count(&n).Error; return n, err }
				for _, tc := range []struct {
					name string
					q    *gorm.DB
					want int64
				}{
					{"= ID", db.Where("id = ?", id), 1},
					{"= pointer", db.Where("id = ?", &id), 1},
					{"= string", db.Where("id = ?", id.String()), 1},
					{"IN IDs", db.Where("id IN ?", []ksuid.KSUID{users[3].ID, id}), 2},
					{"IN strings", db.Where("id IN ?", []string{users[3].ID.String(), id.String()}), 2},
					{"< ID", db.Where("id < ?", pivot), 150},
					{"< string", db.Where("id < ?", pivot.String()), 150},
					{"> ID", db.Where("id > ?", pivot), 149},
					{"BETWEEN MinAt AND MaxAt", db.Where("id BETWEEN ? AND ?", lo, hi), 100},
					{"BETWEEN strings", db.Where(`"gorm_users"."id" BETWEEN ? AND ?`, lo.String(), hi.String()), 100},
					{"struct condition", db.Where(&gormUser{ID: id}), 1},
				} {
					if n, err := count(tc.q); err != nil || n != tc.want {
						t.Errorf("%s: %d rows (%v), want %d", tc.name, n, err, tc.want)
					}
				}
				var u gormUser
				if err := db.First(&u, "id = ?", id.String()).Error; err != nil || u.ID != id {
					t.Errorf("First by the text form: %v (%v)", u.ID, err)
				}
				// A string that is no KSUID: no row has it in a text column
				// or the domain; the extension's type refuses it.
				err := db.First(&u, "id = ?", "3Mswuv-not-a-ksuid").Error
				if install == "extension" && (err == nil || !strings.Contains(err.Error(), "invalid input syntax for type ksuid")) ||
					install != "extension" && !errors.Is(err, gorm.ErrRecordNotFound) {
					t.Errorf("First by a bad string: %v", err)
				}
				var page []gormUser
				if err := db.Where("id > ?", pivot).Order("id").Limit(5).Find(&page).Error; err != nil || len(page) != 5 || page[0].ID != users[151].ID {
					t.Errorf("next page: %d rows (%v)", len(page), err)
				}
				if err := db.Where("id < ?", pivot).Order("id DESC").Limit(5).Find(&page).Error; err != nil || len(page) != 5 || page[0].ID != users[149].ID {
					t.Errorf("previous page: %d rows (%v)", len(page), err)
				}
				err = db.Transaction(func(tx *gorm.DB) error {
					if res := tx.Model(&gormUser{}).Where("id = ?", id).Update("name", "x"); res.Error != nil || res.RowsAffected != 1 {
						t.Errorf("Update by ID: %d rows (%v)", res.RowsAffected, res.Error)
					}
					if res := tx.Where("id < ?", pivot).Delete(&gormUser{}); res.Error != nil || res.RowsAffected != 150 {
						t.Errorf("Delete older: %d rows (%v), want 150", res.RowsAffected, res.Error)
					}
					return errRollback
				})
				if !errors.Is(err, errRollback) {
					t.Fatal(err)
				}
				// A nullable KSUID column: NULL and a value, by the Null type.
				notes := []gormNote{{Text: "root", Ref: id.String()}, {Text: "child", Parent: ksuid.NullKSUID{KSUID: id, Valid: true}}}
				if err := db.Create(&notes).Error; err != nil {
					t.Fatal(err)
				}
				var n int64
				db.Model(&gormNote{}).Where("parent = ?", ksuid.NullKSUID{KSUID: id, Valid: true}).Count(&n)
				var nulls int64
				db.Model(&gormNote{}).Where("parent IS NULL").Count(&nulls)
				if n != 1 || nulls != 1 {
					t.Errorf("by the Null type %d rows, NULL parents %d; want 1 and 1", n, nulls)
				}
				// An ID compared with a text column of the model keeps its
				// text form.
				var refs int64
				if err := db.Model(&gormNote{}).Where("ref = ?", id).Count(&refs).Error; err != nil || refs != 1 {
					t.Errorf("a text column by an ID: %d rows (%v), want 1", refs, err)
				}
			})
		}
	}
}

// TestOneTableForEveryTool is the README's recipe: an orders table of the
// ksuid domain, written by pgx and read by GORM and psql, and written by
// GORM and read by pgx and psql; GORM's AutoMigrate over a table that
// `sortid sql` and DDL made keeps it, and makes the same type itself.
func TestOneTableForEveryTool(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	name, conn := sortidDatabase(t, ctx)
	if _, err := conn.Exec(ctx, `CREATE TABLE orders (id ksuid PRIMARY KEY DEFAULT ksuid_generate(), item text NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	type Order struct {
		ID   ksuid.KSUID
		Item string
	}
	db := openGORMWith(t, gormpostgres.Open(gormDSN(name)))
	if err := db.AutoMigrate(&Order{}, &gormUser{}); err != nil {
		t.Fatal(err)
	}
	var ordersType, gormType string
	conn.QueryRow(ctx, `SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'orders'::regclass AND attname = 'id'`).Scan(&ordersType)
	conn.QueryRow(ctx, `SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = 'gorm_users'::regclass AND attname = 'id'`).Scan(&gormType)
	if ordersType != "ksuid" || gormType != "ksuid" {
		t.Errorf("the DDL's column is %s and AutoMigrate's %s; want ksuid for both", ordersType, gormType)
	}

	// pgx writes, GORM reads.
	fromPgx := ksuid.New()
	if _, err := conn.Exec(ctx, "INSERT INTO orders (id, item) VALUES ($1, 'from pgx')", fromPgx); err != nil {
		t.Fatal(err)
	}
	var o Order
	if err := db.First(&o, "id = ?", fromPgx).Error; err != nil || o.Item != "from pgx" {
		t.Errorf("GORM reading pgx's row: %+v (%v)", o, err)
	}
	// GORM writes, pgx reads.
	fromGORM := Order{Item: "from GORM"}
	if err := db.Create(&fromGORM).Error; err != nil {
		t.Fatal(err)
	}
	var item string
	if err := conn.QueryRow(ctx, "SELECT item FROM orders WHERE id = $1", fromGORM.ID).Scan(&item); err != nil || item != "from GORM" {
		t.Errorf("pgx reading GORM's row: %q (%v)", item, err)
	}
	// psql reads both, by the text form.
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Fatal("psql is missing (Debian package postgresql-client)")
	}
	c := servers.pgConfig.ConnConfig
	url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, name)
	out, err := exec.CommandContext(ctx, psql, "-XAtq", url, "-c",
		"SELECT item FROM orders WHERE id IN (ksuid_from_text('"+fromPgx.String()+"'), ksuid_from_text('"+fromGORM.ID.String()+"')) ORDER BY id").CombinedOutput()
	if err != nil || string(out) != "from pgx\nfrom GORM\n" && string(out) != "from GORM\nfrom pgx\n" {
		t.Errorf("psql: %q (%v)", out, err)
	}
}

// TestGORMPostgresUpsertWhere: an upsert whose update has a WHERE that
// skips a row (RETURNING leaves it out) still gives each struct its own
// row's ID; GORM handed the returned rows out by position (b got c's).
func TestGORMPostgresUpsertWhere(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	db := openGORM(t, icuDatabase(t, ctx))
	old := []gormUser{{Name: "a", Email: "a@x"}, {Name: "b", Email: "b@x"}}
	if err := db.Create(&old).Error; err != nil {
		t.Fatal(err)
	}
	skipB := clause.OnConflict{
		Columns:   []clause.Column{{Name: "email"}},
		DoUpdates: clause.AssignmentColumns([]string{"name"}),
		Where:     clause.Where{Exprs: []clause.Expression{clause.Neq{Column: clause.Column{Table: "excluded", Name: "name"}, Value: "b2"}}},
	}
	batch := []gormUser{{Name: "a2", Email: "a@x"}, {Name: "b2", Email: "b@x"}, {Name: "c", Email: "c@x"}}
	if err := db.Clauses(skipB).Create(&batch).Error; err != nil {
		t.Fatal(err)
	}
	for _, u := range batch {
		var stored gormUser
		if err := db.Where("email = ?", u.Email).First(&stored).Error; err != nil || stored.ID != u.ID {
			t.Errorf("%s: the struct holds %v, the row %v (%v)", u.Email, u.ID, stored.ID, err)
		}
	}
	one := gormUser{Name: "b2", Email: "b@x"}
	if err := db.Clauses(skipB).Create(&one).Error; err != nil || one.ID != old[1].ID {
		t.Errorf("skipped single upsert: %v (%v), want %v", one.ID, err, old[1].ID)
	}
}

type gormMixedCase struct {
	ID     ksuid.KSUID
	Parent ksuid.NullKSUID
}

func (gormMixedCase) TableName() string { return "MixedCase" }

type gormQualified struct {
	ID ksuid.KSUID
}

func (gormQualified) TableName() string { return "inv.items" }

// TestGORMPostgresTableNames: AutoMigrate's checks of the IDs' text
// (varchar, without the domains) go on the table it migrates: one named by db.Table, one
// qualified by its schema (not a same-named table in public), one with
// capitals (migrated twice); a NullKSUID column gets its check too.
func TestGORMPostgresTableNames(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	db := openGORM(t, icuDatabase(t, ctx))
	checks := func(table string) (n int) {
		db.Raw(`SELECT count(*) FROM pg_constraint WHERE conrelid = to_regclass(?) AND contype = 'c'
			AND pg_get_constraintdef(oid) LIKE '%[^0-9A-Za-z]%'`, table).Row().Scan(&n)
		return n
	}
	if err := db.Table("orders_2026").AutoMigrate(&gormOrder{}); err != nil {
		t.Fatal(err)
	}
	if n := checks("orders_2026"); n != 2 {
		t.Errorf("db.Table(\"orders_2026\"): %d checks, want 2 (id, user_id)", n)
	}
	if err := db.Exec("CREATE SCHEMA inv; CREATE TABLE public.items (id varchar(27) COLLATE \"C\")").Error; err != nil {
		t.Fatal(err)
	}
	if err := db.AutoMigrate(&gormQualified{}); err != nil {
		t.Fatalf("AutoMigrate of inv.items: %v", err)
	}
	if a, b := checks(`"inv"."items"`), checks("public.items"); a != 1 || b != 0 {
		t.Errorf("inv.items has %d checks and public.items %d; want 1 and 0", a, b)
	}
	for range 2 {
		if err := db.AutoMigrate(&gormMixedCase{}); err != nil {
			t.Fatalf("AutoMigrate of \"MixedCase\": %v", err)
		}
	}
	if n := checks(`"MixedCase"`); n != 2 {
		t.Errorf(`"MixedCase": %d checks, want 2 (id, parent)`, n)
	}
}
