package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/action"
	"github.com/aepgate/aepgate/app/manifest"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/command"
)

// drift compares a list the code holds with the names a doc gives for it
// (the first group of each match of names in doc): missing are the code's
// names the doc does not give, unknown the doc's names the code does not
// have. Both are sorted and free of repeats.
func drift(code []string, doc string, names *regexp.Regexp) (missing, unknown []string) {
	inDoc := map[string]bool{}
	for _, m := range names.FindAllStringSubmatch(doc, -1) {
		inDoc[m[1]] = true
	}
	inCode := map[string]bool{}
	for _, n := range code {
		inCode[n] = true
		if !inDoc[n] && !slices.Contains(missing, n) {
			missing = append(missing, n)
		}
	}
	for n := range inDoc {
		if !inCode[n] {
			unknown = append(unknown, n)
		}
	}
	slices.Sort(missing)
	slices.Sort(unknown)
	return missing, unknown
}

// docSite is one place a doc repeats a list the code holds: the code's
// list, the doc's text that repeats it, how a name is written there, and
// whether the doc must name nothing else (exact).
type docSite struct {
	name  string
	code  func(t *testing.T) []string
	doc   func(t *testing.T) string
	names *regexp.Regexp
	exact bool
}

// section is the text of file from the first start to the next end after
// it; the test fails when either is gone, so a reworded doc is noticed.
func section(file, start, end string) func(t *testing.T) string {
	return func(t *testing.T) string {
		t.Helper()
		_, rest, ok := strings.Cut(repoFile(t, file), start)
		body, _, ok2 := strings.Cut(rest, end)
		if !ok || !ok2 {
			t.Fatalf("%s has no text from %q to %q: align the doc or this test", file, start, end)
		}
		return body
	}
}

var (
	appCheckSpan    = regexp.MustCompile("`(aepgate/[a-z-]+)`")
	actionCheckSpan = regexp.MustCompile("`(aep/[a-z-]+)`")
	codeSpanName    = regexp.MustCompile("`([a-z][a-z-]*)`")
	metricSpan      = regexp.MustCompile("`(aepgate_[a-z_]+)[`{]")
	tableFirstCell  = regexp.MustCompile("(?m)^\\| `([a-z][a-z-]*)` \\|")
	ymlInputKey     = regexp.MustCompile(`(?m)^  ([a-z][a-z-]*):$`)
	ymlInputEnv     = regexp.MustCompile(`(?m)^        INPUT_[A-Z-]+: \$\{\{ inputs\.([a-z-]+) \}\}$`)
	wordName        = regexp.MustCompile(`\b([a-z]+)\b`)
	commandSpan     = regexp.MustCompile("`(?:/aep )?([a-z]+(?:-[a-z]+)*)`")
	schemaRow       = regexp.MustCompile("(?m)^\\| `([a-z_.]+?)(?:\\.<name>\\.[a-z_]+)?` \\|")
)

// docSites are the lists the docs repeat from the code: the App's check
// runs, the Action's inputs, checks and check runs, the App's metrics and
// the comment commands.
// (Config keys also: TestConfigDocsHelpAndExampleSayWhatIsEnforced; exit
// codes: TestREADMEHasTheExitCodeTable.)
func docSites() []docSite {
	return []docSite{
		{"App check runs in docs/action.md", appCheckRuns, section("docs/action.md", "writes ", "Their re-run"), appCheckSpan, true},
		{"App check runs in docs/app.md's opening", appCheckRuns, section("docs/app.md", "On a pull request's head it writes", "It keeps the owner's board"), appCheckSpan, true},
		{"App check runs in docs/app.md's permission table", appCheckRuns, section("docs/app.md", "| Checks | Read and write |", "\n"), appCheckSpan, true},
		{"App check runs in docs/config.md", appCheckRuns, section("docs/config.md", "The App today writes", "The CLI's"), appCheckSpan, true},
		{"App check runs in the README", appCheckRuns, section("README.md", "| App | `aepgate serve`", "\n"), appCheckSpan, true},
		{"Action inputs in action.yml", actionInputs, section("action.yml", "\ninputs:\n", "\noutputs:"), ymlInputKey, true},
		{"Action inputs passed by action.yml's run step", actionInputs, section("action.yml", "\n    - id: run\n", "\n      run:"), ymlInputEnv, true},
		{"Action inputs in docs/action.md", actionInputs, section("docs/action.md", "## Inputs\n", "\n\n"), tableFirstCell, true},
		{"Action outputs in action.yml", actionOutputs, section("action.yml", "\noutputs:\n", "\nruns:"), ymlInputKey, true},
		{"Action outputs in docs/action.md", actionOutputs, section("docs/action.md", "## Outputs\n", "\n\n"), tableFirstCell, true},
		{"Action checks in action.yml's checks input", actionCheckInputs, section("action.yml", "Comma-separated checks to run:", "Default:"), wordName, true},
		{"Action checks in docs/action.md's checks input", actionCheckInputs, section("docs/action.md", "| `checks` | all that apply | comma-separated", "\"All that apply\""), codeSpanName, true},
		{"Action check runs in docs/action.md", actionCheckRuns, section("docs/action.md", "# The aepgate GitHub Action", "## Inputs"), actionCheckSpan, false},
		{"Action check runs in the README", actionCheckRuns, section("README.md", "| Action | `uses:", "\n"), actionCheckSpan, true},
		{"App metrics in docs/app.md", appMetrics, section("docs/app.md", "| `GET /metrics` |", "\n"), metricSpan, true},
		{"comment commands in the README", commandVerbs, section("README.md", "owner commands in comments", "\n"), commandSpan, true},
		// A key with parts (deploy.environments) has rows for its parts.
		{"config keys in docs/config.md's Schema table", func(*testing.T) []string { return configKeys() }, section("docs/config.md", "## Schema\n", "\n\n"), schemaRow, true},
	}
}

