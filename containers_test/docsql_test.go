package containers

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// docSQL is how TestDocsSQLRuns runs one SQL block of the docs, found by
// its file and first line.
type docSQL struct {
	file, first string
	installs    []string // "domains", "extension": a fresh database with each
	before      string   // the context the block is written for
	// args are SQL literals for $1, $2, … where the block's statements
	// take parameters: each such statement is prepared and executed.
	args []string
	// alternatives are other contexts, one per statement of the block:
	// the block offers them as alternatives, each run alone after its own.
	alternatives []string
	after        string // a query whose last line of output must be "t"
	// runBy names the test that runs the block in its own context (with
	// probes at work, say); TestDocsSQLRuns only checks that it is found.
	runBy string
}

const docOrders = `CREATE TABLE orders (id ksuid PRIMARY KEY DEFAULT ksuid_generate(), amount numeric NOT NULL);
INSERT INTO orders (id, amount) VALUES ('3MswuvgVJWUVvWZbiFtWK735Q4w', 1), ('3MswuvhlmoTVzIPdsOcEGbMrDpB', 2);
INSERT INTO orders (amount) VALUES (3);`

var docSQLBlocks = []docSQL{
	{file: "docs/partitioning.md", first: "-- After `sortid sql`", installs: both,
		after: "SELECT relkind = 'p' FROM pg_class WHERE relname = 'events';"},
	{file: "docs/partitioning.md", first: "CREATE SCHEMA partman;", installs: both,
		after: "SELECT count(*) >= 4 FROM pg_inherits WHERE inhparent = 'events'::regclass;"},
	{file: "docs/partitioning.md", first: "CREATE EXTENSION timescaledb;", installs: both,
		after: "SELECT count(*) = 1 FROM timescaledb_information.hypertables WHERE hypertable_name = 'metrics';"},
	{file: "docs/postgresql.md", first: "CREATE TABLE orders (", installs: both,
		after: "INSERT INTO orders (amount) VALUES (1);\nSELECT count(*) = 1 AND bool_and(ksuid_time(id) > now() - interval '1 minute') FROM orders;"},
	{file: "docs/postgresql.md", first: "-- raw bytes (octet_length(id) = 20)", installs: both,
		alternatives: []string{
			"CREATE TABLE t (id bytea PRIMARY KEY);\nINSERT INTO t VALUES (decode('" + docKSUIDHex + "', 'hex'));",
			"CREATE TABLE t (id bytea PRIMARY KEY);\nINSERT INTO t VALUES (convert_to('" + docKSUID + "', 'UTF8'));",
		},
		after: "SELECT id::text = '" + docKSUID + "' FROM t;"},
	{file: "docs/postgresql.md", first: "SELECT id, ksuid_time(id), amount FROM orders", installs: both, before: docOrders,
		after: "SELECT count(*) = 2 FROM orders;"},
	{file: "docs/postgresql.md", first: "SELECT * FROM orders WHERE id > $1", installs: both, before: docOrders,
		args: []string{"'3MswuvgVJWUVvWZbiFtWK735Q4w'"}},
	{file: "docs/uuidv7.md", first: "CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT uuidv7()", installs: both,
		after: "INSERT INTO orders (total) VALUES (1);\nSELECT uuid_extract_version(id) = 7 FROM orders;"},
	{file: "docs/uuidv7.md", first: "CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT uuidv7_generate()", installs: both,
		after: "INSERT INTO orders (total) VALUES (1);\nSELECT uuid_extract_version(id) = 7 FROM orders;"},
	{file: "docs/uuidv7.md", first: "SELECT count(*) FROM orders WHERE id >= uuidv7_min_at($1)", installs: both,
		before: "CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT uuidv7_generate(), total numeric NOT NULL);",
		args:   []string{"'2026-12-01'", "'2026-12-02'"}},
	{file: "docs/migrating.md", first: "CREATE UNIQUE INDEX CONCURRENTLY orders_id_c", installs: []string{"domains"},
		before: "CREATE TABLE orders (id varchar(27) PRIMARY KEY, n int);\nINSERT INTO orders VALUES ('3MswuvgVJWUVvWZbiFtWK735Q4w', 1), ('3MswuvhlmoTVzIPdsOcEGbMrDpB', 2), ('3zzzzzzzzzzzzzzzzzzzzzzzzzz', 3);",
		args:   []string{"'3Mswuv00000000000000000000'", "'3MswuvZZZZZZZZZZZZZZZZZZZZZ'"},
		after:  "SELECT count(*) = 1 FROM pg_indexes WHERE indexname = 'orders_id_c';"},
	{file: "docs/migrating.md", first: "CREATE EXTENSION IF NOT EXISTS pgcrypto;", installs: both,
		before: `CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), created_at timestamptz NOT NULL);
INSERT INTO orders (created_at) VALUES ('2026-11-30 10:00:00.25+00'), ('2026-12-01 10:00:00+00'), ('2026-12-01 10:00:00.5+00');`,
		after: "SELECT count(DISTINCT kid) = 3 AND bool_and(ksuid_time(kid) = date_trunc('second', created_at)) FROM orders;"},
}

func init() {
	for i := range 6 {
		docSQLBlocks = append(docSQLBlocks, docSQL{file: "docs/migrating.md",
			first: fmt.Sprintf("-- Step %d:", i+1), runBy: "TestSegmentioOnlineConversion"})
	}
}

var both = []string{"domains", "extension"}

// A KSUID, its text and its 20 bytes in hex.
const (
	docKSUID    = "2HxUxTmv4vd6vhTtOMydU7SgNKp"
	docKSUIDHex = "100c11ea58b06c3e848290e9fd221f71067a13f7"
)

