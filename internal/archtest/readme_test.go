package archtest

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// readmeLayout is the package paths the README's Layout block lists: a
// line's first word (or comma-separated words) names a folder under the
// nearest less-indented line above it.
func readmeLayout(t *testing.T, readme string) map[string]bool {
	t.Helper()
	_, rest, ok := strings.Cut(readme, "## Layout")
	_, block, ok2 := strings.Cut(rest, "```\n")
	block, _, ok3 := strings.Cut(block, "```")
	if !ok || !ok2 || !ok3 {
		t.Fatal("README.md has no Layout code block")
	}
	listed := map[string]bool{}
	type level struct {
		indent int
		path   string
	}
	var stack []level
	for line := range strings.Lines(block) {
		indent := len(line) - len(strings.TrimLeft(line, " "))
		names, _, _ := strings.Cut(strings.TrimSpace(line), "  ")
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			stack = stack[:len(stack)-1]
		}
		parent := ""
		if len(stack) > 0 {
			parent = stack[len(stack)-1].path + "/"
		}
		for name := range strings.SplitSeq(names, ",") {
			path := parent + strings.TrimSuffix(strings.TrimSpace(name), "/")
			listed[path] = true
			stack = append(stack, level{indent, path})
		}
	}
	return listed
}

// unlisted are the module's packages the README's Layout does not list.
func unlisted(pkgs []pkgInfo, listed map[string]bool) []string {
	var out []string
	for _, p := range pkgs {
		if r := rel(p.ImportPath); r != "" && !listed[r] {
			out = append(out, r)
		}
	}
	slices.Sort(out)
	return out
}

// TestReadmeListsEveryPackage: the README's Layout names every package of
// the module, so a new package cannot land without its line.
func TestReadmeListsEveryPackage(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if missing := unlisted(listPackages(t), readmeLayout(t, string(b))); len(missing) > 0 {
		t.Errorf("README.md's Layout does not list: %s", strings.Join(missing, ", "))
	}
}

// TestReadmeRuleCanFail: a package the Layout lacks is reported.
func TestReadmeRuleCanFail(t *testing.T) {
	readme := "## Layout\n```\napp/   the App\n  queue   jobs\n```\n"
	pkgs := []pkgInfo{{ImportPath: module + "/app"}, {ImportPath: module + "/app/queue"}, {ImportPath: module + "/app/verdict"}}
	if got := unlisted(pkgs, readmeLayout(t, readme)); !slices.Equal(got, []string{"app/verdict"}) {
		t.Errorf("unlisted = %v, want [app/verdict]", got)
	}
}
