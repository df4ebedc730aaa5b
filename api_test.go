package sortid_test

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/sortid/sortid/internal/apilist"
)

var updateAPI = flag.Bool("update-api", false, "rewrite api/sortid.txt from the packages")

// libraryModules are the directories of the modules released together:
// the core and the adapters (scripts/gomodules.sh names the same).
var libraryModules = []string{".", "sqltype", "bsoncodec", "gormplugin"}

// TestAPI compares the exported API of every package of every library
// module with the checked-in listing, api/sortid.txt, so that a change to
// it is a deliberate diff in a commit. After a deliberate change:
// go test -run TestAPI -update-api .
func TestAPI(t *testing.T) {
	var lines []string
	for _, dir := range libraryModules {
		l, err := apilist.List(dir, "./...")
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		lines = append(lines, l...)
	}
	slices.Sort(lines)
	if len(lines) == 0 || !slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, "pkg github.com/sortid/sortid/gormplugin,") }) {
		t.Fatal("the listing has nothing of gormplugin: a module is missing from libraryModules")
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
