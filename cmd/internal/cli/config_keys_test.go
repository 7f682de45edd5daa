package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// repoFile reads a file of the repository from this package's folder.
func repoFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docsEnforcementTable is docs/config.md's "What enforces each key today":
// each key of the first column, and whether its row says "not enforced".
func docsEnforcementTable(t *testing.T) map[string]bool {
	t.Helper()
	doc := repoFile(t, "docs/config.md")
	_, section, ok := strings.Cut(doc, "## What enforces each key today")
	if !ok {
		t.Fatal("docs/config.md has no \"What enforces each key today\" section")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.SplitN(line, "|", 4)
		if len(cells) < 4 || !strings.Contains(cells[1], "`") {
			continue
		}
		for _, m := range regexp.MustCompile("`([a-z_.]+)`").FindAllStringSubmatch(cells[1], -1) {
			rows[m[1]] = strings.Contains(cells[2], "not enforced")
		}
	}
	return rows
}

// TestConfigDocsHelpAndExampleSayWhatIsEnforced: docs/config.md's table
// has a row for every key of the config's own struct and marks "not
// enforced" exactly unenforcedKeys; config --help names those and no
// other; examples/aepgate.yml says "validated only" of those alone; and
// no production code reads an unenforced key (once one does, this fails
// until the docs, the help and the example say so).
func TestConfigDocsHelpAndExampleSayWhatIsEnforced(t *testing.T) {
	table := docsEnforcementTable(t)
	var docKeys, docUnenforced []string
	for k, un := range table {
		docKeys = append(docKeys, k)
		if un {
			docUnenforced = append(docUnenforced, k)
		}
	}
	want := slices.Sorted(slices.Values(configKeys()))
	sort.Strings(docKeys)
	if d := cmp.Diff(want, docKeys); d != "" {
		t.Errorf("docs/config.md's table keys (-config.Config +docs):\n%s", d)
	}
	sort.Strings(docUnenforced)
	if d := cmp.Diff(unenforcedKeys, docUnenforced); d != "" {
		t.Errorf("keys marked not enforced (-unenforcedKeys +docs):\n%s", d)
	}
	help := configGroupLong()
	for _, k := range configKeys() {
		if !strings.Contains(help, k) {
			t.Errorf("config --help does not list %s", k)
		}
	}
	if !strings.Contains(help, strings.Join(unenforcedKeys, ", ")+", which are accepted and validated only") {
		t.Errorf("config --help does not name the validated-only keys:\n%s", help)
	}
	for i, line := range strings.Split(repoFile(t, "examples/aepgate.yml"), "\n") {
		if (strings.Contains(line, "not enforced") || strings.Contains(line, "validated only")) && !mentionsUnenforced(line) {
			t.Errorf("examples/aepgate.yml:%d says a key is not enforced: %q", i+1, line)
		}
	}
	checkNoCodeReads(t, "Risk.Default")
}

// mentionsUnenforced reports whether line names an unenforced key, or its
// last part at the key's place in the example (default: under risk:).
func mentionsUnenforced(line string) bool {
	for _, k := range unenforcedKeys {
		_, last, _ := strings.Cut(k, ".")
		if strings.Contains(line, k) || strings.HasPrefix(strings.TrimSpace(line), last+":") {
			return true
		}
	}
	return false
}

// checkNoCodeReads fails when a production Go file outside protocol/config
// selects field (e.g. "Risk.Default").
func checkNoCodeReads(t *testing.T, field string) {
	t.Helper()
	root := filepath.Join("..", "..", "..")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return fs.SkipDir
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || strings.Contains(filepath.ToSlash(path), "protocol/config/") {
			return nil
		}
		if b, _ := os.ReadFile(path); strings.Contains(string(b), "."+field) {
			t.Errorf("%s reads %s: it is enforced now; take it out of unenforcedKeys and say so in docs/config.md and examples/aepgate.yml", path, field)
		}
		return nil
	})
}
