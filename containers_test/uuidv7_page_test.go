package containers

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	googleuuid "github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	gormpostgres "gorm.io/driver/postgres"

	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// uuidv7Order is docs/uuidv7.md's GORM model: the server makes the key.
type uuidv7Order struct {
	ID    uuidv7.UUID `gorm:"default:uuidv7()"`
	Total int
}

func (uuidv7Order) TableName() string { return "orders" }

// TestUUIDv7OnePage does what docs/uuidv7.md tells an orders service on
// PostgreSQL 18 behind PgBouncer to do, with nothing of sortid installed
// in the database: a table keyed by uuid DEFAULT uuidv7(); GORM with the
// plugin and PreferSimpleProtocol through PgBouncer (the server fills the
// key); pgx through PgBouncer in exec mode, where a slice of IDs needs
// sqltype.AfterConnect and a single ID does not; backfill with NewAt;
// half-open windows from uuidv7.Window; psql with the text form and
// uuid_extract_timestamp. Then the same on PostgreSQL 15 with sortid sql
// uuidv7 and DEFAULT uuidv7_generate().
func TestUUIDv7OnePage(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	name := icuDatabase(t, ctx)
	direct := servers.pgConfig.ConnConfig.Copy()
	direct.Database = name
	bouncer := servers.bouncerConfig.Copy()
	bouncer.Database = name

	admin, err := pgx.ConnectConfig(ctx, direct)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT uuidv7(), total int NOT NULL)"); err != nil {
		t.Fatal(err)
	}

	// GORM through PgBouncer: the server's uuidv7() fills the key, read
	// back into the struct.
	db := openGORMWith(t, gormpostgres.New(gormpostgres.Config{DSN: gormDSNTo(bouncer, name), PreferSimpleProtocol: true}), pastGenerators()...)
	if err := db.AutoMigrate(&uuidv7Order{}); err != nil {
		t.Fatal(err)
	}
	orders := []uuidv7Order{{Total: 1}, {Total: 2}, {Total: 3}}
	for i := range orders {
		if err := db.Create(&orders[i]).Error; err != nil {
			t.Fatal(err)
		}
		if got := madeBy(orders[i].ID.IsZero(), orders[i].ID.Time()); got != "the database" {
			t.Errorf("GORM order %d: key %v made by %s, want the database", i, orders[i].ID, got)
		}
	}
	// Backfill: orders of a past day, keyed by their own time.
	day := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	var backfill []uuidv7Order
	for h := range 24 {
		backfill = append(backfill, uuidv7Order{ID: must(uuidv7.NewAt(day.Add(time.Duration(h) * time.Hour))), Total: 100 + h})
	}
	if err := db.Create(&backfill).Error; err != nil {
		t.Fatal(err)
	}
	if backfill[5].ID.Time() != day.Add(5*time.Hour) {
		t.Errorf("a backfilled key reads %v, want %v", backfill[5].ID.Time(), day.Add(5*time.Hour))
	}

	// pgx through PgBouncer in exec mode.
	pool := func(hook func(context.Context, *pgx.Conn) error) *pgxpool.Pool {
		cfg, err := pgxpool.ParseConfig("")
		if err != nil {
			t.Fatal(err)
		}
		cfg.ConnConfig = bouncer.Copy()
		cfg.ConnConfig.DefaultQueryExecMode = pgx.QueryExecModeExec
		cfg.AfterConnect = hook
		p, err := pgxpool.NewWithConfig(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		return p
	}
	noHook, withHook := pool(nil), pool(sqltype.AfterConnect)
	ids := []uuidv7.UUID{orders[0].ID, backfill[3].ID}
	var n int
	if err := noHook.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = $1", orders[1].ID).Scan(&n); err != nil || n != 1 {
		t.Errorf("one ID without the hook: %d rows (%v), want 1", n, err)
	}
	err = noHook.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1)", ids).Scan(&n)
	if err == nil || !strings.Contains(err.Error(), "unable to encode") {
		t.Errorf("a slice of IDs without the hook in exec mode: %d rows (%v); the docs say pgx cannot encode it", n, err)
	}
	google := []googleuuid.UUID{googleuuid.UUID(orders[0].ID), googleuuid.UUID(backfill[3].ID)}
	err = noHook.QueryRow(ctx, "SELECT count(*) FROM orders WHERE id = ANY($1)", google).Scan(&n)
	if err == nil || !strings.Contains(err.Error(), "unable to encode") {
		t.Errorf("a slice of google/uuid UUIDs without the hook in exec mode: %d rows (%v); the docs say pgx cannot encode it", n, err)
	}
	for _, q := range []string{"SELECT count(*) FROM orders WHERE id = ANY($1)", "SELECT count(*) FROM orders JOIN unnest($1::uuid[]) AS u(id) USING (id)"} {
		if err := withHook.QueryRow(ctx, q, ids).Scan(&n); err != nil || n != 2 {
			t.Errorf("%s with sqltype.AfterConnect: %d rows (%v), want 2", q, n, err)
		}
	}
	// A day's window, half-open: the backfilled day, and not the next.
	lo, hi := must2(uuidv7.Window(day, day.AddDate(0, 0, 1)))
	var total int
	if err := withHook.QueryRow(ctx, "SELECT count(*), coalesce(sum(total), 0) FROM orders WHERE id >= $1 AND id < $2", lo, hi).Scan(&n, &total); err != nil || n != 24 || total != 24*100+276 {
		t.Errorf("the backfilled day: %d orders totalling %d (%v), want 24 totalling %d", n, total, err, 24*100+276)
	}

	// psql, as support staff type it.
	url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", direct.User, direct.Password, direct.Host, direct.Port, name)
	for _, c := range []struct{ sql, want string }{
		{fmt.Sprintf("SELECT total FROM orders WHERE id = '%s'", orders[2].ID), "3"},
		{fmt.Sprintf("SELECT count(*) FROM orders WHERE id IN ('%s', '%s')", orders[0].ID, orders[1].ID), "2"},
		{fmt.Sprintf("SELECT count(*) FROM orders WHERE id NOT IN ('%s')", orders[0].ID), fmt.Sprint(len(orders) + len(backfill) - 1)},
		{fmt.Sprintf("SELECT uuid_extract_timestamp('%s') AT TIME ZONE 'UTC'", backfill[5].ID), "2026-11-30 05:00:00"},
		{"SELECT count(*) FROM orders WHERE id >= '" + lo.String() + "' AND id < '" + hi.String() + "'", "24"},
	} {
		out, err := exec.CommandContext(ctx, "psql", "-XAtq", "-v", "ON_ERROR_STOP=1", url, "-c", c.sql).CombinedOutput()
		if got := strings.TrimSpace(string(out)); err != nil || got != c.want {
			t.Errorf("psql %s: %q (%v), want %q", c.sql, got, err, c.want)
		}
	}
	out, err := exec.CommandContext(ctx, "psql", "-XAtq", "-v", "ON_ERROR_STOP=1", url, "-c", "SELECT count(*) FROM orders WHERE id = '01a2-not-a-uuid'").CombinedOutput()
	if err == nil || !strings.Contains(string(out), `invalid input syntax for type uuid: "01a2-not-a-uuid"`) {
		t.Errorf("psql with a bad literal: %q (%v), want the input error", out, err)
	}

	// Before 18: sortid sql uuidv7 and DEFAULT uuidv7_generate().
	pg15 := pg15Database(t, ctx, "sortid_uuidv7_page")
	if err := sqltype.Install(ctx, pg15, "", "uuidv7"); err != nil {
		t.Fatal(err)
	}
	if _, err := pg15.Exec(ctx, "CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT uuidv7_generate(), total int NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	var id uuidv7.UUID
	if err := pg15.QueryRow(ctx, "INSERT INTO orders (total) VALUES (1) RETURNING id").Scan(&id); err != nil || time.Since(id.Time()) > time.Minute {
		t.Errorf("PostgreSQL 15, DEFAULT uuidv7_generate(): %v (%v)", id, err)
	}
}

func must2[T any](a, b T, err error) (T, T) {
	if err != nil {
		panic(err)
	}
	return a, b
}
