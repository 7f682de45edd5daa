package archtest

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// maxDepFields bounds the dependency fields of any struct under app/
// (issue 41's bound: the App's parts split into its edge, its features
// and readback's memory; never raise it).
// A dependency field is one through which a struct reaches other code: an
// interface, a func, a channel, a pointer to a named type with methods
// (but not to a pure package's value: a snapshot or a config is data), or a
// slice, map or struct of those (a bundle of ports counts once).
const maxDepFields = 10

// exemptDepStructs are configuration, not components: they carry the
// operator's settings (Options) and the tests' injected rules (Seams) to
// the wiring, which hands each feature only what it uses.
var exemptDepStructs = map[string]bool{
	"app.Options": true,
	"app.Seams":   true,
}

// exportedPkg is the part of `go list -export -json` the dependency rule needs.
type exportedPkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Export     string
	Standard   bool
}

// listExported lists pattern's packages and all their dependencies with
// their compiled export data (built by the go command if needed).
func listExported(t *testing.T, pattern string) map[string]exportedPkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-json", pattern)
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -export: %v", err)
	}
	pkgs := map[string]exportedPkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p exportedPkg
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("decode go list output: %v", err)
		}
		pkgs[p.ImportPath] = p
	}
	return pkgs
}

// depFields returns, for each named struct type of the package in files
// (type-checked with imp), the names of its dependency fields.
func depFields(fset *token.FileSet, path string, files []*ast.File, imp types.Importer) (map[string][]string, error) {
	conf := types.Config{Importer: imp, Error: func(error) {}}
	pkg, err := conf.Check(path, fset, files, nil)
	if err != nil {
		return nil, fmt.Errorf("type-check %s: %w", path, err)
	}
	out := map[string][]string{}
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok {
			continue
		}
		st, ok := tn.Type().Underlying().(*types.Struct)
		if !ok {
			continue
		}
		for f := range st.Fields() {
			if isDep(f.Type(), 0) {
				out[name] = append(out[name], f.Name())
			}
		}
	}
	return out, nil
}

// isDep reports whether a field of type t reaches other code.
func isDep(t types.Type, depth int) bool {
	if depth > 3 {
		return false
	}
	switch u := t.Underlying().(type) {
	case *types.Interface, *types.Signature, *types.Chan:
		return true
	case *types.Pointer:
		if n, ok := types.Unalias(u.Elem()).(*types.Named); ok {
			if pkg := n.Obj().Pkg(); pkg != nil && pure(rel(pkg.Path())) && strings.HasPrefix(pkg.Path(), module) {
				return false // a pure package's value: data, not a dependency
			}
			return n.NumMethods() > 0 || isDep(n, depth+1)
		}
		return isDep(u.Elem(), depth+1)
	case *types.Slice:
		return isDep(u.Elem(), depth+1)
	case *types.Map:
		return isDep(u.Elem(), depth+1)
	case *types.Struct:
		for f := range u.Fields() {
			if isDep(f.Type(), depth+1) {
				return true
			}
		}
	}
	return false
}

// exportImporter imports packages from the export data go list reported.
func exportImporter(fset *token.FileSet, pkgs map[string]exportedPkg) types.Importer {
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		p, ok := pkgs[path]
		if !ok || p.Export == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(p.Export)
	})
}

// overDeps lists the structs of the packages under prefix with more than
// limit dependency fields, biggest first, and the largest one seen.
func overDeps(t *testing.T, prefix string, limit int) (over []string, largest string) {
	t.Helper()
	pkgs := listExported(t, module+"/"+prefix+"/...")
	fset := token.NewFileSet()
	imp := exportImporter(fset, pkgs)
	most := -1
	var paths []string
	for path, p := range pkgs {
		if under(rel(path), prefix) && strings.HasPrefix(path, module) {
			paths = append(paths, path)
			_ = p
		}
	}
	slices.Sort(paths)
	for _, path := range paths {
		p := pkgs[path]
		var files []*ast.File
		for _, f := range p.GoFiles {
			af, err := parser.ParseFile(fset, filepath.Join(p.Dir, f), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, af)
		}
		deps, err := depFields(fset, path, files, imp)
		if err != nil {
			t.Fatal(err)
		}
		short := filepath.Base(path)
		for name, fields := range deps {
			id := short + "." + name
			if exemptDepStructs[id] {
				continue
			}
			if len(fields) > most {
				most, largest = len(fields), fmt.Sprintf("%s %s: %d", rel(path), name, len(fields))
			}
			if len(fields) > limit {
				over = append(over, fmt.Sprintf("%s %s: %d dependency fields (%s)", rel(path), name, len(fields), strings.Join(fields, ", ")))
			}
		}
	}
	slices.Sort(over)
	return over, largest
}

// TestNoStructHoldsTheHouse: no struct under app/ has more than
// maxDepFields dependency fields; split it into the parts that use them.
func TestNoStructHoldsTheHouse(t *testing.T) {
	over, largest := overDeps(t, "app", maxDepFields)
	t.Logf("largest struct under app/: %s", largest)
	if len(over) > 0 {
		t.Errorf("structs under app/ with more than %d dependency fields:\n%s", maxDepFields, strings.Join(over, "\n"))
	}
}

// TestDepFieldRuleCanFail: a planted struct with three ports, a logger
// pointer, a bundle of funcs and plain values counts five dependency
// fields.
func TestDepFieldRuleCanFail(t *testing.T) {
	src := `package p
import "log/slog"
type port interface{ Do() error }
type bundle struct{ read func() error; n int }
type big struct {
	a, b port
	f    func(int) error
	log  *slog.Logger
	ports bundle
	name string
	n    int
	tags []string
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkgs := listExported(t, "log/slog")
	got, err := depFields(fset, "p", []*ast.File{f}, exportImporter(fset, pkgs))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"a", "b", "f", "log", "ports"}
	if !slices.Equal(got["big"], want) {
		t.Errorf("dependency fields of big = %v, want %v", got["big"], want)
	}
}
