package action

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// reportAnnotations returns aep/report's annotations as "level code" lines.
func reportAnnotations(e *stepEnv) (conclusion string, got []string) {
	r := e.runs()["aep/report"]
	for _, a := range r.Annotations {
		got = append(got, a.Level+" "+strings.TrimPrefix(a.Title, "worker report: "))
	}
	return r.Conclusion, got
}

func TestActionReportWorkUnitMustBeThePullRequests(t *testing.T) {
	e := newStepEnv(t, writable, "", "Fixes #13\n\n"+goodBody)
	if code := e.run(); code != ExitFailed {
		t.Fatalf("exit %d, want 1\n%s", code, e.stdout.String())
	}
	c, got := reportAnnotations(e)
	if c != "failure" || strings.Join(got, ";") != "failure wrong-work-unit" {
		t.Errorf("aep/report = %s %v, want failure [failure wrong-work-unit]", c, got)
	}
}

func TestActionReportFilesAgreeWithChangedFiles(t *testing.T) {
	tests := []struct {
		name       string
		files      string // FILES items replacing goodBody's
		perms      ghfake.Permissions
		conclusion string
		want       []string
	}{
		{"listed but unchanged fails", "- docs/run/\n- widget.go\n- cmd/gone.go\n", writable, "failure", []string{"failure file-not-changed"}},
		{"changed but unlisted warns", "- docs/run/\n", writable, "success",
			[]string{"warning file-not-listed"}},
		{"files unreadable fails closed", "- docs/run/\n- widget.go\n", ghfake.Permissions{"checks": "write", "contents": "read"}, "failure",
			[]string{"failure files-unreadable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newStepEnv(t, tt.perms, "", strings.Replace(goodBody, "- docs/run/\n- widget.go\n", tt.files, 1))
			e.run()
			c, got := reportAnnotations(e)
			if c != tt.conclusion || strings.Join(got, ";") != strings.Join(tt.want, ";") {
				t.Errorf("aep/report = %s %v, want %s %v", c, got, tt.conclusion, tt.want)
			}
		})
	}
}

func TestActionReportWithoutTokenSaysFilesUnchecked(t *testing.T) {
	e := newStepEnv(t, writable, "", strings.Replace(goodBody, "- docs/run/\n", "- cmd/gone.go\n", 1))
	delete(e.vars, "INPUT_TOKEN")
	if code := e.run(); code != ExitOK {
		t.Fatalf("exit %d, want 0\n%s", code, e.stdout.String())
	}
	if !strings.Contains(e.file("GITHUB_STEP_SUMMARY"), "FILES was not compared with the pull request's changed files: no token") {
		t.Errorf("the job summary does not say FILES went unchecked:\n%s", e.file("GITHUB_STEP_SUMMARY"))
	}
}

// TestActionEditedReportIsCheckedAgain runs the step for the opened event
// with a wrong report, then for the edited event with the corrected body:
// the one aep/report run on the head turns to success.
func TestActionEditedReportIsCheckedAgain(t *testing.T) {
	e := newStepEnv(t, writable, "", "Fixes #13\n\n"+goodBody)
	if code := e.run(); code != ExitFailed {
		t.Fatalf("opened: exit %d, want 1", code)
	}
	var ev map[string]any
	if err := json.Unmarshal([]byte(e.event(strings.ReplaceAll(goodBody, "HEAD", e.head))), &ev); err != nil {
		t.Fatal(err)
	}
	ev["action"] = "edited"
	b, _ := json.Marshal(ev)
	p := filepath.Join(t.TempDir(), "edited.json")
	write(t, p, string(b))
	e.vars["GITHUB_EVENT_PATH"] = p
	if code := e.run(); code != ExitOK {
		t.Fatalf("edited: exit %d, want 0\n%s", code, e.stdout.String())
	}
	// The failed run's annotations cannot be deleted, so a fresh run
	// replaces it; GitHub shows the newest run of a name.
	var newest ghfake.CheckRun
	for _, r := range e.repo.CheckRuns(e.head) {
		if r.Name == "aep/report" {
			newest = r
		}
	}
	if newest.Conclusion != "success" || len(newest.Annotations) != 0 {
		t.Errorf("aep/report after the edit = %s with %d annotations, want success without any", newest.Conclusion, len(newest.Annotations))
	}
}

