package containers

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/sortid/sortid/pgsql"
	"github.com/sortid/sortid/sqltype"
)

// TestToExtensionObjects: `sortid sql to-extension` on a table keyed by
// the ksuid domain (with a default of ksuid_generate() and 200 rows) and
// one more kind of object each, on PostgreSQL 18 with a writer inserting
// beside it (and one on 15). Each object is carried over (its check holds afterwards, and
// the column is the extension's type), or the run is refused before it
// changes anything, with an error naming the object (and the domain, the
// rows and the writer's rows are all still there).
func TestToExtensionObjects(t *testing.T) {
	needServers(t)
	const base = `CREATE TABLE t (id ksuid PRIMARY KEY DEFAULT ksuid_generate(), n int NOT NULL DEFAULT 0, note text);
		INSERT INTO t (n) SELECT g FROM generate_series(1, 200) g;`
	for _, tc := range []struct {
		name    string
		setup   string // after base
		refused string // a part of the error, or "" where it converts
		check   string // a query that is true after a conversion that kept the object
		schema  string // where `sortid sql` installs, "" for the search path's first
		parts   []string
		server  *extServer // PostgreSQL 18's when nil
	}{
		{name: "default text unchanged", check: `SELECT pg_get_expr(adbin, adrelid) = 'ksuid_generate()' FROM pg_attrdef WHERE adrelid = 't'::regclass AND adnum = 1`},
		{name: "default on a text column", setup: "ALTER TABLE t ADD COLUMN ref text DEFAULT ksuid_generate()",
			check: `WITH i AS (INSERT INTO t (n) VALUES (-1) RETURNING ref) SELECT ref ~ '^[0-9A-Za-z]{27}$' FROM i`},
		{name: "publication membership", setup: "CREATE PUBLICATION pub FOR TABLE t",
			check: "SELECT EXISTS (SELECT FROM pg_publication_tables WHERE pubname = 'pub' AND tablename = 't')"},
		{name: "publication column list", setup: "CREATE PUBLICATION pub FOR TABLE t (id, n)", refused: "publication of table public.t"},
		{name: "column privileges", setup: "GRANT SELECT (id, n) ON t TO PUBLIC",
			check: "SELECT has_column_privilege('public', 't', 'id', 'SELECT')"},
		{name: "row security", setup: "ALTER TABLE t ENABLE ROW LEVEL SECURITY; ALTER TABLE t FORCE ROW LEVEL SECURITY; CREATE POLICY p ON t USING (n >= 0)",
			check: "SELECT relrowsecurity AND relforcerowsecurity AND EXISTS (SELECT FROM pg_policy WHERE polname = 'p') FROM pg_class WHERE oid = 't'::regclass"},
		{name: "policy on the ID", setup: "ALTER TABLE t ENABLE ROW LEVEL SECURITY; CREATE POLICY p ON t USING (id > '0')", refused: "policy p on table public.t"},
		{name: "extended statistics", setup: "CREATE STATISTICS s ON id, n FROM t",
			check: "SELECT EXISTS (SELECT FROM pg_statistic_ext WHERE stxname = 's')"},
		{name: "rule", setup: "CREATE RULE keep_id AS ON UPDATE TO t WHERE new.id <> old.id DO INSTEAD NOTHING", refused: "rule keep_id on table public.t"},
		{name: "identity column", setup: "ALTER TABLE t ADD COLUMN seq bigint GENERATED ALWAYS AS IDENTITY",
			check: "SELECT attidentity = 'a' AND pg_get_serial_sequence('t', 'seq') IS NOT NULL FROM pg_attribute WHERE attrelid = 't'::regclass AND attname = 'seq'"},
		{name: "generated column", setup: "ALTER TABLE t ADD COLUMN born timestamptz GENERATED ALWAYS AS (ksuid_time(id)) STORED", refused: "column born of table public.t"},
		{name: "expression index", setup: "CREATE INDEX t_born ON t (ksuid_time(id))", refused: "index public.t_born"},
		{name: "partial index", setup: "CREATE INDEX t_recent ON t (n) WHERE id > '3'", refused: "index public.t_recent"},
		{name: "index on another column", setup: "CREATE INDEX t_n ON t (n, id)", check: "SELECT to_regclass('t_n') IS NOT NULL"},
		{name: "CHECK with a function", setup: "ALTER TABLE t ADD CONSTRAINT born_after CHECK (ksuid_time(id) > '2014-06-01')", refused: "born_after"},
		{name: "trigger on the ID", setup: `CREATE FUNCTION t_touch() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
			CREATE TRIGGER t_touch BEFORE UPDATE OF id ON t FOR EACH ROW EXECUTE FUNCTION t_touch()`, refused: "trigger t_touch on table public.t"},
		{name: "trigger on the table", setup: `CREATE FUNCTION t_mark() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.note := 'marked'; RETURN NEW; END $$;
			CREATE TRIGGER t_mark BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION t_mark()`,
			check: "WITH i AS (INSERT INTO t (n) VALUES (-1) RETURNING note) SELECT note = 'marked' FROM i"},
		{name: "comments", setup: "COMMENT ON TABLE t IS 'orders'; COMMENT ON COLUMN t.id IS 'the key'",
			check: "SELECT obj_description('t'::regclass, 'pg_class') = 'orders' AND col_description('t'::regclass, 1) = 'the key'"},
		{name: "a function of yours named ksuid_", setup: `CREATE FUNCTION ksuid_shard(n int) RETURNS int LANGUAGE sql RETURN n % 16;
			CREATE FUNCTION ksuid_from_text(s text, strict boolean) RETURNS text LANGUAGE sql RETURN s`,
			check: "SELECT ksuid_shard(17) = 1 AND ksuid_from_text('x', true) = 'x'"},
		{name: "a function of yours over the domain", setup: "CREATE FUNCTION shard_of(id ksuid) RETURNS int LANGUAGE sql RETURN length(id)", refused: "function public.shard_of(public.ksuid)"},
		{name: "view", setup: "CREATE VIEW recent AS SELECT id FROM t WHERE n > 100", refused: "view public.recent"},
		{name: "partitioned by another column", setup: `CREATE TABLE pt (k int, id ksuid DEFAULT ksuid_generate(), ids ksuid[], PRIMARY KEY (k, id)) PARTITION BY RANGE (k);
			CREATE TABLE pt1 PARTITION OF pt FOR VALUES FROM (0) TO (100);
			INSERT INTO pt (k, ids) SELECT g, ARRAY[ksuid_generate()] FROM generate_series(0, 99) g`,
			check: `SELECT count(*) = 100 AND bool_and(pg_typeof(id)::text = 'ksuid' AND pg_typeof(ids)::text = 'ksuid[]')
				AND (SELECT typtype FROM pg_type WHERE oid = 'ksuid'::regtype) = 'b' FROM pt1`},
		{name: "partitioned by the ID, with a comment", setup: `CREATE TABLE ev (id ksuid PRIMARY KEY) PARTITION BY RANGE (id);
			CREATE TABLE ev_all PARTITION OF ev DEFAULT; COMMENT ON TABLE ev IS 'events'`, refused: "ev (a comment)"},
		// Functions whose bodies PostgreSQL does not read: a trigger that
		// shards by id::bytea (the text's 27 bytes on the domains, the raw
		// 20 on the types: 174 of 300 rows changed shard), a lookup by a
		// text variable, a LIKE (both "operator does not exist" at run
		// time after a conversion).
		{name: "trigger function casting the ID", setup: `ALTER TABLE t ADD COLUMN shard int;
			CREATE FUNCTION t_shard() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.shard := get_byte(sha256(NEW.id::bytea), 0) % 8; RETURN NEW; END $$;
			CREATE TRIGGER t_shard BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION t_shard()`, refused: "function public.t_shard() (its body names the ID column id of public.t"},
		{name: "function comparing with a text variable", setup: `CREATE FUNCTION n_of(p text) RETURNS int LANGUAGE plpgsql AS $$
			DECLARE r int; BEGIN SELECT n INTO r FROM public.t WHERE id = p; RETURN r; END $$`, refused: "function public.n_of(text) (its body names the table t"},
		{name: "SQL function with LIKE", setup: `CREATE FUNCTION like_count(p text) RETURNS bigint LANGUAGE sql AS 'SELECT count(*) FROM t WHERE id LIKE p'`,
			refused: "function public.like_count(text)"},
		{name: "function naming the domain", setup: `CREATE FUNCTION parse_it(p text) RETURNS text LANGUAGE plpgsql AS $$ BEGIN RETURN p::ksuid; END $$`,
			refused: "function public.parse_it(text) (its body names the domain ksuid"},
		{name: "function of another table", setup: `CREATE TABLE other (k int); CREATE FUNCTION other_count() RETURNS bigint LANGUAGE plpgsql AS $$ BEGIN RETURN (SELECT count(*) FROM other); END $$`,
			check: "SELECT other_count() = 0"},
		{name: "INHERITS child", setup: "CREATE TABLE t_old () INHERITS (t)", refused: "table public.t_old (it inherits"},
		{name: "partitioned by hash of the ID", setup: `CREATE TABLE hp (id ksuid PRIMARY KEY) PARTITION BY HASH (id);
			CREATE TABLE hp0 PARTITION OF hp FOR VALUES WITH (MODULUS 2, REMAINDER 0); CREATE TABLE hp1 PARTITION OF hp FOR VALUES WITH (MODULUS 2, REMAINDER 1);
			INSERT INTO hp SELECT ksuid_generate() FROM generate_series(1, 20)`, refused: "table public.hp (partitioned BY HASH"},
		// A table partitioned by the ID is made anew: what that would lose
		// is refused.
		{name: "partitioned by the ID, a constraint's comment", setup: `CREATE TABLE ev (id ksuid, CONSTRAINT ev_pk PRIMARY KEY (id)) PARTITION BY RANGE (id);
			CREATE TABLE ev_all PARTITION OF ev DEFAULT; COMMENT ON CONSTRAINT ev_pk ON ev IS 'the key'`, refused: "ev (a comment on a constraint)"},
		{name: "partitioned by the ID, an index's comment", setup: `CREATE TABLE ev (id ksuid, n int) PARTITION BY RANGE (id);
			CREATE TABLE ev_all PARTITION OF ev DEFAULT; CREATE INDEX ev_n ON ev (n); COMMENT ON INDEX ev_n IS 'by n'`, refused: "ev (a comment on an index)"},
		{name: "partitioned by the ID, a statistics target", setup: `CREATE TABLE ev (id ksuid, n int) PARTITION BY RANGE (id);
			CREATE TABLE ev_all PARTITION OF ev DEFAULT; ALTER TABLE ev ALTER COLUMN n SET STATISTICS 500`, refused: "ev (a column's statistics target, storage or compression)"},
		{name: "partitioned by the ID, storage", setup: `CREATE TABLE ev (id ksuid, note text) PARTITION BY RANGE (id);
			CREATE TABLE ev_all PARTITION OF ev DEFAULT; ALTER TABLE ev ALTER COLUMN note SET STORAGE EXTERNAL`, refused: "ev (a column's statistics target, storage or compression)"},
		{name: "partitioned by the ID, compression", setup: `CREATE TABLE ev (id ksuid, note text) PARTITION BY RANGE (id);
			CREATE TABLE ev_all PARTITION OF ev DEFAULT; ALTER TABLE ev ALTER COLUMN note SET COMPRESSION pglz`, refused: "ev (a column's statistics target, storage or compression)"},
		{name: "schema off the search path", schema: "ids", refused: "not on the search path"},
		// Only the ksuid part installed, on 15: the objectid functions'
		// signatures name a type that is not there.
		{name: "the ksuid part alone on 15", parts: []string{"ksuid"}, server: servers.ext15,
			check: "SELECT to_regtype('objectid') IS NOT NULL AND ksuid_time(ksuid_generate()) > now() - interval '1 minute'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := testContext(t)
			server := tc.server
			if server == nil {
				server = servers.ext18
			}
			pool, url := toExtensionDatabase(t, ctx, server)
			if err := sqltype.Install(ctx, pool, tc.schema, tc.parts...); err != nil {
				t.Fatal(err)
			}
			setup := base
			if tc.schema != "" {
				setup = "SET search_path = public, " + tc.schema + ";\n" + base
			}
			if _, err := pool.Exec(ctx, setup+"\n"+tc.setup); err != nil {
				t.Fatalf("setup: %v", err)
			}
			// The writer: inserts until the conversion is over, counting
			// the inserts the server acknowledged.
			var acked int
			stop, done := make(chan struct{}), make(chan struct{})
			go func() {
				defer close(done)
				for i := 1_000_000; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := pool.Exec(ctx, "INSERT INTO t (n) VALUES ($1)", i); err == nil {
						acked++
					}
				}
			}()
			cmd := exec.CommandContext(ctx, "psql", "-Xq", "-v", "ON_ERROR_STOP=1", url)
			cmd.Stdin = strings.NewReader(pgsql.ToExtension())
			out, err := cmd.CombinedOutput()
			close(stop)
			<-done
			var typtype string
			var writes int
			if err := pool.QueryRow(ctx, "SELECT (SELECT typtype FROM pg_type t JOIN pg_attribute a ON a.atttypid = t.oid WHERE a.attrelid = 'public.t'::regclass AND a.attname = 'id'), (SELECT count(*) FROM public.t WHERE n >= 1000000)").Scan(&typtype, &writes); err != nil {
				t.Fatal(err)
			}
			if writes != acked || acked == 0 {
				t.Errorf("the writer beside it: %d inserts acknowledged, %d rows", acked, writes)
			}
			if tc.refused != "" {
				if err == nil || !strings.Contains(string(out), tc.refused) || !strings.Contains(string(out), "nothing was") {
					t.Fatalf("to-extension: %v\n%s\nwant a refusal naming %q", err, out, tc.refused)
				}
				if typtype != "d" || extCatalogHas(t, ctx, pool, "sortid") {
					t.Errorf("after the refusal: the ID column's type is of typtype %q, want the domain's (d), and no extension", typtype)
				}
				return
			}
			if err != nil {
				t.Fatalf("to-extension: %v\n%s", err, out)
			}
			if typtype != "b" {
				t.Errorf("after the conversion the ID column's type is of typtype %q, want the extension's (b)", typtype)
			}
			if tc.check != "" {
				var ok bool
				if err := pool.QueryRow(ctx, tc.check).Scan(&ok); err != nil || !ok {
					t.Errorf("after the conversion %q: %v (%v)", tc.check, ok, err)
				}
			}
			var n int
			if err := pool.QueryRow(ctx, "SELECT count(*) FROM t WHERE ksuid_time(id) > now() - interval '1 hour' AND n BETWEEN 1 AND 200").Scan(&n); err != nil || n != 200 {
				t.Errorf("rows from before: %d (%v), want 200", n, err)
			}
		})
	}
}

// toExtensionDatabase makes a database of t's own on the server of ext,
// which has the extension's files, and returns a pool on it (without
// sortid's hook: the domains need none) and its URL.
func toExtensionDatabase(t *testing.T, ctx context.Context, ext *extServer) (*pgxpool.Pool, string) {
	t.Helper()
	admin := ext.pool
	name := "sortid_" + sanitize(t.Name())
	admin.Exec(ctx, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	c := admin.Config().ConnConfig
	url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, name)
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	t.Cleanup(func() {
		once.Do(pool.Close)
		admin.Exec(context.Background(), "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)")
	})
	return pool, url
}

// extCatalogHas reports whether the database has the named extension.
func extCatalogHas(t *testing.T, ctx context.Context, pool *pgxpool.Pool, name string) bool {
	t.Helper()
	var has bool
	if err := pool.QueryRow(ctx, "SELECT EXISTS (SELECT FROM pg_extension WHERE extname = $1)", name).Scan(&has); err != nil {
		t.Fatal(err)
	}
	return has
}
