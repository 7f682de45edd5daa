package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
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
// binaries (cmd/aepgate and cmd/aepgate-app) link compiles a pattern or template in a package-level variable's
// initialiser or in an init function, whether it calls a compiling function
// itself or through a helper of this module that does (var x = helper(),
// across packages too, however deep). A compile hidden in a library
// outside the module escapes it; GODEBUG=inittrace=1 on the binary shows
// such a cost.
func TestNothingCompiledAtInit(t *testing.T) {
	pkgs := listPackages(t)
	bin, appBin := productBinary(t, pkgs), appBinary(t, pkgs)
	linked := func(p pkgInfo) bool {
		return p.ImportPath == bin.ImportPath || slices.Contains(bin.Deps, p.ImportPath) ||
			p.ImportPath == appBin.ImportPath || slices.Contains(appBin.Deps, p.ImportPath)
	}
	var srcs []pkgSource
	for _, p := range pkgs {
		if !linked(p) {
			continue
		}
		ps := pkgSource{path: p.ImportPath}
		for _, f := range p.GoFiles {
			ps.files = append(ps.files, fileSource{name: filepath.Join(p.Dir, f)})
		}
		srcs = append(srcs, ps)
	}
	got := initCompiles(t, srcs)
	for _, v := range got.violations {
		t.Error(v)
	}
	if got.files == 0 {
		t.Fatal("no file of the module was read: the test would prove nothing")
	}
}

// pkgSource is one package's Go files; fileSource is one file, read from
// name unless src is set.
type pkgSource struct {
	path  string
	files []fileSource
}

type fileSource struct {
	name string
	src  any
}

// compileScan is what initCompiles found: the compiles that run at init and
// how many files it read.
type compileScan struct {
	violations []string
	files      int
}

// parsedFile is a file with the import paths its names stand for.
type parsedFile struct {
	pkg     string
	f       *ast.File
	imports map[string]string // local name → import path
}

// initCompiles parses the packages and lists the compiling calls that run
// while they initialise: a call to a compiling function, or to a function
// of these packages whose body (not counting function literals, which run
// when called) makes such a call.
func initCompiles(t *testing.T, pkgs []pkgSource) compileScan {
	t.Helper()
	fset := token.NewFileSet()
	var files []parsedFile
	for _, p := range pkgs {
		for _, fs := range p.files {
			f, err := parser.ParseFile(fset, fs.name, fs.src, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, parsedFile{pkg: p.path, f: f, imports: importNames(f)})
		}
	}
	helpers := compilingHelpers(files)
	out := compileScan{files: len(files)}
	for _, pf := range files {
		visit := func(n ast.Node) {
			eachCall(n, func(c *ast.CallExpr) {
				if name, ok := pf.compiles(c, helpers); ok {
					out.violations = append(out.violations, fmt.Sprintf("%s: %s runs at init; compile on first use (sync.OnceValue, rundoc.Lazy)", fset.Position(c.Pos()), name))
				}
			})
		}
		for _, d := range pf.f.Decls {
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
	}
	return out
}

// compilingHelpers returns the functions (import path "." name) of files
// whose body compiles, directly or through another such function: grown
// until no function is added.
func compilingHelpers(files []parsedFile) map[string]bool {
	helpers := map[string]bool{}
	for grew := true; grew; {
		grew = false
		for _, pf := range files {
			for _, d := range pf.f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Recv != nil || fd.Body == nil || helpers[pf.pkg+"."+fd.Name.Name] {
					continue
				}
				eachCall(fd.Body, func(c *ast.CallExpr) {
					if _, ok := pf.compiles(c, helpers); ok && !helpers[pf.pkg+"."+fd.Name.Name] {
						helpers[pf.pkg+"."+fd.Name.Name], grew = true, true
					}
				})
			}
		}
	}
	return helpers
}

// eachCall calls f for each call in n outside function literals.
func eachCall(n ast.Node, f func(*ast.CallExpr)) {
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false // runs when called, not at init
		case *ast.CallExpr:
			f(n)
		}
		return true
	})
}

// compiles reports whether c calls a compiling function or one of helpers,
// and the name it calls.
func (pf parsedFile) compiles(c *ast.CallExpr, helpers map[string]bool) (string, bool) {
	switch fun := c.Fun.(type) {
	case *ast.Ident:
		return fun.Name, compiling[fun.Name] || helpers[pf.pkg+"."+fun.Name]
	case *ast.SelectorExpr:
		name := fun.Sel.Name
		if x, ok := fun.X.(*ast.Ident); ok {
			if path, ok := pf.imports[x.Name]; ok && helpers[path+"."+name] {
				return x.Name + "." + name, true
			}
		}
		return name, compiling[name]
	}
	return "", false
}

// importNames maps each import's local name in f to its path (the last
// path element when it is not renamed, which is how this module's
// packages are named).
func importNames(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range f.Imports {
		path, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := path[strings.LastIndex(path, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		m[name] = path
	}
	return m
}

// TestNothingCompiledAtInitCanFail is its negative control: planted
// compiles at init are each caught, directly, through a helper of the same
// package and through one of another package two calls deep; the lazy
// forms are not.
func TestNothingCompiledAtInitCanFail(t *testing.T) {
	p := pkgSource{path: "example.com/m/p", files: []fileSource{{name: "planted.go", src: `package p
import ("regexp"; "sync"; "text/template"; "example.com/m/q")
var eager = regexp.MustCompile("a+")
var (
	lazy  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("b+") })
	tmpl  = template.Must(template.New("x").Parse("{{.}}"))
	plain = "MustCompile"
	viaHelper = build("e+")
	viaOther = q.Pattern()
	lazyOther = sync.OnceValue(q.Pattern)
	notCompiling = q.Plain()
)
func init() { _ = regexp.MustCompile("c+") }
func later() { _ = regexp.MustCompile("d+") }
func build(s string) *regexp.Regexp { return regexp.MustCompile(s) }
`}}}
	q := pkgSource{path: "example.com/m/q", files: []fileSource{{name: "q.go", src: `package q
import "regexp"
func Pattern() *regexp.Regexp { return pattern("f+") }
func pattern(s string) *regexp.Regexp { return regexp.MustCompile(s) }
func Plain() string { return "MustCompile" }
`}}}
	got := initCompiles(t, []pkgSource{p, q}).violations
	if len(got) != 5 {
		t.Errorf("caught %d planted compiles at init, want 5 (eager, tmpl, viaHelper, viaOther, init):\n%s", len(got), strings.Join(got, "\n"))
	}
}
