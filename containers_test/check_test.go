package containers

import (
	"context"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	tcexec "github.com/testcontainers/testcontainers-go/exec"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/pgsql"
	"github.com/sortid/sortid/sqltype"
)

// TestSortidCheck runs sortid check, as a user would, on a database
// (PostgreSQL 18, ICU en-US default, the extension installed) that holds
// what another tool left: segmentio's varchar keys with foreign keys to
// them and a zero ID, a table partitioned by one, a function naming one,
// bytea columns of raw bytes and of the text's bytes, ObjectIDs as text,
// and what it must not report (sortid's type, text under "C", uuid, hashes
// of 20 bytes, names, a table of another schema it cannot read is named).
// It runs as a role with USAGE and SELECT only and changes nothing: the
// schema dump is the same before and after. sqltype.Check says the same.
func TestSortidCheck(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	ext := servers.ext18
	if ext.c == nil {
		t.Fatal("the PostgreSQL 18 server has no container to run pg_dump in")
	}
	pool := installedDatabase(t, ctx, ext, "extension")
	k := func() string { return ksuid.New().String() }
	raw := ksuid.New()
	setup := []string{
		"CREATE TABLE orders (id varchar(27) PRIMARY KEY, n int NOT NULL DEFAULT 0)",
		fmt.Sprintf("INSERT INTO orders (id) VALUES ('%s'), ('%s'), ('000000000000000000000000000')", k(), k()),
		"CREATE TABLE order_items (id varchar(27) PRIMARY KEY, order_id varchar(27) NOT NULL CONSTRAINT order_items_order_fk REFERENCES orders (id))",
		"INSERT INTO order_items SELECT id || '', id FROM orders",
		"CREATE TABLE events (id varchar(27) NOT NULL) PARTITION BY RANGE (id)",
		"CREATE TABLE events_all PARTITION OF events FOR VALUES FROM (MINVALUE) TO (MAXVALUE)",
		fmt.Sprintf("INSERT INTO events VALUES ('%s')", k()),
		`CREATE FUNCTION touch_order(o text) RETURNS void LANGUAGE plpgsql AS $$ BEGIN UPDATE orders SET n = n + 1 WHERE id = o; END $$`,
		"CREATE TABLE raw_keys (id bytea PRIMARY KEY)",
		fmt.Sprintf("INSERT INTO raw_keys VALUES ('\\x%x')", raw.Bytes()),
		"CREATE TABLE text_keys (id bytea PRIMARY KEY)",
		fmt.Sprintf("INSERT INTO text_keys VALUES (convert_to('%s', 'UTF8'))", k()),
		"CREATE TABLE sessions (sid varchar(24) PRIMARY KEY)",
		fmt.Sprintf("INSERT INTO sessions VALUES ('%s')", objectid.New()),
		`CREATE TABLE good (id text COLLATE "C" PRIMARY KEY, k ksuid, u uuid DEFAULT gen_random_uuid(), name text, digest bytea)`,
		fmt.Sprintf("INSERT INTO good VALUES ('%s', '%s', DEFAULT, 'Ada Lovelace', '\\x%x')", k(), k(), sha1.Sum([]byte("a"))),
		fmt.Sprintf("INSERT INTO good VALUES ('%s', '%s', DEFAULT, 'Grace Hopper', '\\x%x')", k(), k(), sha1.Sum([]byte("b"))),
		"CREATE VIEW good_text AS SELECT k::text AS k, id FROM good", // k::text takes the database's collation
		"CREATE TABLE gen (k ksuid PRIMARY KEY, k_text text GENERATED ALWAYS AS (k::text) STORED)",
		fmt.Sprintf("INSERT INTO gen (k) VALUES ('%s')", k()),
		"CREATE SCHEMA hidden",
		"CREATE TABLE hidden.secret (id varchar(27) PRIMARY KEY)",
		fmt.Sprintf("INSERT INTO hidden.secret VALUES ('%s')", k()),
		"DROP ROLE IF EXISTS sortid_checker",
		"CREATE ROLE sortid_checker LOGIN PASSWORD 'checker'",
		"GRANT USAGE ON SCHEMA public, hidden TO sortid_checker",
		"GRANT SELECT ON ALL TABLES IN SCHEMA public TO sortid_checker",
	}
	for _, sql := range setup {
		if _, err := pool.Exec(ctx, sql); err != nil {
			t.Fatalf("%s: %v", sql, err)
		}
	}
	t.Cleanup(func() {
		pool.Exec(context.Background(), "DROP OWNED BY sortid_checker; DROP ROLE IF EXISTS sortid_checker")
	})
	c := pool.Config().ConnConfig
	dump := func() string {
		t.Helper()
		code, r, err := ext.c.Exec(ctx, []string{"pg_dump", "--schema-only", "-U", c.User, c.Database}, tcexec.Multiplexed())
		var out strings.Builder
		if r != nil {
			b := make([]byte, 1<<16)
			for {
				n, rerr := r.Read(b)
				out.Write(b[:n])
				if rerr != nil {
					break
				}
			}
		}
		if err != nil || code != 0 || !strings.Contains(out.String(), "CREATE TABLE public.orders") {
			t.Fatalf("pg_dump: %d, %v: %.300s", code, err, out.String())
		}
		// pg_dump's \restrict line holds a key of its own each run.
		var kept []string
		for _, l := range strings.Split(out.String(), "\n") {
			if !strings.HasPrefix(l, `\restrict`) && !strings.HasPrefix(l, `\unrestrict`) {
				kept = append(kept, l)
			}
		}
		return strings.Join(kept, "\n")
	}
	before := dump()

	bin := filepath.Join(t.TempDir(), "sortid")
	if out, err := exec.CommandContext(ctx, "go", "build", "-o", bin, "github.com/sortid/sortid/cmd/sortid").CombinedOutput(); err != nil {
		t.Fatalf("building sortid: %v\n%s", err, out)
	}
	url := fmt.Sprintf("postgres://sortid_checker:checker@%s:%d/%s?sslmode=disable", c.Host, c.Port, c.Database)
	cmd := exec.CommandContext(ctx, bin, "check", "--json", url)
	out, err := cmd.Output()
	if exit, ok := err.(*exec.ExitError); !ok || exit.ExitCode() != 1 {
		t.Fatalf("sortid check: %v (%s); want exit status 1 for silent findings\n%s", err, stderrOf(err), out)
	}
	var findings []pgsql.Finding
	if err := json.Unmarshal(out, &findings); err != nil {
		t.Fatalf("sortid check --json: %v\n%s", err, out)
	}
	got := map[string]pgsql.Finding{}
	for _, f := range findings {
		got[f.Table+"."+f.Column] = f
	}
	want := []struct {
		column, holds string
		silent        bool
		fix, note     string
	}{
		{"public.orders.id", "KSUID text", true, `COLLATE "C"`, "order_items_order_fk on order_items"},
		{"public.orders.id", "KSUID text", true, "TYPE ksuid", "holds a zero ID"},
		{"public.orders.id", "KSUID text", true, "", "touch_order(text)"},
		{"public.order_items.order_id", "KSUID text", true, `COLLATE "C"`, "order_items_order_fk to orders"},
		{"public.order_items.id", "KSUID text", true, `COLLATE "C"`, `gormplugin.WithEqualityOnly("order_items")`},
		{"public.events.id", "KSUID text", true, `COLLATE "C"`, "partitioned by it (RANGE)"},
		{"public.raw_keys.id", "KSUID raw bytes", true, `USING bytea_to_ksuid("id")`, ""},
		{"public.text_keys.id", "KSUID text bytes", true, `USING ksuid_from_text(convert_from("id", 'UTF8'))`, ""},
		{"public.sessions.sid", "ObjectID text", false, "TYPE objectid", ""},
		{"hidden.secret.id", "unknown", true, "SELECT on hidden.secret", ""},
		{"public.good_text.k", "KSUID text", true, `compare and order by "k" COLLATE "C" in every query of the view`, ""},
		{"public.gen.k_text", "KSUID text", true, "compare the column it is generated from", ""},
	}
	for _, w := range want {
		f, ok := got[w.column]
		if !ok {
			t.Errorf("%s: not reported", w.column)
			continue
		}
		if f.Holds != w.holds || f.Silent != w.silent || !strings.Contains(strings.Join(f.Fixes, "\n"), w.fix) || !strings.Contains(strings.Join(f.Notes, "\n"), w.note) {
			t.Errorf("%s: %+v; want holds %q, silent %v, a fix with %q, a note with %q", w.column, f, w.holds, w.silent, w.fix, w.note)
		}
	}
	if len(got) != 10 {
		t.Errorf("%d columns reported; want the 10 above, not good's: %v", len(got), findings)
	}
	for _, view := range []string{"public.good_text.k", "public.gen.k_text"} {
		if f := got[view]; strings.Contains(strings.Join(f.Fixes, "\n"), "CREATE INDEX") != (view == "public.gen.k_text") ||
			strings.Contains(strings.Join(f.Fixes, "\n"), "ALTER TABLE") {
			t.Errorf("%s: fixes %q: an index only for the generated column, no ALTER TABLE for either", view, f.Fixes)
		}
	}
	if after := dump(); after != before {
		t.Errorf("the schema changed under sortid check:\n%s\n----\n%s", before, after)
	}

	// The text report, and the library function beneath it, agree.
	text, _ := exec.CommandContext(ctx, bin, "check", url).Output()
	if !strings.Contains(string(text), "SILENT: KSUIDs' text under the collation") || !strings.Contains(string(text), "10 findings, 9 of them silent") {
		t.Errorf("sortid check's report:\n%s", text)
	}
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	lib, columns, err := sqltype.Check(ctx, conn)
	if err != nil || len(lib) != len(findings) || columns != 17 {
		t.Errorf("sqltype.Check: %d findings of %d columns, %v; want %d of 17", len(lib), columns, err, len(findings))
	}

	// Where nothing can go silently wrong: exit status 0.
	t.Run("clean", func(t *testing.T) { checkClean(t, ctx, bin) })
}

func checkClean(t *testing.T, ctx context.Context, bin string) {
	clean := installedDatabase(t, ctx, servers.ext18, "extension")
	if _, err := clean.Exec(ctx, "CREATE TABLE ok (id ksuid PRIMARY KEY DEFAULT ksuid_generate()); INSERT INTO ok DEFAULT VALUES"); err != nil {
		t.Fatal(err)
	}
	cc := clean.Config().ConnConfig
	cleanURL := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", cc.User, cc.Password, cc.Host, cc.Port, cc.Database)
	if out, err := exec.CommandContext(ctx, bin, "check", cleanURL).Output(); err != nil || !strings.Contains(string(out), "0 findings") {
		t.Errorf("sortid check of a clean database: %v\n%s", err, out)
	}
}

func stderrOf(err error) string {
	if exit, ok := err.(*exec.ExitError); ok {
		return string(exit.Stderr)
	}
	return ""
}
