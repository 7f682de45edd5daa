package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The house's size limits (issue 25's quality bar): no product function
// is long or branchy enough to hide a second one.
const (
	maxFuncLines  = 50
	maxComplexity = 15
)

// productFiles are the non-test Go files of the product: every package
// but the test infrastructure (internal/testkit, internal/archtest).
func productFiles(t *testing.T, pkgs []pkgInfo) []string {
	t.Helper()
	var files []string
	for _, p := range pkgs {
		r := rel(p.ImportPath)
		if under(r, "internal/testkit") || under(r, "internal/archtest") {
			continue
		}
		for _, f := range p.GoFiles {
			files = append(files, filepath.Join(p.Dir, f))
		}
	}
	return files
}

// complexity is a function's cyclomatic complexity as gocyclo counts it:
// one, plus one per if, for, range, non-default case or select clause,
// && and ||.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if n.List != nil {
				c++
			}
		case *ast.CommClause:
			if n.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if n.Op == token.LAND || n.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// oversized lists the functions of files over maxLines lines or
// maxComplex cyclomatic complexity.
func oversized(fset *token.FileSet, files map[string]*ast.File, maxLines, maxComplex int) []string {
	var out []string
	for name, f := range files {
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			lines := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line
			if c := complexity(fn); lines > maxLines || c > maxComplex {
				out = append(out, fmt.Sprintf("%s %s: %d lines, complexity %d", name, fn.Name.Name, lines, c))
			}
		}
	}
	slices.Sort(out)
	return out
}

func parseFiles(t *testing.T, fset *token.FileSet, paths []string) map[string]*ast.File {
	t.Helper()
	files := map[string]*ast.File{}
	for _, p := range paths {
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files[p] = f
	}
	return files
}

// TestFunctionsStaySmall: no product function is over maxFuncLines lines
// or cyclomatic complexity maxComplexity.
func TestFunctionsStaySmall(t *testing.T) {
	fset := token.NewFileSet()
	if big := oversized(fset, parseFiles(t, fset, productFiles(t, listPackages(t))), maxFuncLines, maxComplexity); len(big) > 0 {
		t.Errorf("product functions over %d lines or complexity %d:\n%s", maxFuncLines, maxComplexity, strings.Join(big, "\n"))
	}
}

// TestFunctionRuleCanFail: a function of four branches is reported under
// limits it passes, and passes the real ones.
func TestFunctionRuleCanFail(t *testing.T) {
	src := "package p\nfunc f(a, b bool, x int) int {\n\tif a && b {\n\t\treturn 1\n\t}\n\tswitch x {\n\tcase 1:\n\t\treturn 2\n\tdefault:\n\t}\n\tfor range x {\n\t}\n\treturn 0\n}\n"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]*ast.File{"p.go": f}
	if got := oversized(fset, files, 5, 15); len(got) != 1 || !strings.Contains(got[0], "complexity 5") {
		t.Errorf("under a 5-line limit: %v, want f reported with complexity 5", got)
	}
	if got := oversized(fset, files, 50, 4); len(got) != 1 {
		t.Errorf("under complexity 4: %v, want f reported", got)
	}
	if got := oversized(fset, files, maxFuncLines, maxComplexity); len(got) != 0 {
		t.Errorf("under the real limits: %v, want none", got)
	}
}

// maxAppRootLines bounds the app root package's non-test Go: wiring (New,
// Run, Handler, Options, each installation's judges) and the runner of
// typed work; a feature goes in a package under app/ (the pull-request
// pipeline is app/pull, the owners' gates app/gates). It is a ratchet at
// the root's size once those two moved out (issue 41 asks for at most
// 800): lower it as the root shrinks, never raise it.
const maxAppRootLines = 784

// rootLines counts the lines of the non-test Go files in dir.
func rootLines(t *testing.T, dir string) int {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range paths {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(b), "\n")
	}
	return n
}

// TestAppRootStaysWiring: the app root stays within maxAppRootLines.
func TestAppRootStaysWiring(t *testing.T) {
	if n := rootLines(t, "../../app"); n > maxAppRootLines {
		t.Errorf("the app root has %d lines of non-test Go, over %d: move a feature into its own package under app/", n, maxAppRootLines)
	}
}

// TestAppRootRuleCanFail: rootLines counts a root's Go files and not its
// tests, so a root grown past the limit is caught.
func TestAppRootRuleCanFail(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines int) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat("//\n", lines)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.go", maxAppRootLines)
	write("a_test.go", 500)
	if got := rootLines(t, dir); got != maxAppRootLines {
		t.Fatalf("rootLines = %d, want %d (tests not counted)", got, maxAppRootLines)
	}
	write("b.go", 1)
	if got := rootLines(t, dir); got <= maxAppRootLines {
		t.Errorf("a root of %d lines passes the limit of %d", got, maxAppRootLines)
	}
}
