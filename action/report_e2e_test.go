package action

import (
	"encoding/json"
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
		{"listed but unchanged fails", "- docs/run/\n- cmd/gone.go\n", writable, "failure", []string{"failure file-not-changed"}},
		{"changed but unlisted warns", "- docs/run/compliance-log.md\n", writable, "success",
			[]string{"warning file-not-listed", "warning file-not-listed"}},
		{"files unreadable fails closed", "- docs/run/\n", ghfake.Permissions{"checks": "write", "contents": "read"}, "failure",
			[]string{"failure files-unreadable"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newStepEnv(t, tt.perms, "", strings.Replace(goodBody, "- docs/run/\n", tt.files, 1))
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
