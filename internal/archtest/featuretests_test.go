package archtest

import (
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// appFeatures are the feature packages under app/: each holds its own
// end-to-end tests (issue 41's quality bar), so a feature's behaviour is
// shown next to its code, not in the App's root.
var appFeatures = []string{"board", "closure", "contract", "deploy", "gates", "heldwork", "increment", "owners", "pull", "readback", "redeliver", "release"}

// appKit is the App's test world; a test file importing it runs the App
// end to end against the fake GitHub.
const appKit = module + "/internal/testkit/appkit"

// featureTestViolations reports each feature under appDir none of whose
// _test.go files imports the App's test world (or whose folder cannot be
// read: a missing feature fails closed).
func featureTestViolations(appDir string, features []string) []string {
	var out []string
	for _, f := range features {
		ok, err := importsAppKit(filepath.Join(appDir, f))
		if err != nil {
			out = append(out, fmt.Sprintf("app/%s: %v", f, err))
			continue
		}
		if !ok {
			out = append(out, fmt.Sprintf("app/%s has no end-to-end test: no _test.go in it imports internal/testkit/appkit; move the feature's e2e tests from the root into the package (package %s_test on appkit)", f, f))
		}
	}
	return out
}

// importsAppKit reports whether a _test.go file in dir imports appkit.
func importsAppKit(dir string) (bool, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false, fmt.Errorf("read feature: %w", err)
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ImportsOnly)
		if err != nil {
			return false, fmt.Errorf("parse test file: %w", err)
		}
		for _, imp := range f.Imports {
			if p, err := strconv.Unquote(imp.Path.Value); err == nil && p == appKit {
				return true, nil
			}
		}
	}
	return false, nil
}

func TestEveryFeatureHoldsItsEndToEndTests(t *testing.T) {
	for _, v := range featureTestViolations("../../app", appFeatures) {
		t.Error(v)
	}
}

// TestFeatureTestRuleCanFail: a planted feature whose only test file does
// not import appkit is reported, and so is a feature with no test file;
// a feature whose test imports appkit passes; with the planted feature
// removed from the list (the negative control) the tree passes.
func TestFeatureTestRuleCanFail(t *testing.T) {
	dir := t.TempDir()
	plant := func(feature string, files map[string]string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, feature), 0o755); err != nil {
			t.Fatal(err)
		}
		for name, src := range files {
			if err := os.WriteFile(filepath.Join(dir, feature, name), []byte(src), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	plant("toy", map[string]string{"toy.go": "package toy\n", "toy_test.go": "package toy\n\nimport \"testing\"\n\nfunc TestToy(t *testing.T) {}\n"})
	plant("bare", map[string]string{"bare.go": "package bare\n"})
	plant("held", map[string]string{"held.go": "package held\n", "held_e2e_test.go": "package held_test\n\nimport _ \"" + appKit + "\"\n"})
	got := featureTestViolations(dir, []string{"toy", "bare", "held"})
	if len(got) != 2 || !strings.Contains(got[0], "app/toy") || !strings.Contains(got[1], "app/bare") {
		t.Errorf("planted toy and bare without e2e tests: %q, want 2 violations (toy, bare)", got)
	}
	if got := featureTestViolations(dir, []string{"held"}); len(got) != 0 {
		t.Errorf("with the rule removed for toy and bare: %d violations, want 0: %q", len(got), got)
	}
}
