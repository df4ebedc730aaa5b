package containers

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/sqltype"
	"github.com/sortid/sortid/uuidv7"
)

// sqlSchema is where these tests install sortid's SQL, apart from the
// public schema that other tests install into.
const sqlSchema = "sortid_sql_test"

// installSQL installs the script into public and into sqlSchema, twice
// each (it must be idempotent), and drops sqlSchema when t ends.
func installSQL(t *testing.T) {
	t.Helper()
	ctx := testContext(t)
	for range 2 {
		for _, schema := range []string{"", sqlSchema} {
			if err := sqltype.Install(ctx, servers.pg, schema); err != nil {
				t.Fatalf("install into %q: %v", schema, err)
			}
		}
	}
	t.Cleanup(func() { servers.pg.Exec(ctx, "DROP SCHEMA IF EXISTS "+sqlSchema+" CASCADE") })
}

// TestSQLInstallWithoutPgcryptoOnThePath: where pgcrypto lives in a
// schema off the search path, the install stops with an error that says
// so, and creates nothing.
func TestSQLInstallWithoutPgcryptoOnThePath(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	cfg := servers.pgConfig.ConnConfig.Copy()
	cfg.Database = icuDatabase(t, ctx)
	conn, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA ext; CREATE EXTENSION pgcrypto SCHEMA ext"); err != nil {
		t.Fatal(err)
	}
	err = sqltype.Install(ctx, conn, "")
	if e := pgError(t, err); !strings.Contains(e.Message, "ksuid_generate needs gen_random_bytes from the pgcrypto extension") {
		t.Errorf("install: %q", e.Message)
	}
	var domains int
	if err := conn.QueryRow(ctx, "SELECT count(*) FROM pg_type WHERE typname IN ('ksuid', 'objectid')").Scan(&domains); err != nil || domains != 0 {
		t.Errorf("%d domains after the failed install (%v); want none", domains, err)
	}
	if _, err := conn.Exec(ctx, "SET search_path = public, ext"); err != nil {
		t.Fatal(err)
	}
	if err := sqltype.Install(ctx, conn, ""); err != nil {
		t.Errorf("install with pgcrypto on the search path: %v", err)
	}
}

// pgError returns err as a *pgconn.PgError, or fails t.
func pgError(t *testing.T, err error) *pgconn.PgError {
	t.Helper()
	var pgErr *pgconn.PgError
	if !errors.As(err, &pgErr) {
		t.Fatalf("want a PostgreSQL error, got %v", err)
	}
	return pgErr
}

func TestSQLFunctionsDeclared(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	rows, err := servers.pg.Query(ctx, `SELECT proname, provolatile::text, proisstrict, proparallel::text
		FROM pg_proc WHERE pronamespace = $1::regnamespace ORDER BY proname`, sqlSchema)
	if err != nil {
		t.Fatal(err)
	}
	type decl struct {
		name, volatile string
		strict         bool
		parallel       string
	}
	got, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (d decl, err error) {
		err = r.Scan(&d.name, &d.volatile, &d.strict, &d.parallel)
		return d, err
	})
	if err != nil {
		t.Fatal(err)
	}
	pure := []string{"ksuid_from_text", "ksuid_max_at", "ksuid_min_at", "ksuid_time", "ksuid_to_text", "ksuid_to_bytea", "bytea_to_ksuid",
		"objectid_from_text", "objectid_time", "objectid_to_text", "objectid_to_bytea", "bytea_to_objectid", "objectid_min_at", "objectid_max_at"}
	seen := map[string]decl{}
	for _, d := range got {
		seen[d.name] = d
	}
	for _, name := range pure {
		if d := seen[name]; d.volatile != "i" || !d.strict || d.parallel != "s" {
			t.Errorf("%s is declared %+v; want IMMUTABLE STRICT PARALLEL SAFE", name, d)
		}
	}
	if d := seen["ksuid_generate"]; d.volatile != "v" {
		t.Errorf("ksuid_generate is declared %+v; want VOLATILE", d)
	}
}

