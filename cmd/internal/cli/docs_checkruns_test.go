package cli

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestActionDocsCountTheAppsCheckRuns: docs/action.md's paragraph on the
// App's check runs gives their number and names each one the App writes
// (appCheckRuns: manifest.Features).
func TestActionDocsCountTheAppsCheckRuns(t *testing.T) {
	names := appCheckRuns(t)
	doc := repoFile(t, "docs/action.md")
	m := regexp.MustCompile(`writes (\d+) check runs of\s+its own:([^(]*(?:\([^)]*\)[^(]*)*?)\. Their re-run`).FindStringSubmatch(doc)
	if m == nil {
		t.Fatal("docs/action.md has no \"writes N check runs of its own: ….\" paragraph")
	}
	if n, _ := strconv.Atoi(m[1]); n != len(names) {
		t.Errorf("docs/action.md says the App writes %s check runs; manifest.Features has %d: %v", m[1], len(names), names)
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
