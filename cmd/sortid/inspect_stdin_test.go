package main

import (
	"strings"
	"testing"
)

// TestInspectLongLines feeds inspect lines far longer than any ID between
// good ones: every good ID is still decoded, and stderr quotes no more of
// the garbage than the library quotes of a bad ID.
func TestInspectLongLines(t *testing.T) {
	input := "0qjBBlJIfbVLKwnJn4xpLGDr00e\n" +
		strings.Repeat("x", 100<<10) + "\n" +
		"60c468e6101bf215dc9fa835\n" +
		strings.Repeat("y", 2<<20) + "\n" +
		strings.Repeat("z", 1000) + "\n" +
		"aWgEPTl1tmebfsQzFP4bxwgy80V" // no newline at the end
	var stdout, stderr strings.Builder
	code := run([]string{"inspect"}, strings.NewReader(input), &stdout, &stderr)
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	for _, id := range []string{"0qjBBlJIfbVLKwnJn4xpLGDr00e", "60c468e6101bf215dc9fa835", "aWgEPTl1tmebfsQzFP4bxwgy80V"} {
		if !strings.Contains(stdout.String(), id+"\n") {
			t.Errorf("%s not decoded; stdout:\n%s", id, stdout.String())
		}
	}
	if n := strings.Count(stderr.String(), "\n"); n != 3 {
		t.Errorf("%d error lines, want 3:\n%s", n, stderr.String())
	}
	if len(stderr.String()) > 1000 {
		t.Errorf("stderr is %d bytes for 2 MB of garbage; want the input quoted bounded", len(stderr.String()))
	}
	if !strings.Contains(stderr.String(), "line 2 ") || !strings.Contains(stderr.String(), "line 4 ") {
		t.Errorf("stderr does not name the long lines:\n%s", stderr.String())
	}
}