func TestSQLFunctionsAgreeWithGo(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)

	largest := ksuid.MustParse("aWgEPTl1tmebfsQzFP4bxwgy80V")
	ids := []ksuid.KSUID{{}, largest, olderCaseKSUID, newerCaseKSUID}
	for range 2000 {
		var id ksuid.KSUID
		rand.Read(id[:])
		if id.Compare(largest) <= 0 {
			ids = append(ids, id)
		}
	}
	texts := make([]string, len(ids))
	raw := make([][]byte, len(ids))
	for i := range ids {
		texts[i], raw[i] = ids[i].String(), ids[i][:]
	}
	rows, err := servers.pg.Query(ctx, `SELECT ksuid_to_text(x), ksuid_from_text(x), ksuid_to_bytea(x), bytea_to_ksuid(b), ksuid_time(x)
		FROM unnest($1::text[], $2::bytea[]) WITH ORDINALITY AS u(x, b, n) ORDER BY n`, texts, raw)
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	var text, parsed, fromBytes string
	var back []byte
	var at time.Time
	_, err = pgx.ForEachRow(rows, []any{&text, &parsed, &back, &fromBytes, &at}, func() error {
		id := ids[i]
		if text != id.String() || parsed != id.String() || !bytes.Equal(back, id[:]) || fromBytes != id.String() || !at.Equal(id.Time()) {
			t.Errorf("%x: SQL gives %s, %s, %x, %s, %v; Go %s, %v", id[:], text, parsed, back, fromBytes, at, id.String(), id.Time())
		}
		i++
		return nil
	})
	if err != nil || i != len(ids) {
		t.Fatalf("%d rows of %d, %v", i, len(ids), err)
	}

	for _, at := range []time.Time{time.Unix(ksuid.EpochUnix, 0), base, base.Add(123456789 * time.Millisecond), time.Unix(ksuid.MaxUnix, 0)} {
		var lo, hi string
		if err := servers.pg.QueryRow(ctx, "SELECT ksuid_min_at($1), ksuid_max_at($1)", at).Scan(&lo, &hi); err != nil {
			t.Fatal(err)
		}
		wantLo, _ := ksuid.MinAt(at)
		wantHi, _ := ksuid.MaxAt(at)
		if lo != wantLo.String() || hi != wantHi.String() {
			t.Errorf("ksuid_min_at/max_at(%v) = %s, %s; Go %v, %v", at, lo, hi, wantLo, wantHi)
		}
	}

	oids := objectIDsOverTime(t)[:500]
	for _, id := range oids {
		var text, fromUpper, fromBytes, lo, hi string
		var back []byte
		var at time.Time
		err := servers.pg.QueryRow(ctx, `SELECT objectid_to_text($1), objectid_from_text(upper($1)), objectid_time($1), objectid_to_bytea($1),
			bytea_to_objectid($2), objectid_min_at(objectid_time($1)), objectid_max_at(objectid_time($1))`, id.String(), id[:]).
			Scan(&text, &fromUpper, &at, &back, &fromBytes, &lo, &hi)
		wantLo, _ := objectid.MinAt(id.Time())
		wantHi, _ := objectid.MaxAt(id.Time())
		if err != nil || text != id.String() || fromUpper != id.String() || !bytes.Equal(back, id[:]) || fromBytes != id.String() ||
			!at.Equal(id.Time()) || lo != wantLo.String() || hi != wantHi.String() {
			t.Fatalf("%v: SQL gives %s, %s, %v, %x, %s, %s, %s (%v)", id, text, fromUpper, at, back, fromBytes, lo, hi, err)
		}
	}
}

