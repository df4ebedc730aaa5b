package sortid_test

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/sortid/sortid/internal/apilist"
)

var updateAPI = flag.Bool("update-api", false, "rewrite api/sortid.txt from the packages")

// TestAPI compares the exported API of every package with the checked-in
// listing, api/sortid.txt, so that a change to it is a deliberate diff in
// a commit. After a deliberate change: go test -run TestAPI -update-api .
func TestAPI(t *testing.T) {
	lines, err := apilist.List(".", "./...")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(lines, "\n") + "\n"
	const file = "api/sortid.txt"
	if *updateAPI {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got == string(want) {
		return
	}
	have := make(map[string]bool)
	for _, l := range strings.Split(strings.TrimSuffix(string(want), "\n"), "\n") {
		have[l] = true
	}
	for _, l := range lines {
		if !have[l] {
			t.Errorf("new in the API, not in %s: %s", file, l)
		}
		delete(have, l)
	}
	for l := range have {
		t.Errorf("in %s, gone from the API: %s", file, l)
	}
	t.Log("if the change is deliberate: go test -run TestAPI -update-api . and commit the listing")
}