// asAuthor rewrites the step's event so that login (of GitHub user type
// typ) opened the pull request, with labels.
func asAuthor(t *testing.T, e *stepEnv, login, typ string, labels ...string) {
	t.Helper()
	b, err := os.ReadFile(e.vars["GITHUB_EVENT_PATH"])
	if err != nil {
		t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	pr := ev["pull_request"].(map[string]any)
	user := pr["user"].(map[string]any)
	user["login"], user["type"] = login, typ
	var ls []any
	for _, l := range labels {
		ls = append(ls, map[string]any{"name": l})
	}
	pr["labels"] = ls
	out, _ := json.Marshal(ev)
	write(t, e.vars["GITHUB_EVENT_PATH"], string(out))
}

// TestActionQuietOnDependencyBump runs the step on GitHub's recorded
// pull_request.opened example as Dependabot opens a bump (a Bot author, no
// report, no work unit) with the default report rules: aep/report is
// neutral and says why, and no check fails. The same pull request naming
// a work unit still fails for want of its report: a bot account does not
// excuse a claimed unit.
func TestActionQuietOnDependencyBump(t *testing.T) {
	const bump = "Bumps [lodash](https://github.com/lodash/lodash) from 4.17.20 to 4.17.21.\n\n<details>\n<summary>Commits</summary>\n\n- See full diff\n</details>"
	tests := []struct {
		name       string
		body       string
		code       int
		conclusion string
		summary    string
	}{
		{"bump", bump, ExitOK, "neutral", "dependabot[bot] is a bot account and it names no work unit"},
		{"bump naming a unit", "Work-unit: #12\n\n" + bump, ExitFailed, "failure", "has no worker report"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newStepEnv(t, writable, "", tt.body)
			asAuthor(t, e, "dependabot[bot]", "Bot", "dependencies")
			if code := e.run(); code != tt.code {
				t.Fatalf("exit %d, want %d\n%s", code, tt.code, e.stdout.String())
			}
			runs := e.runs()
			if r := runs["aep/report"]; r.Conclusion != tt.conclusion || !strings.Contains(r.Summary, tt.summary) {
				t.Errorf("aep/report = %s, want %s with %q in:\n%s", r.Conclusion, tt.conclusion, tt.summary, r.Summary)
			}
			for name, r := range runs {
				if name != "aep/report" && r.Conclusion == "failure" {
					t.Errorf("%s failed on a dependency bump: %s", name, r.Title)
				}
			}
		})
	}
}

// TestActionReportRulesFromConfig: report.skip.labels exempts a human's
// pull request that names no unit, report.required_for.labels makes one
// need a report.
func TestActionReportRulesFromConfig(t *testing.T) {
	const cfg = baseConfig + "report:\n  required_for:\n    labels: [aep]\n  skip:\n    labels: [docs]\n"
	tests := []struct {
		label, conclusion string
	}{
		{"docs", "neutral"},
		{"aep", "failure"},
		{"other", "neutral"},
	}
	for _, tt := range tests {
		t.Run(tt.label, func(t *testing.T) {
			e := newStepEnv(t, writable, "", "Fix a typo.")
			e.base = e.repo.Commit("main", "report rules", map[string]string{".github/aepgate.yml": cfg})
			p := filepath.Join(t.TempDir(), "event.json")
			write(t, p, e.event("Fix a typo."))
			e.vars["GITHUB_EVENT_PATH"] = p
			asAuthor(t, e, "octo", "User", tt.label)
			e.run()
			if r := e.runs()["aep/report"]; r.Conclusion != tt.conclusion {
				t.Errorf("aep/report = %s (%s), want %s", r.Conclusion, r.Title, tt.conclusion)
			}
		})
	}
}