// TestSQLFunctionsUnderSessionSettings: the functions that make IDs of a
// time answer as Go does in a session whose settings differ from the
// defaults, its first calls of them made there: standard_conforming_strings
// off (a '\x…' literal in a PL/pgSQL body then reads as an escape, and
// ksuid_min_at failed with "invalid byte sequence for encoding UTF8:
// 0x00"), bytea_output escape and a zone 13h45 from UTC.
func TestSQLFunctionsUnderSessionSettings(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	conn, err := pgx.ConnectConfig(ctx, servers.pgConfig.ConnConfig.Copy())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	for _, set := range []string{"SET standard_conforming_strings = off", "SET bytea_output = escape", "SET TimeZone = 'Pacific/Chatham'"} {
		if _, err := conn.Exec(ctx, set); err != nil {
			t.Fatal(err)
		}
	}
	at := base.Add(123456789 * time.Millisecond)
	var kLo, kHi, kEnc, oLo, oHi, uEnc string
	var uLo, uHi [16]byte
	var kDec time.Time
	err = conn.QueryRow(ctx, `SELECT ksuid_min_at($1), ksuid_max_at($1), ksuid_time_encoder($1), ksuid_time_decoder(ksuid_time_encoder($1)),
		objectid_min_at($1), objectid_max_at($1), uuidv7_min_at($1), uuidv7_max_at($1), uuidv7_time_encoder($1)::text`, at).
		Scan(&kLo, &kHi, &kEnc, &kDec, &oLo, &oHi, &uLo, &uHi, &uEnc)
	if err != nil {
		t.Fatalf("the time functions under the settings: %v", err)
	}
	wantKLo, wantKHi := must(ksuid.MinAt(at)), must(ksuid.MaxAt(at))
	wantOLo, wantOHi := must(objectid.MinAt(at)), must(objectid.MaxAt(at))
	wantULo, wantUHi := must(uuidv7.MinAt(at)), must(uuidv7.MaxAt(at))
	if kLo != wantKLo.String() || kHi != wantKHi.String() || kEnc != wantKLo.String() || !kDec.Equal(at.Truncate(time.Second)) ||
		oLo != wantOLo.String() || oHi != wantOHi.String() || uLo != [16]byte(wantULo) || uHi != [16]byte(wantUHi) || uEnc != wantULo.String() {
		t.Errorf("SQL gives %s %s %s %v %s %s %x %x %s; Go %v %v %v %v %v %v %v %v",
			kLo, kHi, kEnc, kDec, oLo, oHi, uLo, uHi, uEnc, wantKLo, wantKHi, at.Truncate(time.Second), wantOLo, wantOHi, wantULo, wantUHi, wantULo)
	}
}

