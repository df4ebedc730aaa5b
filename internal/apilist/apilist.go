// Package apilist lists the exported API of Go packages, one declaration
// a line, in the shape of the Go repository's api/*.txt files:
//
//	pkg github.com/sortid/sortid/ksuid, func Parse(string) (KSUID, error)
//
// The project checks its listing in (api/sortid.txt) and compares it in
// a test, so that a change to the exported API is a deliberate diff. It
// type-checks from the export data `go list -export` writes, so it sees
// exactly what the compiler sees.
package apilist

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

type listed struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	Export     string
	Standard   bool
	Incomplete bool
	Error      *struct{ Err string }
}

// List returns the sorted API lines of the packages the patterns match,
// run by the go command in dir. Packages named main and packages with
// "internal" in their path are left out: they have no importable API.
func List(dir string, patterns ...string) ([]string, error) {
	args := append([]string{"list", "-export", "-deps", "-json=ImportPath,Name,Dir,GoFiles,Export,Standard,Incomplete,Error"}, patterns...)
	all, err := goList(dir, args)
	if err != nil {
		return nil, err
	}
	roots, err := goList(dir, append([]string{"list", "-json=ImportPath,Name"}, patterns...))
	if err != nil {
		return nil, err
	}
	exports := make(map[string]string, len(all))
	for _, p := range all {
		if p.Error != nil {
			return nil, fmt.Errorf("apilist: %s: %s", p.ImportPath, p.Error.Err)
		}
		exports[p.ImportPath] = p.Export
		// Stat the sources, so that go test's cache, which records
		// the files a test opens or stats, reruns a test of the
		// listing when one of them changes.
		if !p.Standard {
			for _, f := range p.GoFiles {
				os.Stat(filepath.Join(p.Dir, f))
			}
		}
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok || file == "" {
			return nil, fmt.Errorf("apilist: no export data for %q", path)
		}
		return os.Open(file)
	})
	var lines []string
	for _, r := range roots {
		if r.Name == "main" || strings.Contains(r.ImportPath, "internal") {
			continue
		}
		pkg, err := imp.Import(r.ImportPath)
		if err != nil {
			return nil, fmt.Errorf("apilist: %s: %w", r.ImportPath, err)
		}
		lines = append(lines, packageLines(pkg)...)
	}
	sort.Strings(lines)
	return lines, nil
}

func goList(dir string, args []string) ([]listed, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("apilist: go %s: %v: %s", strings.Join(args, " "), err, stderr.Bytes())
	}
	var pkgs []listed
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p listed
		if err := dec.Decode(&p); err != nil {
			return nil, fmt.Errorf("apilist: reading go list: %w", err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// packageLines lists one package's exported names.
func packageLines(pkg *types.Package) []string {
	prefix := "pkg " + pkg.Path() + ", "
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Path()
	}
	typ := func(t types.Type) string { return types.TypeString(t, qual) }
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, prefix+fmt.Sprintf(format, args...)) }

	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			add("const %s %s", name, typ(obj.Type()))
			add("const %s = %s", name, constValue(obj.Val()))
		case *types.Var:
			add("var %s %s", name, typ(obj.Type()))
		case *types.Func:
			sig := obj.Type().(*types.Signature)
			add("func %s%s%s", name, typeParams(sig.TypeParams(), typ), signature(sig, typ))
		case *types.TypeName:
			lines = append(lines, typeLines(prefix, obj, typ)...)
		}
	}
	return lines
}

func typeLines(prefix string, obj *types.TypeName, typ func(types.Type) string) []string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, prefix+fmt.Sprintf(format, args...)) }
	name := obj.Name()
	if obj.IsAlias() {
		add("type %s = %s", name, typ(types.Unalias(obj.Type())))
		return lines
	}
	named, ok := obj.Type().(*types.Named)
	if !ok {
		return lines
	}
	tparams := typeParams(named.TypeParams(), typ)
	switch u := named.Underlying().(type) {
	case *types.Struct:
		add("type %s%s struct", name, tparams)
		for i := range u.NumFields() {
			f := u.Field(i)
			if !f.Exported() {
				continue
			}
			if f.Embedded() {
				add("type %s struct, embedded %s", name, typ(f.Type()))
			} else {
				add("type %s struct, %s %s", name, f.Name(), typ(f.Type()))
			}
		}
	case *types.Interface:
		add("type %s%s interface { %s }", name, tparams, strings.Join(interfaceMethods(u), ", "))
		for i := range u.NumMethods() {
			m := u.Method(i)
			if m.Exported() {
				add("type %s interface, %s%s", name, m.Name(), signature(m.Type().(*types.Signature), typ))
			}
		}
	default:
		add("type %s%s %s", name, tparams, typ(u))
	}
	if _, isInterface := named.Underlying().(*types.Interface); isInterface {
		return lines // its methods are listed above
	}
	// Methods: those of T, then those only *T has.
	valueSet := types.NewMethodSet(named)
	for i := range valueSet.Len() {
		m := valueSet.At(i).Obj()
		if m.Exported() {
			add("method (%s) %s%s", name, m.Name(), signature(m.Type().(*types.Signature), typ))
		}
	}
	ptrSet := types.NewMethodSet(types.NewPointer(named))
	for i := range ptrSet.Len() {
		m := ptrSet.At(i).Obj()
		if m.Exported() && valueSet.Lookup(m.Pkg(), m.Name()) == nil {
			add("method (*%s) %s%s", name, m.Name(), signature(m.Type().(*types.Signature), typ))
		}
	}
	return lines
}

func interfaceMethods(u *types.Interface) []string {
	var names []string
	for i := range u.NumMethods() {
		if u.Method(i).Exported() {
			names = append(names, u.Method(i).Name())
		} else {
			names = append(names, "unexported methods")
		}
	}
	return names
}

func typeParams(tps *types.TypeParamList, typ func(types.Type) string) string {
	if tps.Len() == 0 {
		return ""
	}
	parts := make([]string, tps.Len())
	for i := range tps.Len() {
		tp := tps.At(i)
		parts[i] = tp.Obj().Name() + " " + typ(tp.Constraint())
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// signature prints a function's parameters and results without names,
// as the Go API files do.
func signature(sig *types.Signature, typ func(types.Type) string) string {
	params := tupleTypes(sig.Params(), sig.Variadic(), typ)
	s := "(" + strings.Join(params, ", ") + ")"
	results := tupleTypes(sig.Results(), false, typ)
	switch len(results) {
	case 0:
	case 1:
		s += " " + results[0]
	default:
		s += " (" + strings.Join(results, ", ") + ")"
	}
	return s
}

func tupleTypes(t *types.Tuple, variadic bool, typ func(types.Type) string) []string {
	out := make([]string, t.Len())
	for i := range t.Len() {
		pt := t.At(i).Type()
		if variadic && i == t.Len()-1 {
			out[i] = "..." + typ(pt.(*types.Slice).Elem())
			continue
		}
		out[i] = typ(pt)
	}
	return out
}

func constValue(v constant.Value) string {
	return v.ExactString()
}
