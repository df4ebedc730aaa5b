package sortid_test

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// sqlFunctions returns the functions a script creates, with the line that
// gives each one's language and volatility.
func sqlFunctions(t *testing.T, file string, create *regexp.Regexp) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]string{}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines {
		m := create.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		for _, next := range lines[i:] {
			if j := strings.Index(next, "LANGUAGE "); j >= 0 {
				funcs[m[1]] = strings.TrimSpace(next[j:])
				break
			}
		}
	}
	return funcs
}

// typeSupport is the suffix of the extension's functions that implement
// its types (input, output, operators, index support), which users do
// not call.
var typeSupport = regexp.MustCompile(`_(?:in|out|recv|send|cmp|eq|ne|lt|le|gt|ge|hash|hash_extended|sortsupport|larger|smaller)$`)

// TestDocsNameTheSQLFunctions: every SQL function the domains' script and
// the extension create for users is named in docs/postgresql.md, and
// every function of sortid's that README.md, docs/ or sqltype's and
// pgsql's package documentation name exists in a script (a doc naming a
// withdrawn function fails). The domains' functions are all IMMUTABLE
// STRICT PARALLEL SAFE but the two generators, as docs/postgresql.md
// says.
func TestDocsNameTheSQLFunctions(t *testing.T) {
	domains := map[string]string{}
	for _, f := range []string{"pgsql/install_ksuid.sql", "pgsql/install_objectid.sql", "pgsql/install_uuidv7.sql"} {
		for name, lang := range sqlFunctions(t, f, regexp.MustCompile(`FUNCTION @SCHEMA@(\w+)\(`)) {
			domains[name] = lang
		}
	}
	extension := sqlFunctions(t, "extension/sql/sortid--0.1.0.sql", regexp.MustCompile(`^CREATE FUNCTION (\w+)\(`))
	if domains["ksuid_min_at"] == "" || extension["ksuid_generate"] == "" {
		t.Fatalf("the scripts were not read: %d domain functions, %d extension functions", len(domains), len(extension))
	}
	var generators []string
	for name, lang := range domains {
		if !strings.Contains(lang, "IMMUTABLE STRICT PARALLEL SAFE") {
			generators = append(generators, name)
		}
	}
	sort.Strings(generators)
	if strings.Join(generators, " ") != "ksuid_generate uuidv7_generate" {
		t.Errorf("the domains' functions that are not IMMUTABLE STRICT PARALLEL SAFE: %v; docs/postgresql.md names ksuid_generate and uuidv7_generate", generators)
	}

	postgres, err := os.ReadFile("docs/postgresql.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, funcs := range []map[string]string{domains, extension} {
		for name := range funcs {
			if typeSupport.MatchString(name) {
				continue
			}
			if !regexp.MustCompile("`" + name + `\b`).Match(postgres) {
				t.Errorf("docs/postgresql.md does not name the SQL function %s", name)
			}
		}
	}

	files, _ := filepath.Glob("docs/*.md")
	files = append(files, "README.md", "sqltype/doc.go", "pgsql/doc.go")
	called := regexp.MustCompile(`\b((?:ksuid|objectid|uuidv7|bytea_to)_\w+)\(`)
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range called.FindAllSubmatch(data, -1) {
			name := string(m[1])
			if domains[name] == "" && extension[name] == "" {
				t.Errorf("%s calls %s(), which neither the domains' script nor the extension creates", file, name)
			}
			checked++
		}
	}
	if checked < 20 {
		t.Fatalf("only %d SQL function calls found in the docs: the pattern is broken", checked)
	}
}

// TestREADMEIsShort: the README is what a user reads first; it stays at
// most 150 lines, and the rest goes in docs/.
func TestREADMEIsShort(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), "\n"); n > 150 {
		t.Errorf("README.md is %d lines; keep it at most 150", n)
	}
}
