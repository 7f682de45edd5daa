package report

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// scopeFacts are facts as the Action and the App give them: the units the
// body names, through workunit.ParseRefs, and the changed files.
func scopeFacts(body string, files ...string) Facts {
	f := facts
	f.Repo, f.Units = "o/r", workunit.ParseRefs(body, "o/r")
	f.Files, f.FilesKnown = files, files != nil
	return f
}

func codes(ps []Problem) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Code)
	}
	return out
}

func TestWorkUnitMustBeThePullRequestsUnit(t *testing.T) {
	tests := []struct {
		name string
		body string
		want []string
	}{
		{"the report names the unit", good, nil},
		{"a closing keyword names the same unit", "Fixes #12\n\n" + good, nil},
		{"bare number with a closing keyword", "Closes #12\n\n" + strings.Replace(good, "WORK-UNIT: #12", "WORK-UNIT: 12", 1), nil},
		{"issue URL", "Fixes #12\n\n" + strings.Replace(good, "WORK-UNIT: #12", "WORK-UNIT: https://github.com/o/r/issues/12", 1), nil},
		{"own repository spelled out", strings.Replace(good, "WORK-UNIT: #12", "WORK-UNIT: o/r#12 (login)", 1), nil},
		{"a closing keyword names another unit", "Fixes #13\n\n" + good, []string{"wrong-work-unit"}},
		{"bare number naming another unit", "Fixes #13\n\n" + strings.Replace(good, "WORK-UNIT: #12", "WORK-UNIT: 12", 1), []string{"wrong-work-unit"}},
		{"not an issue", "Fixes #12\n\n" + strings.Replace(good, "WORK-UNIT: #12", "WORK-UNIT: wu-12", 1), []string{"invalid-work-unit"}},
		{"fenced report and nothing else names a unit", "```\n" + good + "```\n", []string{"unnamed-work-unit"}},
		{"fenced report with a Work-unit line", "Work-unit: #12\n\n```\n" + good + "```\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := codes(Check(Parse(tt.body), scopeFacts(tt.body)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problem codes (-want +got):\n%s", diff)
			}
		})
	}
	if got := Check(Parse("Fixes #13\n\n"+good), facts); len(got) != 0 {
		t.Errorf("without the repository the WORK-UNIT check should be skipped: %v", codes(got))
	}
}

func TestFilesMustBeChangedByThePullRequest(t *testing.T) {
	const item = "- protocol/lint/lint.go\n"
	tests := []struct {
		name  string
		files string // the FILES items replacing good's
		want  []string
	}{
		{"the changed file", item, nil},
		{"a code span and a comment", "- `protocol/lint/lint.go` (the new rule)\n", nil},
		{"a trailing colon and a comment", "- ./protocol/lint/lint.go: the new rule\n", nil},
		{"a directory", "- protocol/lint/\n", nil},
		{"a glob", "- protocol/lint/*.go\n", nil},
		// The one dialect (glob.Match): "**" spans folders, a name
		// without a slash matches at any depth, "*" stays in a folder.
		{"** across folders", "- protocol/**/*.go\n", nil},
		{"** at the start", "- `**/lint.go`\n", nil},
		{"a name at any depth", "- lint.go\n", nil},
		{"a folder at any depth", "- lint/\n", nil},
		{"* does not cross a folder", item + "- protocol/*.go\n", []string{"file-not-changed"}},
		{"anchored at the root", item + "- /lint.go\n", []string{"file-not-changed"}},
		{"listed but unchanged", item + "- protocol/lint/gone.go\n", []string{"file-not-changed"}},
		{"a directory with no change", item + "- docs/\n", []string{"file-not-changed"}},
		{"two code spans, one unchanged", "- `protocol/lint/lint.go`, `README.md`\n", []string{"file-not-changed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := strings.Replace(good, item, tt.files, 1)
			got := codes(Check(Parse(body), scopeFacts(body, "protocol/lint/lint.go")))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("problem codes (-want +got):\n%s", diff)
			}
		})
	}
	unknown := scopeFacts(good)
	if got := Check(Parse(strings.Replace(good, item, "- gone.go\n", 1)), unknown); len(got) != 0 {
		t.Errorf("with the changed files unknown the FILES check should be skipped: %v", codes(got))
	}
}