func TestSQLFunctionsRefuseBadInput(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	long := strings.Repeat("A", 100)
	for _, tc := range []struct {
		query string
		arg   any
		code  string
		msg   string
	}{
		{"SELECT ksuid_from_text($1)", "short", "22P02", `ksuid_from_text: parsing "short": invalid length 5, want 27`},
		{"SELECT ksuid_from_text($1)", "0ujtsYcgvSTl8PAuAdqWYSMnLOv0", "22P02", "invalid length 28, want 27"},
		{"SELECT ksuid_from_text($1)", "0ujtsYcgvSTl8PAu-dqWYSMnLOv", "22P02", `invalid character "-" at offset 16`},
		{"SELECT ksuid_from_text($1)", "0ujtsYcgvSTl8PAuAdqWYSMnLOé", "22P02", `invalid character "é" at offset 26`},
		{"SELECT ksuid_from_text($1)", "aWgEPTl1tmebfsQzFP4bxwgy80W", "22003", `parsing "aWgEPTl1tmebfsQzFP4bxwgy80W": value out of range`},
		{"SELECT ksuid_from_text($1)", "zzzzzzzzzzzzzzzzzzzzzzzzzzz", "22003", "value out of range"},
		{"SELECT ksuid_from_text($1)", long, "22P02", `parsing "` + long[:64] + `"...: invalid length 100`},
		{"SELECT ksuid_time($1)", "short", "23514", `value for domain ksuid violates check constraint "27 characters 0-9A-Za-z`},
		{"SELECT ksuid_to_bytea($1)", "aWgEPTl1tmebfsQzFP4bxwgy80W", "23514", "at most aWgEPTl1tmebfsQzFP4bxwgy80V"},
		{"SELECT bytea_to_ksuid($1)", []byte("0ujtsYcgvSTl8PAuAdqWYSMnLOv"), "22P03", "is 27 bytes; a KSUID is 20"},
		{"SELECT bytea_to_ksuid($1)", []byte{1, 2, 3}, "22P03", "bytea_to_ksuid: \\x010203 is 3 bytes; a KSUID is 20"},
		{"SELECT ksuid_min_at($1)", time.Date(2014, 5, 13, 16, 53, 19, 0, time.UTC), "22008", "ksuid_min_at: the time 2014-05-13 16:53:19+00 is outside the KSUID range"},
		{"SELECT ksuid_max_at($1)", time.Date(2150, 6, 19, 23, 21, 36, 0, time.UTC), "22008", "ksuid_max_at: the time 2150-06-19 23:21:36+00 is outside the KSUID range"},
		{"SELECT objectid_from_text($1)", "5f1e3c2a9b8d7e6f5a4b3c2", "22P02", `objectid_from_text: parsing "5f1e3c2a9b8d7e6f5a4b3c2": invalid length 23, want 24`},
		{"SELECT objectid_from_text($1)", "5f1e3c2a9b8d7e6f5a4b3cg2", "22P02", `invalid character "g" at offset 22`},
		{"SELECT objectid_time($1)", "5F1E3C2A9B8D7E6F5A4B3C2D", "23514", "24 lowercase hex digits"},
		{"SELECT bytea_to_objectid($1)", make([]byte, 13), "22P03", "bytea_to_objectid: \\x00000000000000000000000000 is 13 bytes; an ObjectID is 12"},
		{"SELECT objectid_min_at($1)", time.Date(2106, 2, 7, 6, 28, 16, 0, time.UTC), "22008", "objectid_min_at: the time 2106-02-07 06:28:16+00 is outside the ObjectID range"},
	} {
		var out any
		err := servers.pg.QueryRow(ctx, tc.query, tc.arg).Scan(&out)
		if err == nil {
			t.Errorf("%s with %v gave %v; want an error", tc.query, tc.arg, out)
			continue
		}
		if e := pgError(t, err); e.Code != tc.code || !strings.Contains(e.Message, tc.msg) {
			t.Errorf("%s with %v: %s %q; want %s and %q", tc.query, tc.arg, e.Code, e.Message, tc.code, tc.msg)
		}
	}
}

// TestSQLGenerateInterleavesWithGo makes IDs in turn with Go's monotonic
// generator and with ksuid_generate(): both put the fraction of the
// second first in the payload, so their IDs sort in the order they were
// made.
func TestSQLGenerateInterleavesWithGo(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	g := ksuid.NewGenerator(ksuid.WithMonotonic())
	var made []ksuid.KSUID
	randomParts := map[string]bool{}
	for i := range 1000 {
		if i%2 == 0 {
			id, err := g.New()
			if err != nil {
				t.Fatal(err)
			}
			made = append(made, id)
			continue
		}
		var text string
		if err := servers.pg.QueryRow(ctx, "SELECT ksuid_generate()").Scan(&text); err != nil {
			t.Fatal(err)
		}
		id, err := ksuid.Parse(text)
		if err != nil {
			t.Fatalf("ksuid_generate gave %q: %v", text, err)
		}
		raw := id.Bytes()
		if d := time.Since(id.Time()); d < -time.Second || d > 2*time.Second {
			t.Fatalf("ksuid_generate gave %v, made at %v, %v from now", id, id.Time(), d)
		}
		randomParts[string(raw[7:])] = true
		made = append(made, id)
	}
	for i := 1; i < len(made); i++ {
		if made[i].Compare(made[i-1]) <= 0 {
			t.Fatalf("ID #%d %v (%s) is not above #%d %v (%s)", i, made[i], origin(i), i-1, made[i-1], origin(i-1))
		}
	}
	if len(randomParts) != 500 {
		t.Errorf("500 IDs from ksuid_generate have %d distinct random parts", len(randomParts))
	}
}

