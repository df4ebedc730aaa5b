package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckCannotCheck: sortid check says why it could not read a
// database, with exit status 3 (neither "no finding", 0, nor "findings",
// 1), and a wrong command line is 2. A psql that prints what is not
// CheckQuery's result is not taken for a clean database.
func TestCheckCannotCheck(t *testing.T) {
	if _, stderr, code := sortid(t, "", "check", "-h"); code != exitOK || !strings.Contains(stderr, "Usage: sortid check") || !strings.Contains(stderr, "3 when the database could not be read") {
		t.Errorf("sortid check -h: %d, %q", code, stderr)
	}
	if _, stderr, code := sortid(t, "", "check"); code != exitUsage || !strings.Contains(stderr, "one PostgreSQL connection string") {
		t.Errorf("sortid check: %d, %q; want %d", code, stderr, exitUsage)
	}
	if _, stderr, code := sortid(t, "", "check", "--psql", "/nonexistent/psql", "postgres://x"); code != exitCannotCheck || !strings.Contains(stderr, "install the PostgreSQL client") {
		t.Errorf("no psql: %d, %q; want %d", code, stderr, exitCannotCheck)
	}
	fake := filepath.Join(t.TempDir(), "psql")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\ncat >/dev/null\necho 'BEGIN'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, stderr, code := sortid(t, "", "check", "--psql", fake, "postgres://x"); code != exitCannotCheck || !strings.Contains(stderr, "not the result of CheckQuery") {
		t.Errorf("psql printing something else: %d, %q, %q; want %d", code, out, stderr, exitCannotCheck)
	}
}

// TestCheckMongoDB: a mongodb:// URI goes to sortid-check-mongodb, whose
// output and exit status come back as they are; where it is missing,
// sortid check says how to install it.
func TestCheckMongoDB(t *testing.T) {
	if _, stderr, code := sortid(t, "", "check", "--mongodb", "/nonexistent/sortid-check-mongodb", "mongodb://x/db"); code != exitCannotCheck || !strings.Contains(stderr, "go install github.com/sortid/sortid/bsoncodec/cmd/sortid-check-mongodb") {
		t.Errorf("no sortid-check-mongodb: %d, %q; want %d", code, stderr, exitCannotCheck)
	}
	fake := filepath.Join(t.TempDir(), "sortid-check-mongodb")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho \"args: $*\"\necho oops >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, uri := range []string{"mongodb://x/db", "mongodb+srv://x/db"} {
		out, stderr, code := sortid(t, "", "check", "--json", "--mongodb", fake, uri)
		if code != exitError || out != "args: --json "+uri+"\n" || stderr != "oops\n" {
			t.Errorf("check --json %s: %d, %q, %q; want 1, the program's output", uri, code, out, stderr)
		}
	}
}
