package checks

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// slug is GitHub's anchor for a Markdown heading: lower case, spaces to
// hyphens, punctuation other than hyphens dropped.
func slug(heading string) string {
	s := strings.ToLower(strings.TrimSpace(heading))
	s = regexp.MustCompile(`[^a-z0-9 -]`).ReplaceAllString(s, "")
	return strings.ReplaceAll(s, " ", "-")
}

// TestDocLinksResolve: every check run's link names a section that
// docs/protocol.md has, and every check name has one.
func TestDocLinksResolve(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "docs", "protocol.md"))
	if err != nil {
		t.Fatal(err)
	}
	anchors := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^##+ (.+)$`).FindAllStringSubmatch(string(b), -1) {
		anchors[slug(m[1])] = true
	}
	names := []string{NameLint, NameStatus, NameNegativeControls, NameReport, NamePlans, NameRelease,
		NameWorkUnit, NameConfig, NameGates, NameAudit, NameMerge, NameReadback, NameCertificate, NameAppRelease}
	for _, n := range names {
		a, ok := docAnchors[n]
		if !ok {
			t.Errorf("%s has no section in docAnchors", n)
			continue
		}
		if !anchors[a] {
			t.Errorf("%s links to docs/protocol.md#%s, which is no heading there", n, a)
		}
	}
}

// TestNoSummaryPointsAtFilesUsersLack: no golden check run (what users
// read) names the project's spec/ folder or craft-rules, which users do
// not have.
func TestNoSummaryPointsAtFilesUsersLack(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no goldens: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"spec/", "craft-rules"} {
			if strings.Contains(string(b), bad) {
				t.Errorf("%s mentions %q", f, bad)
			}
		}
	}
}
