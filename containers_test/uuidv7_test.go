package containers

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	googleuuid "github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// pgVersionNum is the server_version_num of the server behind pool.
func pgVersionNum(t *testing.T, ctx context.Context, pool *pgxpool.Pool) int {
	t.Helper()
	var n int
	if err := pool.QueryRow(ctx, "SELECT current_setting('server_version_num')::int").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// checkUUIDv7SQL checks the install script's UUIDv7 functions against the
// Go package on one server: the time of each ID, the window bounds, the
// refusals, and that uuidv7_generate() interleaves with uuidv7.New by
// time to the fraction of the millisecond.
func checkUUIDv7SQL(t *testing.T, ctx context.Context, pool *pgxpool.Pool) {
	version := pgVersionNum(t, ctx, pool)
	times := []time.Time{
		time.UnixMilli(0), base, base.Add(123456789 * time.Microsecond),
		time.Date(2262, 4, 11, 23, 47, 16, 854775000, time.UTC), time.UnixMilli(uuidv7.MaxUnixMilli),
	}
	for _, at := range times {
		id := must(uuidv7.NewAt(at))
		var got, extracted time.Time
		// uuid_extract_timestamp is PostgreSQL's own, from 17 on.
		q := "SELECT uuidv7_time($1), uuidv7_time($1)"
		if version >= 170000 {
			q = "SELECT uuidv7_time($1), uuid_extract_timestamp($1)"
		}
		if err := pool.QueryRow(ctx, q, id).Scan(&got, &extracted); err != nil {
			t.Fatalf("%v: %v", id, err)
		}
		if !got.Equal(id.Time()) || !extracted.Equal(id.Time()) || id.Time().UnixMilli() != at.UnixMilli() {
			t.Errorf("%v made at %v: uuidv7_time %v, uuid_extract_timestamp %v, Go %v", id, at, got, extracted, id.Time())
		}
		var lo, hi uuidv7.UUID
		if err := pool.QueryRow(ctx, "SELECT uuidv7_min_at($1), uuidv7_max_at($1)", at).Scan(&lo, &hi); err != nil {
			t.Fatal(err)
		}
		if lo != must(uuidv7.MinAt(at)) || hi != must(uuidv7.MaxAt(at)) || lo.Compare(id) > 0 || hi.Compare(id) < 0 {
			t.Errorf("uuidv7_min_at/max_at(%v) = %v, %v; Go %v, %v; ID %v", at, lo, hi, must(uuidv7.MinAt(at)), must(uuidv7.MaxAt(at)), id)
		}
	}
	for _, tc := range []struct {
		query string
		arg   any
		code  string
		msg   string
	}{
		{"SELECT uuidv7_time($1::uuid)", "017f22e2-79b0-4cc3-98c4-dc0c0c07398f", "22023", "uuidv7_time: 017f22e2-79b0-4cc3-98c4-dc0c0c07398f is not a version 7 UUID"},
		{"SELECT uuidv7_time($1::uuid)", "017f22e2-79b0-7cc3-c8c4-dc0c0c07398f", "22023", "not a version 7 UUID with the RFC 9562 variant"},
		{"SELECT uuidv7_min_at($1)", time.Date(1969, 12, 31, 23, 59, 59, 999000000, time.UTC), "22008", "uuidv7_min_at: the time 1969-12-31 23:59:59.999+00 is outside the UUIDv7 range"},
		{"SELECT uuidv7_max_at($1)", time.UnixMilli(uuidv7.MaxUnixMilli + 1), "22008", "uuidv7_max_at: the time"},
	} {
		var out any
		err := pool.QueryRow(ctx, tc.query, tc.arg).Scan(&out)
		if err == nil {
			t.Errorf("%s with %v gave %v; want an error", tc.query, tc.arg, out)
			continue
		}
		if e := pgError(t, err); e.Code != tc.code || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("%s with %v: %s %q; want %s and %q", tc.query, tc.arg, e.Code, e.Message, tc.code, tc.msg)
		}
	}

	// In turn from Go and from SQL: every ID above the one before, made
	// within the wall clock around it. Before PostgreSQL 18
	// uuidv7_generate is sortid's SQL, from 18 on the built-in uuidv7();
	// both keep the fraction of the millisecond where New does.
	var made []uuidv7.UUID
	distinct := map[uuidv7.UUID]bool{}
	for i := range 1000 {
		before := time.Now().Truncate(time.Millisecond)
		var id uuidv7.UUID
		if i%2 == 0 {
			id = uuidv7.New()
		} else if err := pool.QueryRow(ctx, "SELECT uuidv7_generate()").Scan(&id); err != nil {
			t.Fatal(err)
		}
		if after := time.Now(); id.Time().Before(before) || id.Time().After(after) {
			t.Fatalf("ID #%d %v (%s) dated %v, made between %v and %v", i, id, origin(i), id.Time(), before, after)
		}
		if i > 0 && id.Compare(made[i-1]) <= 0 {
			t.Fatalf("ID #%d %v (%s) is not above #%d %v (%s)", i, id, origin(i), i-1, made[i-1], origin(i-1))
		}
		made, distinct[id] = append(made, id), true
	}
	if len(distinct) != len(made) {
		t.Errorf("%d IDs, %d distinct", len(made), len(distinct))
	}

	// A uuid column with the default, written from Go and by the default:
	// ORDER BY id is the order of the inserts.
	table := pgTable(t, ctx, pool, "id uuid PRIMARY KEY DEFAULT uuidv7_generate(), n int NOT NULL")
	for n := range 200 {
		var err error
		if n%2 == 0 {
			_, err = pool.Exec(ctx, "INSERT INTO "+table+" (id, n) VALUES ($1, $2)", uuidv7.New(), n)
		} else {
			_, err = pool.Exec(ctx, "INSERT INTO "+table+" (n) VALUES ($1)", n)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	rows, err := pool.Query(ctx, "SELECT n FROM "+table+" ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		order = append(order, n)
	}
	for i, n := range order {
		if n != i {
			t.Fatalf("ORDER BY id gives the inserts in the order %v", order)
		}
	}
	if len(order) != 200 {
		t.Fatalf("%d rows, want 200", len(order))
	}
}

func TestUUIDv7SQL(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	if v := pgVersionNum(t, ctx, servers.pg); v < 180000 {
		t.Fatalf("the main server is PostgreSQL %d; this test is the PostgreSQL 18 one", v)
	}
	checkUUIDv7SQL(t, ctx, servers.pg)
}

// TestUUIDv7SQLOnPostgres15: the same on Debian's PostgreSQL 15, where
// uuidv7_generate is sortid's SQL and uuid_extract_timestamp is missing.
func TestUUIDv7SQLOnPostgres15(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	if v := pgVersionNum(t, ctx, servers.pg15); v < 150000 || v >= 160000 {
		t.Fatalf("the second server is PostgreSQL %d; this test is the PostgreSQL 15 one", v)
	}
	for range 2 { // idempotent there too
		if err := sqltype.Install(ctx, servers.pg15, ""); err != nil {
			t.Fatal(err)
		}
	}
	checkUUIDv7SQL(t, ctx, servers.pg15)
}

// stdUUIDs runs internal/stduuid under Go 1.27 and returns a function
// that asks it for one uuid.NewV7() of the standard library.
func stdUUIDs(t *testing.T) func() uuidv7.UUID {
	t.Helper()
	bin := t.TempDir() + "/stduuid"
	build := exec.Command("go", "build", "-o", bin, "./internal/stduuid")
	build.Env = append(os.Environ(), "GOTOOLCHAIN=go1.27.3")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the Go 1.27 helper (make test fetches go1.27.3): %v\n%s", err, out)
	}
	cmd := exec.Command(bin)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	lines := bufio.NewScanner(stdout)
	var mu sync.Mutex
	return func() uuidv7.UUID {
		mu.Lock()
		defer mu.Unlock()
		if _, err := stdin.Write([]byte("\n")); err != nil || !lines.Scan() {
			t.Fatalf("the Go 1.27 helper: %v %v", err, lines.Err())
		}
		id, err := uuidv7.Parse(lines.Text())
		if err != nil {
			t.Fatalf("Go 1.27's uuid.NewV7 gave %q: %v", lines.Text(), err)
		}
		return id
	}
}

// TestUUIDv7Interleave makes IDs in turn with sortid's New, Go 1.27's
// uuid.NewV7, google/uuid's NewV7, PostgreSQL 18's uuidv7() and sortid's
// uuidv7_generate(), each in a later millisecond than the one before:
// every ID must sort after the ones made before it, and every tool must
// read every ID's time as the same millisecond, within the wall clock
// around its making.
func TestUUIDv7Interleave(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	std := stdUUIDs(t)
	fromSQL := func(q string) func() uuidv7.UUID {
		return func() uuidv7.UUID {
			var id uuidv7.UUID
			if err := servers.pg.QueryRow(ctx, q).Scan(&id); err != nil {
				t.Fatal(err)
			}
			return id
		}
	}
	tools := []struct {
		name string
		make func() uuidv7.UUID
	}{
		{"sortid uuidv7.New", uuidv7.New},
		{"Go 1.27 uuid.NewV7", std},
		{"google/uuid NewV7", func() uuidv7.UUID { return uuidv7.UUID(must(googleuuid.NewV7())) }},
		{"PostgreSQL 18 uuidv7()", fromSQL("SELECT uuidv7()")},
		{"sortid uuidv7_generate()", fromSQL("SELECT uuidv7_generate()")},
	}
	type made struct {
		id            uuidv7.UUID
		tool          string
		before, after time.Time
	}
	var all []made
	for round := range 40 {
		for _, tool := range tools {
			// A new millisecond for every ID: the tools count within a
			// millisecond in different ways, which only sortid's
			// generator and PostgreSQL's order across processes.
			time.Sleep(2 * time.Millisecond)
			before := time.Now()
			id := tool.make()
			m := made{id, tool.name, before, time.Now()}
			if n := len(all); n > 0 && id.Compare(all[n-1].id) <= 0 {
				t.Fatalf("round %d: %s's %v sorts before %s's %v, made earlier", round, tool.name, id, all[n-1].tool, all[n-1].id)
			}
			all = append(all, m)
		}
	}
	ids := make([]uuidv7.UUID, len(all))
	for i, m := range all {
		ids[i] = m.id
	}
	rows, err := servers.pg.Query(ctx, "SELECT uuidv7_time(x), uuid_extract_timestamp(x) FROM unnest($1::uuid[]) WITH ORDINALITY AS u(x, n) ORDER BY n", ids)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for rows.Next() {
		var sortidSQL, postgres time.Time
		if err := rows.Scan(&sortidSQL, &postgres); err != nil {
			t.Fatal(err)
		}
		m := all[i]
		google := time.Unix(googleuuid.UUID(m.id).Time().UnixTime())
		goTime := m.id.Time()
		if !sortidSQL.Equal(goTime) || !postgres.Equal(goTime) || !google.Equal(goTime) {
			t.Errorf("%s's %v: uuidv7.Time %v, uuidv7_time %v, uuid_extract_timestamp %v, google/uuid Time %v",
				m.tool, m.id, goTime, sortidSQL, postgres, google)
		}
		if goTime.Before(m.before.Truncate(time.Millisecond)) || goTime.After(m.after) {
			t.Errorf("%s's %v is dated %v, made between %v and %v", m.tool, m.id, goTime, m.before, m.after)
		}
		i++
	}
	if err := rows.Err(); err != nil || i != len(all) {
		t.Fatalf("%d rows of %d: %v", i, len(all), err)
	}
}
