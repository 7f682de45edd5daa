package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// appCheckNames are the App's check-run names, read from the constants of
// checks/names.go (every value starting "aepgate/").
func appCheckNames(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "..", "..", "checks", "names.go"), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	ast.Inspect(f, func(n ast.Node) bool {
		if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
			if v, err := strconv.Unquote(lit.Value); err == nil && strings.HasPrefix(v, "aepgate/") {
				names = append(names, v)
			}
		}
		return true
	})
	return names
}

// TestActionDocsCountTheAppsCheckRuns: docs/action.md's paragraph on the
// App's check runs gives their number and names each one the code has.
func TestActionDocsCountTheAppsCheckRuns(t *testing.T) {
	names := appCheckNames(t)
	doc := repoFile(t, "docs/action.md")
	m := regexp.MustCompile(`writes (\d+) check runs of\s+its own:([^(]*(?:\([^)]*\)[^(]*)*?)\. Their re-run`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("docs/action.md has no \"writes N check runs of its own: ….\" paragraph")
	}
	if n, _ := strconv.Atoi(m[1]); n != len(names) {
		t.Errorf("docs/action.md says the App writes %s check runs; checks/names.go has %d: %v", m[1], len(names), names)
	}
	for _, name := range names {
		if !strings.Contains(m[2], "`"+name+"`") {
			t.Errorf("docs/action.md does not name %s among the App's check runs", name)
		}
	}
}

// TestNegcontrolHelpSaysWhatSurvives: the help says what the docs say of
// a process that leaves its group (setsid survives), never that nothing
// survives.
func TestNegcontrolHelpSaysWhatSurvives(t *testing.T) {
	doc := repoFile(t, "docs/negative-controls.md")
	if !strings.Contains(doc, "`setsid`, escapes this") {
		t.Fatal("docs/negative-controls.md no longer says setsid escapes the group kill; align this test and the help")
	}
	help := strings.Join(strings.Fields(negcontrolLong), " ")
	if !strings.Contains(help, "(setsid) survives") || strings.Contains(help, "Nothing a command started survives") {
		t.Errorf("negcontrol --help does not say that a setsid process survives:\n%s", negcontrolLong)
	}
}
