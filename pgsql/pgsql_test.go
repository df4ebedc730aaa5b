package pgsql

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

// Every object the script creates, and every use of one, carries the
// schema placeholder, or an install into a schema would leave it behind.
func TestEveryNameTakesTheSchema(t *testing.T) {
	names := regexp.MustCompile(`(@SCHEMA@)?\b((?:bytea_to_)?(?:ksuid|objectid|uuidv7)(?:_[a-z_]+)?)\b(\s*\(|\s+AS\b|\s+IS\b|\s+LANGUAGE|;|,|\s*$)`)
	literal := regexp.MustCompile(`'[^']*'`)
	builtin := regexp.MustCompile(`pg_catalog\.\w+`) // PostgreSQL 18's uuidv7()
	// Constraint names belong to their domain and take no schema; a quoted
	// name is advice text.
	constraint := regexp.MustCompile(`CONSTRAINT \w+|"[^"]*"`)
	all, err := script(nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(all, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "--") {
			continue
		}
		line = literal.ReplaceAllString(line, "''")
		line = builtin.ReplaceAllString(line, "")
		line = constraint.ReplaceAllString(line, "CONSTRAINT c")
		for _, m := range names.FindAllStringSubmatch(line, -1) {
			if m[1] == "" {
				t.Errorf("line %d: %s without @SCHEMA@: %s", i+1, m[2], strings.TrimSpace(line))
			}
		}
	}
}

func TestScript(t *testing.T) {
	plain, err := Script("")
	if err != nil || strings.Contains(plain, "@SCHEMA@") || !strings.Contains(plain, "CREATE OR REPLACE FUNCTION ksuid_to_text(") {
		t.Fatalf("Script(\"\"): %v\n%.300s", err, plain)
	}
	in, err := Script("ids")
	if err != nil || !strings.Contains(in, "hashtext('sortid install')); END $$;\nCREATE SCHEMA IF NOT EXISTS \"ids\";") ||
		!strings.Contains(in, `CREATE OR REPLACE FUNCTION "ids".ksuid_min_at(t timestamptz) RETURNS "ids".ksuid`) {
		t.Fatalf("Script(\"ids\"): %v", err)
	}
	for _, bad := range []string{"Ids", "1ids", "a-b", "a b", `a"b`, "a$$b", strings.Repeat("a", 64), "é"} {
		_, err := Script(bad)
		if !errors.Is(err, ErrSchemaName) || !strings.Contains(err.Error(), "schema ") {
			t.Errorf("Script(%q): %v, want ErrSchemaName", bad, err)
		}
	}
}

func TestScriptForOneQuery(t *testing.T) {
	s, err := ScriptForOneQuery("")
	if err != nil || strings.Contains(s, "BEGIN;") || strings.Contains(s, "COMMIT;") || !strings.Contains(s, "pg_advisory_xact_lock") {
		t.Errorf("ScriptForOneQuery: %v\n%s", err, s)
	}
}

// Each part creates its own ID type's objects and no other's, and the
// script holds each part asked for once, in the order of partOrder.
func TestScriptParts(t *testing.T) {
	created := regexp.MustCompile(`(?m)^\s*(?:CREATE (?:OR REPLACE )?(?:FUNCTION|DOMAIN|OPERATOR)|EXECUTE 'CREATE OR REPLACE FUNCTION) @SCHEMA@(\w+|[<>=]+)(?: \(LEFTARG = @SCHEMA@(\w+)|[ (])`)
	objects := func(idTypes ...string) map[string]int {
		s, err := script(idTypes)
		if err != nil {
			t.Fatalf("script(%q): %v", idTypes, err)
		}
		n := make(map[string]int)
		for _, m := range created.FindAllStringSubmatch(s, -1) {
			name := m[1]
			if m[2] != "" {
				name = m[2] + " " + name
			}
			n[name]++
		}
		return n
	}
	want := map[string][]string{
		"uuidv7":   {"uuidv7_generate", "uuidv7_time", "uuidv7_min_at", "uuidv7_max_at", "uuidv7_time_encoder", "uuidv7_time_decoder"},
		"ksuid":    {"ksuid", "ksuid_generate", "ksuid_to_text", "ksuid_from_text", "ksuid_to_bytea", "bytea_to_ksuid", "ksuid_time", "ksuid_min_at", "ksuid_max_at", "ksuid_time_encoder", "ksuid_time_decoder"},
		"objectid": {"objectid", "objectid_to_text", "objectid_from_text", "objectid_to_bytea", "bytea_to_objectid", "objectid_time", "objectid_min_at", "objectid_max_at", "objectid_time_encoder", "objectid_time_decoder"},
	}
	for part, names := range want {
		got := objects(part)
		for _, name := range names {
			if got[name] == 0 {
				t.Errorf("sortid sql %s does not create %s", part, name)
			}
		}
		for name := range got {
			if !strings.HasPrefix(strings.TrimPrefix(name, "bytea_to_"), part) {
				t.Errorf("sortid sql %s creates %s", part, name)
			}
		}
	}
	if s, _ := script([]string{"uuidv7"}); strings.Contains(s, "\nCREATE EXTENSION") {
		t.Error("sortid sql uuidv7 creates pgcrypto outside the branch for servers before 18")
	}
	all, both := objects(), objects("uuidv7", "ksuid", "objectid", "uuidv7")
	if len(all) != len(both) || len(all) < 20 {
		t.Errorf("all parts: %d objects; named (one twice): %d", len(all), len(both))
	}
	for name, n := range both {
		if n != all[name] {
			t.Errorf("%s: %d times with the parts named, %d with none", name, n, all[name])
		}
	}
	a, _ := script(nil)
	k, o, u := strings.Index(a, "-- The ksuid part."), strings.Index(a, "-- The objectid part."), strings.Index(a, "-- The uuidv7 part.")
	if !(0 < k && k < o && o < u && strings.HasSuffix(a, "\nCOMMIT;\n")) {
		t.Errorf("parts at %d, %d, %d; want ksuid, objectid, uuidv7, then COMMIT", k, o, u)
	}
	for _, bad := range []string{"", "KSUID", "uuid", "all", "ksuid,objectid"} {
		if _, err := Script("", bad); !errors.Is(err, ErrIDType) || !strings.Contains(err.Error(), "ID type ") {
			t.Errorf("Script(\"\", %q): %v, want ErrIDType", bad, err)
		}
	}
}
