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
	names := regexp.MustCompile(`(@SCHEMA@)?\b((?:ksuid|objectid|uuidv7)(?:_[a-z_]+)?)\b(\s*\(|\s+AS\b|\s+IS\b|\s+LANGUAGE|;|,|\s*$)`)
	literal := regexp.MustCompile(`'[^']*'`)
	builtin := regexp.MustCompile(`pg_catalog\.\w+`) // PostgreSQL 18's uuidv7()
	// Constraint names belong to their domain and take no schema; a quoted
	// name is advice text.
	constraint := regexp.MustCompile(`CONSTRAINT \w+|"[^"]*"`)
	for i, line := range strings.Split(script, "\n") {
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
