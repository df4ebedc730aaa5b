// Package modgraph tests what a program that imports sortid gets from the
// module graph, the README's claims: a program that imports only the ID
// packages lists sortid alone in go list -m all and downloads nothing, and
// one that imports sqltype gets pgx's graph and nothing of MongoDB or GORM.
package modgraph

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/modfile"
)

// consumer is a module outside the repository that requires sortid's
// modules at this checkout (replace directives) and builds main.go.
type consumer struct {
	t          *testing.T
	dir, cache string
	proxy      string
}

func newConsumer(t *testing.T, root, main string, modules ...string) *consumer {
	t.Helper()
	// A module proxy made of this machine's module cache, then the
	// configured proxy for what the cache lacks (a fresh machine's cache
	// has the go.mod files of the drivers but not their .info files,
	// which go list -m needs). A fresh module cache records what a
	// consumer downloads.
	goenv := func(name string) string {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(string(out))
	}
	c := &consumer{t: t, dir: t.TempDir(), cache: t.TempDir(),
		proxy: "file://" + filepath.Join(goenv("GOMODCACHE"), "cache", "download") + "," + goenv("GOPROXY")}
	mod := "module example.com/consumer\n\ngo 1.26.0\n\n"
	for _, m := range modules {
		path := "github.com/sortid/sortid"
		if m != "." {
			path += "/" + m
		}
		mod += "require " + path + " v0.0.0\n\nreplace " + path + " => " + filepath.Join(root, m) + "\n\n"
	}
	c.write("go.mod", mod)
	c.write("main.go", main)
	return c
}

func (c *consumer) write(name, text string) {
	if err := os.WriteFile(filepath.Join(c.dir, name), []byte(text), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

func (c *consumer) run(args ...string) string {
	c.t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "GOMODCACHE="+c.cache, "GOPROXY="+c.proxy, "GOSUMDB=off",
		"GOFLAGS=-mod=mod -modcacherw", "GOWORK=off", "GOTOOLCHAIN=local")
	out, err := cmd.CombinedOutput()
	if err != nil {
		c.t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// modules tidies and builds the consumer and returns go list -m all.
func (c *consumer) modules() []string {
	c.run("mod", "tidy")
	c.run("build", "-o", os.DevNull, ".")
	return c.graph()
}

// graph returns go list -m all of the consumer as its go.mod stands.
func (c *consumer) graph() []string {
	listed := strings.Fields(c.run("list", "-m", "-f", "{{.Path}}", "all"))
	slices.Sort(listed)
	return listed
}

// downloads returns the module zips and go.mod files the consumer's
// commands fetched.
func (c *consumer) downloads() (zips, mods []string) {
	filepath.WalkDir(filepath.Join(c.cache, "cache", "download"), func(path string, d os.DirEntry, err error) error {
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
	return zips, mods
}

func requires(t *testing.T, gomod string) []string {
	var paths []string
	for _, r := range requireLines(t, gomod) {
		paths = append(paths, r.Mod.Path)
	}
	return paths
}

func requireLines(t *testing.T, gomod string) []*modfile.Require {
	data, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return mf.Require
}

func root(t *testing.T) string {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestConsumerOfIDPackages(t *testing.T) {
	root := root(t)
	if r := requires(t, filepath.Join(root, "go.mod")); len(r) != 0 {
		t.Errorf("the core module's go.mod requires %v, want nothing", r)
	}
	c := newConsumer(t, root, `package main

import (
	"fmt"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/objectid"
	"github.com/sortid/sortid/uuidv7"
)

func main() { fmt.Println(ksuid.New(), objectid.New(), uuidv7.New()) }
`, ".")
	listed := c.modules()
	if want := []string{"example.com/consumer", "github.com/sortid/sortid"}; !slices.Equal(listed, want) {
		t.Errorf("go list -m all lists\n%s\nwant only the consumer and sortid", strings.Join(listed, "\n"))
	}
	if zips, mods := c.downloads(); len(zips)+len(mods) != 0 {
		t.Errorf("a consumer of ksuid, objectid and uuidv7 downloaded %d module zips and %d go.mod files, want none:\n%s",
			len(zips), len(mods), strings.Join(append(zips, mods...), "\n"))
	}
}

func TestConsumerOfSQLType(t *testing.T) {
	root := root(t)
	c := newConsumer(t, root, `package main

import (
	"fmt"

	"github.com/sortid/sortid/ksuid"
	"github.com/sortid/sortid/sqltype"
)

func main() { fmt.Println(ksuid.New(), sqltype.AfterConnect != nil) }
`, ".", "sqltype")
	listed := c.modules()
	// pgx's graph: what a program that imports pgx alone, at the version
	// sqltype requires, lists.
	var pgxVersion string
	for _, r := range requireLines(t, filepath.Join(root, "sqltype", "go.mod")) {
		if r.Mod.Path == "github.com/jackc/pgx/v5" {
			pgxVersion = r.Mod.Version
		}
	}
	pgxOnly := newConsumer(t, root, `package main

import (
	"fmt"

	"github.com/jackc/pgx/v5"
)

func main() { fmt.Println(pgx.ErrNoRows) }
`)
	pgxOnly.write("go.mod", "module example.com/consumer\n\ngo 1.26.0\n\nrequire github.com/jackc/pgx/v5 "+pgxVersion+"\n")
	pgxOnly.run("mod", "tidy")
	want := append(pgxOnly.graph(), "github.com/sortid/sortid", "github.com/sortid/sortid/sqltype")
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("go list -m all lists\n%s\nwant pgx's graph (a consumer of pgx %s alone), sortid and sqltype:\n%s",
			strings.Join(listed, "\n"), pgxVersion, strings.Join(want, "\n"))
	}
	if !slices.Contains(listed, "github.com/jackc/pgx/v5") {
		t.Error("pgx is not listed: the consumer did not build against sqltype")
	}
	for _, m := range listed {
		for _, other := range []string{"go.mongodb.org/", "gorm.io/", "github.com/sortid/sortid/bsoncodec", "github.com/sortid/sortid/gormplugin"} {
			if strings.HasPrefix(m, other) {
				t.Errorf("a consumer of sqltype lists %s", m)
			}
		}
	}
	t.Logf("go list -m all: %d modules", len(listed))
}