func origin(i int) string {
	if i%2 == 0 {
		return "Go"
	}
	return "SQL"
}

// TestSQLDomainInTables uses the domain as a column type with
// ksuid_generate() as its default, the pure functions in a generated
// column and an expression index, and checks that the domain refuses
// bytea's \x form of a KSUID.
func TestSQLDomainInTables(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	table := pgTable(t, ctx, servers.pg, `id ksuid PRIMARY KEY DEFAULT ksuid_generate(),
		id_bytes bytea GENERATED ALWAYS AS (ksuid_to_bytea(id)) STORED, n int`)
	if _, err := servers.pg.Exec(ctx, "CREATE INDEX "+strings.Trim(table, `"`)+"_made ON "+table+" (ksuid_time(id))"); err != nil {
		t.Fatal(err)
	}
	if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (n) SELECT g FROM generate_series(1, 1000) g"); err != nil {
		t.Fatal(err)
	}
	given := ksuid.New()
	if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" (id, n) VALUES ($1, 0)", given); err != nil {
		t.Fatal(err)
	}
	rows, err := servers.pg.Query(ctx, "SELECT id, id_bytes FROM "+table)
	if err != nil {
		t.Fatal(err)
	}
	var raw []byte
	var text string
	n := 0
	_, err = pgx.ForEachRow(rows, []any{&text, &raw}, func() error {
		if id, err := ksuid.Parse(text); err != nil || !bytes.Equal(id[:], raw) {
			t.Errorf("row %s has the generated bytes %x; Go: %v, %v", text, raw, id, err)
		}
		n++
		return nil
	})
	if err != nil || n != 1001 {
		t.Fatalf("%d rows, %v", n, err)
	}

	// The expression index answers a query by ksuid_time.
	tx, err := servers.pg.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	tx.Exec(ctx, "SET LOCAL enable_seqscan = off")
	var plan strings.Builder
	planRows, err := tx.Query(ctx, "EXPLAIN SELECT count(*) FROM "+table+" WHERE ksuid_time(id) >= now() - interval '1 minute'")
	if err != nil {
		t.Fatal(err)
	}
	var line string
	pgx.ForEachRow(planRows, []any{&line}, func() error { plan.WriteString(line + "\n"); return nil })
	if !strings.Contains(plan.String(), "_made") {
		t.Errorf("the query by ksuid_time does not use the expression index:\n%s", plan.String())
	}
	tx.Rollback(ctx)

	_, err = servers.pg.Exec(ctx, "INSERT INTO "+table+" (id, n) VALUES ($1, 0)", `\x`+fmt.Sprintf("%x", given[:]))
	if e := pgError(t, err); e.Code != "23514" || !strings.Contains(e.Message, `domain ksuid`) {
		t.Errorf("bytea's form into the domain: %s %q; want a check violation of domain ksuid", e.Code, e.Message)
	}
}