// TestFilesDialectIsTheConfigs: FILES' patterns mean what the config's
// mean (glob.Match); the negative control is the matcher FILES had
// (path.Match plus a "dir/" prefix), under which "**" did not span
// folders: it would have failed a pull request whose FILES was right.
func TestFilesDialectIsTheConfigs(t *testing.T) {
	oldCovers := func(listed, changed string) bool {
		if listed == changed || strings.HasSuffix(listed, "/") && strings.HasPrefix(changed, listed) {
			return true
		}
		ok, err := path.Match(listed, changed)
		return err == nil && ok
	}
	for _, tt := range []struct{ listed, changed string }{
		{"protocol/**/*.go", "protocol/lint/rules/new.go"},
		{"**/lint.go", "protocol/lint/lint.go"},
		{"lint/", "protocol/lint/lint.go"},
	} {
		if !covers(tt.listed, tt.changed) || covers(tt.listed, tt.changed) != config.MatchPath(tt.listed, tt.changed) {
			t.Errorf("covers(%q, %q) is false or differs from the config's MatchPath", tt.listed, tt.changed)
		}
		if oldCovers(tt.listed, tt.changed) {
			t.Errorf("the old matcher covers %q with %q: this control shows nothing", tt.changed, tt.listed)
		}
	}
}

func TestChangedButUnlistedFilesWarn(t *testing.T) {
	f := scopeFacts(good, "protocol/lint/lint.go", "protocol/lint/rule.go")
	if ps := Check(Parse(good), f); len(ps) != 0 {
		t.Fatalf("an unlisted changed file must not fail the report: %v", codes(ps))
	}
	got := Warnings(Parse(good), f)
	want := []Problem{{Code: "file-not-listed", Field: FieldFiles, Line: 11,
		Message: "this pull request changes protocol/lint/rule.go but FILES does not list it; add it to FILES"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	var many []string
	for i := range 25 {
		many = append(many, fmt.Sprintf("gen/f%02d.go", i))
	}
	if got := Warnings(Parse(good), scopeFacts(good, many...)); len(got) != maxUnlisted+1 ||
		!strings.HasPrefix(got[maxUnlisted].Message, "5 more changed files are not listed in FILES, from gen/f20.go to gen/f24.go") {
		t.Errorf("25 unlisted files: %d warnings, last %+v", len(got), got[len(got)-1])
	}
	if got := Warnings(Parse(good), scopeFacts(good)); got != nil {
		t.Errorf("unknown files gave warnings: %v", got)
	}
}

// TestScopeBindingNegativeControl shows the WORK-UNIT and FILES rules are
// what stop a report for another unit or naming files the pull request does
// not change: with each binding off, that report passes.
func TestScopeBindingNegativeControl(t *testing.T) {
	attacks := []struct {
		name string
		body string
		off  checkOptions
	}{
		{"report for another unit", "Fixes #13\n\n" + good, checkOptions{bindHead: true, bindFiles: true}},
		{"files the pull request does not change", strings.Replace(good, "lint.go\n", "lint.go\n- protocol/auth/auth.go\n", 1), checkOptions{bindHead: true, bindUnit: true}},
	}
	for _, a := range attacks {
		t.Run(a.name, func(t *testing.T) {
			f := scopeFacts(a.body, "protocol/lint/lint.go")
			if ps := Check(Parse(a.body), f); len(ps) != 1 {
				t.Fatalf("with the binding on: %v, want one problem", codes(ps))
			}
			if ps := check(Parse(a.body), f, a.off); len(ps) != 0 {
				t.Errorf("with the binding off the report still fails: %v", codes(ps))
			}
		})
	}
}

func TestScopeProblemsGolden(t *testing.T) {
	var b strings.Builder
	for _, body := range []string{
		"Fixes #13\n\n" + good,
		strings.Replace(good, "WORK-UNIT: #12", "WORK-UNIT: wu-12", 1),
		"```\n" + good + "```\n",
		strings.Replace(good, "lint.go\n", "lint.go\n- protocol/auth/auth.go\n", 1),
	} {
		f := scopeFacts(body, "protocol/lint/lint.go", "protocol/lint/rule.go")
		r := Parse(body)
		for _, p := range append(Check(r, f), Warnings(r, f)...) {
			fmt.Fprintf(&b, "%d\t%s\t%s\t%s\n", p.Line, p.Code, p.Field, p.Message)
		}
	}
	golden.CheckString(t, filepath.Join("testdata", "scope-problems.golden"), b.String())
}

func FuzzCheckScope(f *testing.F) {
	f.Add("Fixes #3\n\n" + good)
	f.Add("STATUS: done\nWORK-UNIT: https://x/o/r/issues/9 y\nFILES: `a/*` `[` none\n")
	f.Fuzz(func(t *testing.T, body string) {
		r := Parse(body)
		fs := scopeFacts(body, "a/b.go", "protocol/lint/lint.go")
		lines := strings.Count(body, "\n") + 1
		for _, p := range append(Check(r, fs), Warnings(r, fs)...) {
			if p.Line < 0 || p.Line > lines || p.Code == "" || p.Message == "" {
				t.Fatalf("bad problem %+v in a %d-line body", p, lines)
			}
		}
	})
}
