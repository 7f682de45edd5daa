package archtest

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// mechanisms are the App's packages that are only mechanism, with the
// module packages each may reach: the router (app/route: the family table,
// Where/Work, the handler registry) knows no feature and no adapter, and the
// queue (app/queue) knows no feature: each feature exports its families,
// its work and its job kinds, and the root wires them. Anything else under
// app/ or internal/ is forbidden to them.
var mechanisms = map[string][]string{
	"app/route": {"app/webhook"},
	"app/queue": {"app/webhook", "internal/gh", "internal/store"},
}

// mechanismViolations lists the module packages under app/ or internal/
// that p, a mechanism, depends on beyond what it may reach.
func mechanismViolations(p pkgInfo, rules map[string][]string) []string {
	r := rel(p.ImportPath)
	allowed, ok := rules[r]
	if !ok {
		return nil
	}
	var out []string
	for _, d := range p.Deps {
		if !strings.HasPrefix(d, module+"/") {
			continue
		}
		dr := rel(d)
		if !under(dr, "app") && !under(dr, "internal") {
			continue
		}
		if !allowedUnder(dr, allowed) {
			out = append(out, fmt.Sprintf("%s depends on %s; it is mechanism only and may reach only %v: let the feature export what it needs and the root wire it", r, dr, allowed))
		}
	}
	return out
}

func allowedUnder(path string, allowed []string) bool {
	for _, a := range allowed {
		if under(path, a) {
			return true
		}
	}
	return false
}

func TestMechanismsKnowNoFeature(t *testing.T) {
	for _, p := range listPackages(t) {
		for _, v := range mechanismViolations(p, mechanisms) {
			t.Error(v)
		}
	}
}

// TestMechanismRuleCanFail: a planted router that reaches a feature
// (app/closure) and an adapter (internal/gh), and a planted queue that
// reaches the board, are each caught; the router's edge import is not; with
// their rules removed (the negative control) nothing is.
func TestMechanismRuleCanFail(t *testing.T) {
	router := pkgInfo{ImportPath: module + "/app/route", Deps: []string{"encoding/json", module + "/app/webhook", module + "/app/closure", module + "/internal/gh", module + "/protocol/closurerules"}}
	queue := pkgInfo{ImportPath: module + "/app/queue", Deps: []string{module + "/app/webhook", module + "/internal/store", module + "/app/board"}}
	if got := mechanismViolations(router, mechanisms); len(got) != 2 {
		t.Errorf("planted app/route → app/closure, internal/gh: %d violations, want 2: %q", len(got), got)
	}
	if got := mechanismViolations(queue, mechanisms); len(got) != 1 {
		t.Errorf("planted app/queue → app/board: %d violations, want 1: %q", len(got), got)
	}
	without := maps.Clone(mechanisms)
	delete(without, "app/route")
	delete(without, "app/queue")
	if got := append(mechanismViolations(router, without), mechanismViolations(queue, without)...); len(got) != 0 {
		t.Errorf("with the rules removed: %d violations, want 0: %q", len(got), got)
	}
}

// sweepEventLiterals lists the string literals "reconcile" in a Go file's
// source: the periodic sweep runs typed work (route.Where.Sweep and the
// work's own fields), never a fake event name that code branches on.
func sweepEventLiterals(name string, src []byte) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if s, err := strconv.Unquote(lit.Value); err == nil && s == "reconcile" {
				out = append(out, fmt.Sprintf("%s: the string literal %s: the sweep is no event; give its work a typed field (route.Where.Sweep)", name, lit.Value))
			}
		}
		return true
	})
	return out, nil
}

func TestNoReconcileEvent(t *testing.T) {
	root := filepath.Join("..", "..", "app")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		vs, err := sweepEventLiterals(path, src)
		for _, v := range vs {
			t.Error(v)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNoReconcileEventCanFail: a planted file that names the sweep as an
// event and branches on it is caught twice; the same file saying "sweep"
// in a comment and a log line (the negative control) is not.
func TestNoReconcileEventCanFail(t *testing.T) {
	planted := `package app

const reconcileEvent = "reconcile"

func sweeping(event string) bool { return event == ` + "`reconcile`" + ` }
`
	got, err := sweepEventLiterals("planted.go", []byte(planted))
	if err != nil || len(got) != 2 {
		t.Errorf("planted: %d violations (%v), want 2: %q", len(got), err, got)
	}
	clean := `package app

// reconcile: the periodic sweep.
func sweeping(log func(...any)) { log("reconcile sweep", "sweep", true) }
`
	if got, err := sweepEventLiterals("clean.go", []byte(clean)); err != nil || len(got) != 0 {
		t.Errorf("clean: %q (%v), want none", got, err)
	}
}
