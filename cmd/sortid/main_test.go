package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/sortid/sortid/ksuid"
)

func TestRunPrintsNewKSUID(t *testing.T) {
	var out bytes.Buffer
	before := time.Now().Truncate(time.Second)
	if err := run(&out); err != nil {
		t.Fatal(err)
	}
	line, ok := strings.CutSuffix(out.String(), "\n")
	if !ok || strings.Contains(line, "\n") {
		t.Fatalf("output %q is not one line", out.String())
	}
	id, err := ksuid.Parse(line)
	if err != nil {
		t.Fatalf("output %q is not a KSUID: %v", line, err)
	}
	if id.Time().Before(before) || id.Time().After(time.Now()) {
		t.Errorf("KSUID time %v is not now", id.Time())
	}
}