// sqlBlocks returns each ```sql block of a markdown file, by its first
// line, dedented as the fence is.
func sqlBlocks(t *testing.T, file string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	blocks := map[string]string{}
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		fence := strings.TrimLeft(lines[i], " ")
		if fence != "```sql" {
			continue
		}
		indent := len(lines[i]) - len(fence)
		var body []string
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			l := lines[i]
			if len(l) >= indent && strings.TrimSpace(l[:indent]) == "" {
				l = l[indent:]
			}
			body = append(body, l)
		}
		if len(body) == 0 {
			t.Fatalf("%s: an empty sql block", file)
		}
		if _, dup := blocks[body[0]]; dup {
			t.Fatalf("%s: two sql blocks start with %q: start one with a comment that tells them apart", file, body[0])
		}
		blocks[body[0]] = strings.Join(body, "\n")
	}
	return blocks
}

var sqlParam = regexp.MustCompile(`\$(\d+)`)

// prepared turns each statement of block that takes parameters into a
// PREPARE and an EXECUTE with args; statements end with a line that ends
// in ";" (after any -- comment).
func prepared(block string, args []string) string {
	var out, stmt []string
	for _, l := range strings.Split(block, "\n") {
		code, _, _ := strings.Cut(l, "--")
		stmt = append(stmt, strings.TrimSpace(code))
		if !strings.HasSuffix(strings.TrimSpace(code), ";") {
			continue
		}
		text := strings.TrimSuffix(strings.TrimSpace(strings.Join(stmt, " ")), ";")
		stmt = nil
		n := 0
		for _, m := range sqlParam.FindAllStringSubmatch(text, -1) {
			var k int
			fmt.Sscan(m[1], &k)
			n = max(n, k)
		}
		if n == 0 {
			out = append(out, text+";")
			continue
		}
		q := fmt.Sprintf("doc_%d", len(out))
		out = append(out, fmt.Sprintf("PREPARE %s AS %s;\nEXECUTE %s(%s);\nDEALLOCATE %s;", q, text, q, strings.Join(args[:n], ", "), q))
	}
	return strings.Join(out, "\n")
}

// TestDocsSQLRuns: every SQL block in README.md and docs/ runs in psql,
// as a reader would paste it, on a fresh database with each install it
// is written for (PostgreSQL 18 under an ICU default collation, with
// TimescaleDB and pg_partman), after the context a fragment names; its
// effect is checked where the docs say what it does. A block with no
// entry in docSQLBlocks fails: add one.
func TestDocsSQLRuns(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	psql, err := exec.LookPath("psql")
	if err != nil {
		t.Fatal("psql is missing (Debian package postgresql-client; scripts/install-packages.sh installs it)")
	}
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md")
	found := map[string]string{}
	for _, f := range files {
		for first, block := range sqlBlocks(t, f) {
			found[strings.TrimPrefix(f, "../")+"\x00"+first] = block
		}
	}
	known := map[string]bool{}
	for _, b := range docSQLBlocks {
		for key := range found {
			file, first, _ := strings.Cut(key, "\x00")
			if file == b.file && strings.HasPrefix(first, b.first) {
				known[key] = true
			}
		}
	}
	for key := range found {
		if !known[key] {
			file, first, _ := strings.Cut(key, "\x00")
			t.Errorf("%s: the sql block %q has no entry in docSQLBlocks", file, first)
		}
	}
	for i, b := range docSQLBlocks {
		var block string
		for key, body := range found {
			file, first, _ := strings.Cut(key, "\x00")
			if file == b.file && strings.HasPrefix(first, b.first) {
				block = body
			}
		}
		if block == "" {
			t.Errorf("%s: no sql block starts with %q", b.file, b.first)
			continue
		}
		if b.runBy != "" {
			continue
		}
		if len(b.args) > 0 {
			block = prepared(block, b.args)
		}
		runs := []string{b.before + "\n" + block}
		if b.alternatives != nil {
			runs = nil
			stmts := strings.SplitAfter(block, ";")
			var alts []string
			for _, s := range stmts {
				if strings.TrimSpace(s) != "" {
					alts = append(alts, s)
				}
			}
			if len(alts) != len(b.alternatives) {
				t.Fatalf("%s %q: %d statements, %d alternatives", b.file, b.first, len(alts), len(b.alternatives))
			}
			for j, alt := range alts {
				runs = append(runs, b.before+"\n"+b.alternatives[j]+"\n"+alt)
			}
		}
		for _, install := range b.installs {
			for j, run := range runs {
				t.Run(fmt.Sprintf("%d_%s_%s_%d", i, strings.TrimSuffix(filepath.Base(b.file), ".md"), install, j), func(t *testing.T) {
					pool := installedDatabase(t, ctx, servers.ext18, install)
					c := pool.Config().ConnConfig
					url := fmt.Sprintf("postgres://%s:%s@%s:%d/%s?sslmode=disable", c.User, c.Password, c.Host, c.Port, c.Database)
					pool.Close()
					cmd := exec.CommandContext(ctx, psql, "-X", "-q", "-At", "-v", "ON_ERROR_STOP=1", url)
					cmd.Stdin = strings.NewReader(run + "\n" + b.after + "\n")
					out, err := cmd.CombinedOutput()
					if err != nil {
						t.Fatalf("%s, block %q with the %s: %v\n%s", b.file, b.first, install, err, out)
					}
					lines := strings.Split(strings.TrimSpace(string(out)), "\n")
					if b.after != "" && lines[len(lines)-1] != "t" {
						t.Errorf("%s, block %q with the %s: %s gave %q; want t", b.file, b.first, install, b.after, out)
					}
				})
			}
		}
	}
}
