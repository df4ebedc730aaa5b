// Package modgraph tests what a program that imports only sortid's ID
// packages gets from the module graph, the README's claim: the go.mod
// files of the modules sortid's go.mod requires, listed by go list -m
// all, and the source of none of them.
package modgraph

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

func TestConsumerOfKSUID(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	// A module proxy made of this machine's module cache, then the
	// configured proxy for what the cache lacks (a fresh machine's cache
	// has the go.mod files of sortid's requirements but not their .info
	// files, which go list -m needs). A fresh module cache records what a
	// consumer downloads.
	goenv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	proxy := "file://" + filepath.Join(goenv("GOMODCACHE"), "cache", "download") + "," + goenv("GOPROXY")
	dir, cache := t.TempDir(), t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/consumer\n\ngo 1.26.0\n\nrequire github.com/sortid/sortid v0.0.0\n\nreplace github.com/sortid/sortid => "+root+"\n")
	write("main.go", "package main\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/sortid/sortid/ksuid\"\n\t\"github.com/sortid/sortid/objectid\"\n\t\"github.com/sortid/sortid/uuidv7\"\n)\n\nfunc main() { fmt.Println(ksuid.New(), objectid.New(), uuidv7.New()) }\n")
	run := func(args ...string) string {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOMODCACHE="+cache, "GOPROXY="+proxy, "GOSUMDB=off",
			"GOFLAGS=-mod=mod -modcacherw", "GOWORK=off", "GOTOOLCHAIN=local")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("mod", "tidy")
	run("build", "-o", os.DevNull, ".")
	listed := strings.Fields(run("list", "-m", "-f", "{{.Path}}", "all"))

	data, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"example.com/consumer", "github.com/sortid/sortid"}
	for _, r := range mf.Require {
		want = append(want, r.Mod.Path)
	}
	slices.Sort(want)
	slices.Sort(listed)
	if !slices.Equal(listed, want) {
		t.Errorf("go list -m all lists\n%s\nwant the consumer, sortid and what sortid's go.mod requires:\n%s",
			strings.Join(listed, "\n"), strings.Join(want, "\n"))
	}
	if !slices.Contains(listed, "github.com/stretchr/testify") {
		t.Error("testify is no longer listed: update the README's sentence that names it")
	}
	var zips, mods []string
	filepath.WalkDir(filepath.Join(cache, "cache", "download"), func(path string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case strings.HasSuffix(path, ".zip"):
			zips = append(zips, path)
		case strings.HasSuffix(path, ".mod"):
			mods = append(mods, path)
		}
		return nil
	})
	if len(zips) != 0 {
		t.Errorf("a consumer of ksuid, objectid and uuidv7 downloaded the source of %d modules, want none besides sortid's:\n%s", len(zips), strings.Join(zips, "\n"))
	}
	if len(mods) != len(mf.Require) {
		t.Errorf("downloaded %d go.mod files, want one for each of the %d modules sortid requires", len(mods), len(mf.Require))
	}
	// The README gives the count; it must be this one.
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	claim := fmt.Sprintf("`go.mod` files of the %d modules", len(mf.Require))
	if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), claim) {
		t.Errorf("README.md does not say %q", claim)
	}
	t.Logf("go list -m all: %d modules; downloaded: %d go.mod files, %d zips", len(listed), len(mods), len(zips))
}
