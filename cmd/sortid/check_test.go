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