// TestDocsNameWhatTheCodeHas: every list a doc repeats from the code names
// each of the code's entries, and (where the doc gives the whole list)
// nothing the code does not have.
func TestDocsNameWhatTheCodeHas(t *testing.T) {
	for _, s := range docSites() {
		t.Run(s.name, func(t *testing.T) {
			missing, unknown := drift(s.code(t), s.doc(t), s.names)
			if len(missing) > 0 {
				t.Errorf("the doc does not name %v", missing)
			}
			if s.exact && len(unknown) > 0 {
				t.Errorf("the doc names %v, which the code does not have", unknown)
			}
		})
	}
}

// TestDocsDriftIsCaught is the negative control of every site: a name
// added to the code's list (a new check, input or metric) that the doc
// does not give is reported, and so, where the doc gives the whole list,
// is a name the code dropped.
func TestDocsDriftIsCaught(t *testing.T) {
	for _, s := range docSites() {
		t.Run(s.name, func(t *testing.T) {
			code, doc := s.code(t), s.doc(t)
			added := code[0] + "x"
			if missing, _ := drift(append(slices.Clone(code), added), doc, s.names); !slices.Equal(missing, []string{added}) {
				t.Errorf("with %q added to the code, missing = %v; want [%s]", added, missing, added)
			}
			if !s.exact {
				return
			}
			if _, unknown := drift(code[1:], doc, s.names); !slices.Equal(unknown, code[:1]) {
				t.Errorf("with %q dropped from the code, unknown = %v; want %v", code[0], unknown, code[:1])
			}
		})
	}
}

// appCheckRuns are the check runs the App writes: its features' names
// that are check runs (manifest.Features, which docs/app.md's permission
// table is held to).
func appCheckRuns(*testing.T) []string {
	var out []string
	for _, f := range manifest.Features() {
		if strings.HasPrefix(f.Name, "aepgate/") {
			out = append(out, f.Name)
		}
	}
	return out
}

// actionInputs are the inputs the Action reads: every GetInput("name") in
// action/inputs.go.
func actionInputs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, call := range goCalls(t, "action/inputs.go", "GetInput") {
		if len(call.Args) == 1 {
			if s, ok := stringLit(call.Args[0]); ok {
				out = append(out, s)
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("action/inputs.go has no GetInput(\"…\") call: align this test")
	}
	return out
}

// actionOutputs are the outputs the Action writes: the names of the
// []output{…} literal in action/publish.go (writeOutputs).
func actionOutputs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, f := range goFiles(t, "action") {
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.CompositeLit)
			if !ok {
				return true
			}
			if arr, ok := lit.Type.(*ast.ArrayType); !ok || !isIdent(arr.Elt, "output") {
				return true
			}
			for _, e := range lit.Elts {
				if el, ok := e.(*ast.CompositeLit); ok && len(el.Elts) > 0 {
					if s, ok := stringLit(el.Elts[0]); ok {
						out = append(out, s)
					}
				}
			}
			return true
		})
	}
	if len(out) == 0 {
		t.Fatal("no []output{…} literal in action/: align this test")
	}
	return out
}

// isIdent reports whether e is the identifier name.
func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// actionCheckInputs are the names the checks input takes (action.Checks).
func actionCheckInputs(*testing.T) []string {
	var out []string
	for _, c := range action.Checks() {
		out = append(out, c.Input)
	}
	return out
}

// actionCheckRuns are the check runs the Action writes: its checks' and
// aep/verify (the verify input's).
func actionCheckRuns(*testing.T) []string {
	var out []string
	for _, c := range action.Checks() {
		out = append(out, c.Run)
	}
	return append(out, checks.NameVerify)
}

// appMetrics are the App's Prometheus series: each Name of a metric's
// options in app/metrics and each prometheus.NewDesc's name in app/queue.
func appMetrics(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, file := range goFiles(t, "app/metrics", "app/queue") {
		ast.Inspect(file, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.KeyValueExpr:
				if id, ok := x.Key.(*ast.Ident); ok && id.Name == "Name" {
					if s, ok := stringLit(x.Value); ok && strings.HasPrefix(s, "aepgate_") {
						out = append(out, s)
					}
				}
			case *ast.CallExpr:
				if sel, ok := x.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "NewDesc" && len(x.Args) > 0 {
					if s, ok := stringLit(x.Args[0]); ok {
						out = append(out, s)
					}
				}
			}
			return true
		})
	}
	if len(out) == 0 {
		t.Fatal("no metric names found in app/metrics and app/queue: align this test")
	}
	return out
}

// commandVerbs are the comment commands' verbs (command.Forms).
func commandVerbs(*testing.T) []string {
	var out []string
	for _, f := range command.Forms("/aep") {
		out = append(out, strings.Fields(f)[1])
	}
	return out
}

// goFiles parses the non-test Go files of the repository's folders dirs.
func goFiles(t *testing.T, dirs ...string) []*ast.File {
	t.Helper()
	var out []*ast.File
	for _, dir := range dirs {
		full := filepath.Join("..", "..", "..", dir)
		entries, err := os.ReadDir(full)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(full, e.Name()), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, f)
		}
	}
	return out
}

// goCalls are the calls of a method or function called name in the
// repository's Go file path.
func goCalls(t *testing.T, path, name string) []*ast.CallExpr {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), filepath.Join("..", "..", "..", path), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []*ast.CallExpr
	ast.Inspect(f, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == name {
				out = append(out, call)
			}
		}
		return true
	})
	return out
}

// stringLit is the value of a string literal expression.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}
