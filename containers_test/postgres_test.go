package containers

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
)

// copyRows inserts one value per row with COPY.
func copyRows[T any](t *testing.T, ctx context.Context, pool *pgxpool.Pool, table string, values []T) {
	t.Helper()
	n, err := pool.CopyFrom(ctx, pgx.Identifier{strings.Trim(table, `"`)}, []string{"id"},
		pgx.CopyFromSlice(len(values), func(i int) ([]any, error) { return []any{values[i]}, nil }))
	if err != nil || n != int64(len(values)) {
		t.Fatalf("COPY into %s: %d rows, %v", table, n, err)
	}
}

// readIDs runs query and scans each row's single column, bytea or text,
// into an ID of type T.
func readIDs[T any](t *testing.T, ctx context.Context, pool *pgxpool.Pool, query string, args ...any) []T {
	t.Helper()
	rows, err := pool.Query(ctx, query, args...)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[T])
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

func texts[T interface{ String() string }](ids []T) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.String()
	}
	return out
}

func TestPostgresKSUIDOrder(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := ksuidsOverTime(t)
	lo, _ := ksuid.MinAt(windowFrom)
	hi, _ := ksuid.MaxAt(windowTo)
	inside := idsInWindow(ids)

	// The IDs and the window bounds go in as ksuid.KSUID values, which
	// sqltype sends as text, or as the raw bytes (id[:]) for bytea, where
	// a typed ID is refused.
	for _, tc := range []struct {
		name, column string
		raw          bool
	}{
		{"text collate C", `id text COLLATE "C" PRIMARY KEY`, false},
		{"char(27) collate C", `id char(27) COLLATE "C" PRIMARY KEY`, false},
		{"bytea", `id bytea PRIMARY KEY`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := pgTable(t, ctx, servers.pg, tc.column)
			if tc.raw {
				copyRows(t, ctx, servers.pg, table, rawBytes(ids))
			} else {
				copyRows(t, ctx, servers.pg, table, ids)
			}
			got := readIDs[ksuid.KSUID](t, ctx, servers.pg, "SELECT id FROM "+table+" ORDER BY id")
			assertOrder(t, got, ids)

			var from, to any = lo, hi
			if tc.raw {
				from, to = lo[:], hi[:]
			}
			window := readIDs[ksuid.KSUID](t, ctx, servers.pg, "SELECT id FROM "+table+" WHERE id BETWEEN $1 AND $2 ORDER BY id", from, to)
			assertOrder(t, window, inside)
		})
	}
}

// rawBytes returns the raw bytes of each ID, for a bytea column.
func rawBytes[T interface{ Bytes() []byte }](ids []T) [][]byte {
	out := make([][]byte, len(ids))
	for i, id := range ids {
		out[i] = id.Bytes()
	}
	return out
}

func TestPostgresObjectIDOrder(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ids := objectIDsOverTime(t)
	lo, _ := objectid.MinAt(windowFrom)
	hi, _ := objectid.MaxAt(windowTo)
	inside := idsInWindow(ids)

	t.Run("bytea", func(t *testing.T) {
		table := pgTable(t, ctx, servers.pg, "id bytea PRIMARY KEY")
		copyRows(t, ctx, servers.pg, table, rawBytes(ids))
		assertOrder(t, readIDs[objectid.ObjectID](t, ctx, servers.pg, "SELECT id FROM "+table+" ORDER BY id"), ids)
		assertOrder(t, readIDs[objectid.ObjectID](t, ctx, servers.pg, "SELECT id FROM "+table+" WHERE id BETWEEN $1 AND $2 ORDER BY id", lo[:], hi[:]), inside)
	})
	t.Run("char(24) under the ICU default", func(t *testing.T) {
		// Lowercase hex sorts the same under any collation: this column
		// keeps the database default, which the test server makes ICU...
		var provider string
		if err := servers.pg.QueryRow(ctx, "SELECT datlocprovider::text FROM pg_database WHERE datname = current_database()").Scan(&provider); err != nil || provider != "i" {
			t.Fatalf("the test database's locale provider is %q (%v); want i (ICU)", provider, err)
		}
		table := pgTable(t, ctx, servers.pg, "id char(24) PRIMARY KEY")
		copyRows(t, ctx, servers.pg, table, ids)
		assertOrder(t, readIDs[objectid.ObjectID](t, ctx, servers.pg, "SELECT id FROM "+table+" ORDER BY id"), ids)
		assertOrder(t, readIDs[objectid.ObjectID](t, ctx, servers.pg, "SELECT id FROM "+table+" WHERE id BETWEEN $1 AND $2 ORDER BY id", lo, hi), inside)

		// ...which does not sort by bytes: the same kind of column
		// misorders KSUIDs, so the check above could fail.
		counter := pgTable(t, ctx, servers.pg, "id char(27) PRIMARY KEY")
		copyRows(t, ctx, servers.pg, counter, []string{newerCaseKSUID.String(), olderCaseKSUID.String()})
		if got := readIDs[ksuid.KSUID](t, ctx, servers.pg, "SELECT id FROM "+counter+" ORDER BY id"); got[0] != newerCaseKSUID {
			t.Errorf("KSUIDs under the database default came back %v; expected the newer first (ICU interleaves case)", got)
		}
	})
}

