package containers

import (
	"os"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/containers_test/sqlcdb"
	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

// TestSQLC runs the code sqlc v1.31.1 generated (pgx/v5, the overrides in
// sqlcdb/sqlc.yaml) against the ksuid and objectid domains: keys from the
// column default, IDs from Go, = ANY, keyset pages both ways and a time
// window, on a pool with sqltype.AfterConnect; and, as the counter-case,
// the same insert on a pool without it, which the domain refuses.
func TestSQLC(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	cfg := servers.pgConfig.Copy()
	cfg.ConnConfig.Database = icuDatabase(t, ctx)
	cfg.AfterConnect = nil
	plain, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if err := sqltype.Install(ctx, plain, ""); err != nil {
		t.Fatal(err)
	}
	tables, err := os.ReadFile("sqlcdb/tables.sql")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Exec(ctx, string(tables)); err != nil {
		t.Fatal(err)
	}
	cfg.AfterConnect = sqltype.AfterConnect
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	q := sqlcdb.New(pool)

	// Keys made by the database's default.
	before := time.Now().Add(-time.Second)
	var accounts []ksuid.KSUID
	for _, name := range []string{"a", "b", "c"} {
		id, err := q.CreateAccount(ctx, name)
		if err != nil {
			t.Fatalf("CreateAccount: %v", err)
		}
		if id.Time().Before(before.Truncate(time.Second)) || id.Time().After(time.Now()) {
			t.Errorf("ksuid_generate made %v, dated %v; want now", id, id.Time())
		}
		accounts = append(accounts, id)
	}
	if got, err := q.AccountIDs(ctx); err != nil || !slices.Equal(got, accounts) {
		t.Errorf("AccountIDs = %v, %v; want the keys in the order they were made, %v", got, err, accounts)
	}

	// Keys made in Go.
	rows := toolRows(t)
	for i, r := range rows {
		err := q.CreateOrder(ctx, sqlcdb.CreateOrderParams{
			ID: r.ID, AccountID: accounts[i%len(accounts)], Session: r.Session, Parent: r.Parent, Total: int64(i),
		})
		if err != nil {
			t.Fatalf("CreateOrder: %v", err)
		}
	}
	var bad int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM orders WHERE id !~ '^[0-9A-Za-z]{27}$'
		OR account_id !~ '^[0-9A-Za-z]{27}$' OR session !~ '^[0-9a-f]{24}$'`).Scan(&bad); err != nil || bad != 0 {
		t.Errorf("%d orders with an ID not in its text form (%v)", bad, err)
	}
	ids := make([]ksuid.KSUID, len(rows))
	for i, r := range rows {
		ids[i] = r.ID
	}
	sorted := slices.SortedFunc(slices.Values(ids), ksuid.KSUID.Compare)

	// Keyset pages, oldest first, then newest first.
	var forward []ksuid.KSUID
	for after := ksuid.Nil; ; {
		page, err := q.OrdersAfter(ctx, sqlcdb.OrdersAfterParams{After: after, PageSize: 64})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, o := range page {
			forward = append(forward, o.ID)
		}
		after = page[len(page)-1].ID
	}
	assertOrder(t, forward, ids)
	var backward []ksuid.KSUID
	for before := ksuid.Max; ; {
		page, err := q.OrdersBefore(ctx, sqlcdb.OrdersBeforeParams{Before: before, PageSize: 64})
		if err != nil {
			t.Fatal(err)
		}
		if len(page) == 0 {
			break
		}
		for _, o := range page {
			backward = append(backward, o.ID)
		}
		before = page[len(page)-1].ID
	}
	slices.Reverse(backward)
	assertOrder(t, backward, ids)

	window, err := q.OrdersBetween(ctx, sqlcdb.OrdersBetweenParams{FromID: must(ksuid.MinAt(windowFrom)), ToID: must(ksuid.MaxAt(windowTo))})
	if err != nil {
		t.Fatal(err)
	}
	var inWindow []ksuid.KSUID
	for _, o := range window {
		inWindow = append(inWindow, o.ID)
	}
	assertOrder(t, inWindow, idsInWindow(ids))

	some := []ksuid.KSUID{sorted[900], sorted[3], sorted[500]}
	found, err := q.OrdersByIDs(ctx, some)
	if err != nil {
		t.Fatalf("OrdersByIDs: %v", err)
	}
	if len(found) != 3 || found[0].ID != sorted[3] || found[1].ID != sorted[500] || found[2].ID != sorted[900] {
		t.Errorf("OrdersByIDs(%v) found %d orders: %+v", some, len(found), found)
	}
	// Every other row has the row before it as its parent (toolRows).
	for _, i := range []int{41, 42} {
		one, err := q.GetOrder(ctx, rows[i].ID)
		if err != nil || one.ID != rows[i].ID || one.Parent != rows[i].Parent || one.Session != rows[i].Session {
			t.Errorf("GetOrder(%v) = %+v, %v; want parent %+v", rows[i].ID, one, err, rows[i].Parent)
		}
	}

	// The same generated code on a pool without the hook sends the text
	// form, which the domain holds.
	made := ksuid.New()
	err = sqlcdb.New(plain).CreateOrder(ctx, sqlcdb.CreateOrderParams{
		ID: made, AccountID: accounts[0], Session: rows[0].Session,
	})
	if one, err2 := q.GetOrder(ctx, made); err != nil || err2 != nil || one.ID != made {
		t.Errorf("CreateOrder without sqltype.AfterConnect: %v; read back %v (%v)", err, one.ID, err2)
	}
}
