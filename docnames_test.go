package sortid_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsNameTheAPI: every `pkg.Name` of sortid's packages that
// CHANGELOG.md, README.md or docs/ mention exists in api/sortid.txt,
// except where the line says it was removed (and in the CHANGELOG's table
// of removed names). A doc that lists a removed name as a feature fails.
func TestDocsNameTheAPI(t *testing.T) {
	listing, err := os.ReadFile("api/sortid.txt")
	if err != nil {
		t.Fatal(err)
	}
	exported := map[string]bool{}
	decl := regexp.MustCompile(`^pkg github\.com/sortid/sortid/(\w+), (?:func|type|var|const) (\w+)`)
	method := regexp.MustCompile(`^pkg github\.com/sortid/sortid/(\w+), method \(\*?(\w+)\) (\w+)`)
	for _, l := range strings.Split(string(listing), "\n") {
		if m := decl.FindStringSubmatch(l); m != nil {
			exported[m[1]+"."+m[2]] = true
		}
		if m := method.FindStringSubmatch(l); m != nil {
			exported[m[1]+"."+m[2]+"."+m[3]] = true
		}
	}
	if !exported["uuidv7.Window"] || !exported["bsoncodec.KSUIDField.Eq"] {
		t.Fatal("the listing was not read: uuidv7.Window or bsoncodec.KSUIDField.Eq is missing")
	}
	files, _ := filepath.Glob("docs/*.md")
	files = append(files, "README.md", "CHANGELOG.md")
	named := regexp.MustCompile("`(?:ksuid|objectid|uuidv7|sqltype|bsoncodec|gormplugin)\\.[A-Z]\\w*(?:\\.[A-Z]\\w*)?")
	checked := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		// A paragraph or list item that says "removed" may name what
		// was removed; a table whose first column is another library's
		// (or the removed names) is checked in its other columns only.
		lines := strings.Split(string(data), "\n")
		blockSaysRemoved := func(i int) bool {
			for j := i; j >= 0 && lines[j] != "" && !strings.HasPrefix(lines[j], "|"); j-- {
				if strings.Contains(strings.ToLower(lines[j]), "removed") {
					return true
				}
				if strings.HasPrefix(lines[j], "- ") {
					break
				}
			}
			for j := i + 1; j < len(lines) && lines[j] != "" && !strings.HasPrefix(lines[j], "- ") && !strings.HasPrefix(lines[j], "|"); j++ {
				if strings.Contains(strings.ToLower(lines[j]), "removed") {
					return true
				}
			}
			return false
		}
		peerTable := false
		for i, line := range lines {
			text := line
			if strings.HasPrefix(line, "|") {
				cells := strings.Split(line, "|")
				if i == 0 || !strings.HasPrefix(lines[i-1], "|") {
					first := strings.TrimSpace(cells[1])
					peerTable = strings.HasPrefix(first, "removed") || first == "segmentio/ksuid" || strings.HasPrefix(first, "mongo-driver")
				}
				if peerTable && len(cells) > 2 {
					text = strings.Join(cells[2:], "|")
				}
			} else if blockSaysRemoved(i) {
				continue
			}
			for _, m := range named.FindAllString(text, -1) {
				name := strings.TrimPrefix(m, "`")
				checked++
				if !exported[name] {
					// Type.Method, or a package name then a field.
					if parts := strings.Split(name, "."); len(parts) == 3 && exported[parts[0]+"."+parts[1]] {
						continue
					}
					t.Errorf("%s:%d names %s, which is not in the API", file, i+1, name)
				}
			}
		}
	}
	t.Logf("%d names checked", checked)
}

// TestPackageDocs: each doc.go of the library holds its package's whole
// documentation, starting "Package <name>". A blank line inside the
// comment cuts it there: go doc then shows only the part next to the
// package clause (bsoncodec once showed only "Null and omitempty").
func TestPackageDocs(t *testing.T) {
	files, _ := filepath.Glob("*/doc.go")
	files = append(files, "doc.go")
	if len(files) < 8 {
		t.Fatalf("found %d doc.go files: %v", len(files), files)
	}
	for _, file := range files {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments|parser.PackageClauseOnly)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc == nil || !strings.HasPrefix(f.Doc.Text(), "Package "+f.Name.Name+" ") {
			t.Errorf("%s: the package documentation does not start with %q (a blank line in the comment cuts it)", file, "Package "+f.Name.Name)
		}
	}
}