// An older and a newer KSUID whose texts differ first in case: "1B..."
// (B = 11) is below "1a..." (a = 36) in byte order, but a linguistic
// collation puts a before b whatever the case.
var (
	olderCaseKSUID = ksuid.MustParse("1B0000000000000000000000000")
	newerCaseKSUID = ksuid.MustParse("1a0000000000000000000000000")
)

func TestCaseKSUIDsPremise(t *testing.T) {
	if !olderCaseKSUID.Time().Before(newerCaseKSUID.Time()) {
		t.Fatalf("%v (%v) should be older than %v (%v)", olderCaseKSUID, olderCaseKSUID.Time(), newerCaseKSUID, newerCaseKSUID.Time())
	}
}

// TestPostgresICUCollationBreaksOrder shows the failure the README warns
// about: base62 text under a linguistic (ICU) collation does not keep time
// order, while the same column under "C" does.
func TestPostgresICUCollationBreaksOrder(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	pair := []string{newerCaseKSUID.String(), olderCaseKSUID.String()}

	icu := pgTable(t, ctx, servers.pg, `id text COLLATE "en-US-x-icu" PRIMARY KEY`)
	copyRows(t, ctx, servers.pg, icu, pair)
	got := readIDs[ksuid.KSUID](t, ctx, servers.pg, "SELECT id FROM "+icu+" ORDER BY id")
	if len(got) != 2 || got[0] != newerCaseKSUID {
		t.Fatalf(`under "en-US-x-icu" ORDER BY id gave %v; expected the newer %v first (time order broken)`, got, newerCaseKSUID)
	}

	// With many random IDs the ICU order is wrong too, not just for a
	// crafted pair.
	ids := ksuidsOverTime(t)
	many := pgTable(t, ctx, servers.pg, `id text COLLATE "en-US-x-icu" PRIMARY KEY`)
	copyRows(t, ctx, servers.pg, many, texts(ids))
	gotMany := readIDs[ksuid.KSUID](t, ctx, servers.pg, "SELECT id FROM "+many+" ORDER BY id")
	if ksuid.IsSorted(gotMany) {
		t.Fatalf(`%d random KSUIDs came back in byte order under "en-US-x-icu"`, len(gotMany))
	}
}

// TestPostgresICUDefaultDatabase creates a database whose default
// collation is ICU: a plain text column there breaks time order, and
// COLLATE "C" or bytea keeps it.
func TestPostgresICUDefaultDatabase(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	const dbName = "sortid_icu_default"
	if _, err := servers.pg.Exec(ctx, "DROP DATABASE IF EXISTS "+dbName); err != nil {
		t.Fatal(err)
	}
	if _, err := servers.pg.Exec(ctx, "CREATE DATABASE "+dbName+
		" TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US'"); err != nil {
		t.Fatalf("creating an ICU database: %v", err)
	}
	cfg := servers.pgConfig.Copy()
	cfg.ConnConfig.Database = dbName
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		pool.Close()
		servers.pg.Exec(context.Background(), "DROP DATABASE IF EXISTS "+dbName)
	})
	var provider string
	if err := pool.QueryRow(ctx, "SELECT datlocprovider::text FROM pg_database WHERE datname = current_database()").Scan(&provider); err != nil || provider != "i" {
		t.Fatalf("locale provider %q, %v; want i (ICU)", provider, err)
	}

	pair := []string{newerCaseKSUID.String(), olderCaseKSUID.String()}
	plain := pgTable(t, ctx, pool, "id text PRIMARY KEY")
	copyRows(t, ctx, pool, plain, pair)
	if got := readIDs[ksuid.KSUID](t, ctx, pool, "SELECT id FROM "+plain+" ORDER BY id"); got[0] != newerCaseKSUID {
		t.Errorf("plain text in an ICU database: ORDER BY id gave %v; expected time order broken", got)
	}

	ids := ksuidsOverTime(t)
	collateC := pgTable(t, ctx, pool, `id text COLLATE "C" PRIMARY KEY`)
	copyRows(t, ctx, pool, collateC, texts(ids))
	assertOrder(t, readIDs[ksuid.KSUID](t, ctx, pool, "SELECT id FROM "+collateC+" ORDER BY id"), ids)
}