// TestSQLInstallByPart: `sortid sql uuidv7` (Install with "uuidv7")
// creates the four UUIDv7 functions and nothing of KSUID or ObjectID; on
// PostgreSQL 18 no pgcrypto, before 18 pgcrypto for uuidv7_generate.
// Then the ksuid part alone adds its domain and functions and no
// objectid.
func TestSQLInstallByPart(t *testing.T) {
	needServers(t)
	ctx := testContext(t)
	type server struct {
		name         string
		conn         sqltype.Execer
		query        func(sql string) (pgx.Rows, error)
		wantPgcrypto bool
	}
	cfg := servers.pgConfig.ConnConfig.Copy()
	cfg.Database = icuDatabase(t, ctx)
	pg18, err := pgx.ConnectConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pg18.Close(ctx)
	pg15 := pg15Database(t, ctx, "sortid_install_by_part")
	for _, s := range []server{
		{"PostgreSQL 18", pg18, func(sql string) (pgx.Rows, error) { return pg18.Query(ctx, sql) }, false},
		{"PostgreSQL 15", pg15, func(sql string) (pgx.Rows, error) { return pg15.Query(ctx, sql) }, true},
	} {
		t.Run(s.name, func(t *testing.T) {
			names := func(sql string) []string {
				t.Helper()
				rows, err := s.query(sql)
				if err != nil {
					t.Fatal(err)
				}
				got, err := pgx.CollectRows(rows, pgx.RowTo[string])
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			const functions = "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public' AND p.proname ~ '^(ksuid|objectid|uuidv7)' ORDER BY 1"
			const types = "SELECT typname::text FROM pg_type WHERE typname IN ('ksuid', 'objectid') ORDER BY 1"
			const extensions = "SELECT extname::text FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1"
			if got := names(functions); len(got) != 0 {
				t.Fatalf("a fresh database has %v", got)
			}
			for range 2 {
				if err := sqltype.Install(ctx, s.conn, "", "uuidv7"); err != nil {
					t.Fatalf("install uuidv7: %v", err)
				}
			}
			if got, want := strings.Join(names(functions), " "), "uuidv7_generate uuidv7_max_at uuidv7_min_at uuidv7_time uuidv7_time_decoder uuidv7_time_encoder"; got != want {
				t.Errorf("after sortid sql uuidv7, functions %q, want %q", got, want)
			}
			if got := names(types); len(got) != 0 {
				t.Errorf("after sortid sql uuidv7, types %v, want none", got)
			}
			wantExt := ""
			if s.wantPgcrypto {
				wantExt = "pgcrypto"
			}
			if got := strings.Join(names(extensions), " "); got != wantExt {
				t.Errorf("after sortid sql uuidv7, extensions %q, want %q", got, wantExt)
			}
			// The functions work: a new ID is version 7 and of now, and
			// the bounds of a millisecond read back as it.
			got := names(`SELECT concat_ws(' ', substr(u::text, 15, 1), uuidv7_time(u) > now() - interval '1 minute',
				uuidv7_time(uuidv7_min_at(t)) = date_trunc('milliseconds', t), uuidv7_time(uuidv7_max_at(t)) = date_trunc('milliseconds', t))
				FROM (SELECT uuidv7_generate() AS u, timestamptz '2026-05-01 12:00:00.123456Z' AS t) AS x`)
			if len(got) != 1 || got[0] != "7 t t t" {
				t.Errorf("uuidv7 functions: %v, want [7 t t t] (version 7, of now, both bounds of the millisecond)", got)
			}
			if err := sqltype.Install(ctx, s.conn, "", "ksuid"); err != nil {
				t.Fatalf("install ksuid: %v", err)
			}
			if got := strings.Join(names(types), " "); got != "ksuid" {
				t.Errorf("after sortid sql ksuid, types %q, want ksuid", got)
			}
			if got := names("SELECT extname::text FROM pg_extension WHERE extname = 'pgcrypto'"); len(got) != 1 {
				t.Errorf("after sortid sql ksuid, no pgcrypto")
			}
			for _, f := range names(functions) {
				if strings.HasPrefix(f, "objectid") {
					t.Errorf("after sortid sql uuidv7 and ksuid, %s exists", f)
				}
			}
		})
	}
}

// TestDomainsHashPartition: PostgreSQL finds a default hash operator
// class for the ksuid and objectid domains (text's), as Citus needs of a
// distribution column (docs/scale.md): a table partitioned by HASH on
// each takes rows in both partitions.
func TestDomainsHashPartition(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	for _, domain := range []string{"ksuid", "objectid"} {
		table := pgTable(t, ctx, servers.pg, "id "+domain+" NOT NULL) PARTITION BY HASH (id")
		for r := range 2 {
			if _, err := servers.pg.Exec(ctx, fmt.Sprintf("CREATE TABLE %s_p%d PARTITION OF %s FOR VALUES WITH (MODULUS 2, REMAINDER %d)",
				strings.Trim(table, `"`), r, table, r)); err != nil {
				t.Fatalf("%s: %v", domain, err)
			}
		}
		gen := "ksuid_generate()"
		if domain == "objectid" {
			gen = "left(md5(g::text), 24)::objectid"
		}
		if _, err := servers.pg.Exec(ctx, "INSERT INTO "+table+" SELECT "+gen+" FROM generate_series(1, 200) AS g"); err != nil {
			t.Fatalf("%s: %v", domain, err)
		}
		var parts int
		if err := servers.pg.QueryRow(ctx, "SELECT count(DISTINCT tableoid) FROM "+table).Scan(&parts); err != nil || parts != 2 {
			t.Errorf("%s: rows in %d partitions (%v), want 2", domain, parts, err)
		}
	}
}

// TestSQLGenerateAtTheEnds: the domains' ksuid_generate() with its clock
// set (its body, from the catalog, with clock_timestamp() replaced by a
// time) makes the KSUID of that second up to the last one a KSUID holds,
// 2150-06-19 23:21:35 UTC, and past it fails, as the C function does.
// Before, it wrapped: an ID of 2014 for a time in 2150.
func TestSQLGenerateAtTheEnds(t *testing.T) {
	needServers(t)
	installSQL(t)
	ctx := testContext(t)
	var body string
	if err := servers.pg.QueryRow(ctx, "SELECT pg_get_functiondef('public.ksuid_generate()'::regprocedure)").Scan(&body); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(body, "clock_timestamp()") {
		t.Fatalf("ksuid_generate reads no clock_timestamp():\n%s", body)
	}
	conn, err := servers.pg.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	at := func(ts string) (ksuid.KSUID, error) {
		def := strings.Replace(body, "public.ksuid_generate()", "pg_temp.ksuid_generate_at_test()", 1)
		def = strings.ReplaceAll(def, "clock_timestamp()", "'"+ts+"'::timestamptz")
		if _, err := conn.Exec(ctx, def); err != nil {
			t.Fatalf("%v\n%s", err, def)
		}
		var s string
		err := conn.QueryRow(ctx, "SELECT pg_temp.ksuid_generate_at_test()::text").Scan(&s)
		if err != nil {
			return ksuid.KSUID{}, err
		}
		return ksuid.Parse(s)
	}
	for _, ts := range []string{"2014-05-13 16:53:20+00", "2026-12-06 12:00:00.5+00", "2150-06-19 23:21:35.999+00"} {
		id, err := at(ts)
		want, _ := time.Parse("2006-01-02 15:04:05.999999999-07", ts)
		if err != nil || !id.Time().Equal(want.Truncate(time.Second)) {
			t.Errorf("ksuid_generate() at %s: %s (%v), time %v", ts, id, err, id.Time())
		}
	}
	for _, ts := range []string{"2150-06-19 23:21:36+00", "2300-01-01 00:00:00+00", "2014-05-13 16:53:19+00"} {
		id, err := at(ts)
		if err == nil {
			t.Errorf("ksuid_generate() at %s: %s (time %v); want an error", ts, id, id.Time())
		} else if ts > "2150" && !strings.Contains(err.Error(), "bigint out of range") {
			t.Errorf("ksuid_generate() at %s: %v; want bigint out of range", ts, err)
		}
	}
}
