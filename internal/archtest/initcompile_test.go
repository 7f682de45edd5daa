package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// compiling are the functions that compile a pattern or a template: called
// while a package initialises, every command of the binary would pay for
// them at start-up, used or not (docs/run-documents.md, "Speed and
// memory"). A pattern is compiled on first use instead (sync.OnceValue,
// rundoc.Lazy).
var compiling = map[string]bool{
	"MustCompile": true, "Compile": true, "MustCompilePOSIX": true, "CompilePOSIX": true,
	"Must": true, "compileASCII": true,
}

// TestNothingCompiledAtInit: no package of this module that the product
// binary links compiles a pattern or template in a package-level variable's
// initialiser or in an init function. It reads the calls written there, so
// a compile reached through a helper (var x = helper()) escapes it;
// GODEBUG=inittrace=1 on the binary shows such a cost.
func TestNothingCompiledAtInit(t *testing.T) {
	pkgs := listPackages(t)
	bin := productBinary(t, pkgs)
	n := 0
	for _, p := range pkgs {
		if p.ImportPath != bin.ImportPath && !slices.Contains(bin.Deps, p.ImportPath) {
			continue
		}
		for _, f := range p.GoFiles {
			n++
			for _, v := range initCompiles(t, filepath.Join(p.Dir, f), nil) {
				t.Error(v)
			}
		}
	}
	if n == 0 {
		t.Fatal("no file of the module was read: the test would prove nothing")
	}
}

// initCompiles parses the Go file at path (or src, when not nil) and lists
// the compiling calls that run while its package initialises.
func initCompiles(t *testing.T, path string, src any) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	visit := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncLit:
				return false // runs when called, not at init
			case *ast.CallExpr:
				if name := calledName(n.Fun); compiling[name] {
					out = append(out, fmt.Sprintf("%s: %s runs at init; compile on first use (sync.OnceValue, rundoc.Lazy)", fset.Position(n.Pos()), name))
				}
			}
			return true
		})
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.VAR {
				visit(d)
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == "init" {
				visit(d.Body)
			}
		}
	}
	return out
}

// calledName is the name of the function a call expression calls.
func calledName(fun ast.Expr) string {
	switch f := fun.(type) {
	case *ast.Ident:
		return f.Name
	case *ast.SelectorExpr:
		return f.Sel.Name
	}
	return ""
}

// TestNothingCompiledAtInitCanFail is its negative control: planted
// compiles at init are each caught, and the lazy forms are not.
func TestNothingCompiledAtInitCanFail(t *testing.T) {
	src := `package p
import ("regexp"; "sync"; "text/template")
var eager = regexp.MustCompile("a+")
var (
	lazy  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("b+") })
	tmpl  = template.Must(template.New("x").Parse("{{.}}"))
	plain = "MustCompile"
)
func init() { _ = regexp.MustCompile("c+") }
func later() { _ = regexp.MustCompile("d+") }
`
	got := initCompiles(t, "planted.go", src)
	if len(got) != 3 {
		t.Errorf("caught %d planted compiles at init, want 3 (eager, tmpl, init):\n%s", len(got), strings.Join(got, "\n"))
	}
}
