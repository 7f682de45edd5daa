package action

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

func TestActionPullRequest(t *testing.T) {
	e := newStepEnv(t, writable, "", goodBody)
	if code := e.run(); code != ExitOK {
		t.Fatalf("exit %d, want 0\n%s", code, e.stdout.String())
	}
	want := map[string]string{
		"aep/lint": "success", "aep/status": "neutral", "aep/negative-controls": "success", "aep/report": "success",
		"aep/verdicts": "neutral",
	}
	got := map[string]string{}
	for name, r := range e.runs() {
		got[name] = r.Conclusion
		if r.ExternalID == "" || r.Summary == "" || r.AppID != ghfake.ActionsAppID {
			t.Errorf("%s: external id %q, app %d, summary %d bytes", name, r.ExternalID, r.AppID, len(r.Summary))
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("conclusions = %v, want %v", got, want)
	}
	titles := map[string]string{
		"aep/lint": "clean: 1 run folder", "aep/status": "0.0% approved · 2 items open",
		"aep/negative-controls": "1 control verified", "aep/report": "worker report: done, pushed at " + e.head[:12],
		"aep/verdicts": "no auditors list: verdicts not judged",
	}
	for name, r := range e.runs() {
		if r.Title != titles[name] {
			t.Errorf("%s title = %q, want %q", name, r.Title, titles[name])
		}
		if len(r.Annotations) != 0 {
			t.Errorf("%s has %d annotations, want none", name, len(r.Annotations))
		}
	}
	if strings.Contains(e.stdout.String(), "::error") || strings.Contains(e.stdout.String(), "::warning") {
		t.Errorf("workflow annotations printed although the check runs were written:\n%s", e.stdout.String())
	}
	out := e.file("GITHUB_OUTPUT")
	for _, s := range []string{"conclusion<<ghadelimiter_", "\nneutral\n", "problems<<", "\n0\n", `"dir":"docs/run"`} {
		if !strings.Contains(out, s) {
			t.Errorf("GITHUB_OUTPUT lacks %q:\n%s", s, out)
		}
	}
	summary := e.file("GITHUB_STEP_SUMMARY")
	if !strings.Contains(summary, "base commit") || !strings.Contains(summary, "aep/report") {
		t.Errorf("job summary lacks the policy note or the report:\n%s", summary)
	}
}

func TestActionTwiceUpdatesNeverDuplicates(t *testing.T) {
	e := newStepEnv(t, writable, manyTasks(), goodBody)
	if code := e.run(); code != ExitFailed {
		t.Fatalf("exit %d, want 1 (lint fails)\n%s", code, e.stdout.String())
	}
	first := e.runs()
	if n := len(first["aep/lint"].Annotations); n != 120 {
		t.Fatalf("aep/lint has %d annotations, want 120", n)
	}
	creates, lintPatches := 0, 0
	lintPath := fmt.Sprintf("/repos/acme/widgets/check-runs/%d", first["aep/lint"].ID)
	for _, w := range e.f.Writes() {
		switch {
		case w.Method == "POST" && w.Path == "/repos/acme/widgets/check-runs":
			creates++
		case w.Method == "PATCH" && w.Path == lintPath:
			lintPatches++
		}
	}
	// 120 annotations take three requests: the create with 50, then two
	// appending updates (50 and 20). Every other run is one create.
	if creates != 5 || lintPatches != 2 || len(e.f.Writes()) != 7 {
		t.Errorf("creates %d, lint updates %d, writes %d; want 5, 2, 7:\n%s", creates, lintPatches, len(e.f.Writes()), e.f.WriteLog())
	}
	e.f.ResetLog()
	e.run()
	second := e.runs()
	for name, r := range second {
		if r.ID != first[name].ID {
			t.Errorf("%s: second run made check run %d, want the same %d", name, r.ID, first[name].ID)
		}
	}
	if n := len(second["aep/lint"].Annotations); n != 120 {
		t.Errorf("aep/lint has %d annotations after the re-run, want 120", n)
	}
	if w := e.f.Writes(); len(w) != 0 {
		t.Errorf("an unchanged re-run wrote:\n%s", e.f.WriteLog())
	}
}

func TestActionReadOnlyTokenDegrades(t *testing.T) {
	e := newStepEnv(t, ghfake.Permissions{"checks": "read", "contents": "read"}, manyTasks(), "Work-unit: #12\n\nno report here")
	if code := e.run(); code != ExitFailed {
		t.Fatalf("exit %d, want 1", code)
	}
	if n := len(e.repo.CheckRuns(e.head)); n != 0 {
		t.Errorf("%d check runs written with a read-only token", n)
	}
	out := e.stdout.String()
	if n := strings.Count(out, "could not write check runs"); n != 1 {
		t.Errorf("the degrade notice appears %d times, want once:\n%s", n, out)
	}
	if n := strings.Count(out, "::error "); n != 10 {
		t.Errorf("%d error annotations, want 10 (the per-level cap):\n%s", n, out)
	}
	summary := e.file("GITHUB_STEP_SUMMARY")
	if !strings.Contains(summary, "111 annotations not shown as workflow annotations") {
		t.Errorf("job summary does not list the overflow (120 lint + 1 report − 10 shown):\n%.2000s", summary)
	}
}

func TestActionNoTokenDegrades(t *testing.T) {
	e := newStepEnv(t, writable, "", goodBody)
	delete(e.vars, "INPUT_TOKEN")
	if code := e.run(); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, e.stdout.String())
	}
	if !strings.Contains(e.stdout.String(), "no token was given") {
		t.Errorf("no notice about the missing token:\n%s", e.stdout.String())
	}
	if !strings.Contains(e.stdout.String(), "aep/lint: success — ") {
		t.Errorf("the log does not say each unwritten run's result:\n%s", e.stdout.String())
	}
	if !strings.Contains(e.file("GITHUB_STEP_SUMMARY"), "pull request's own copy applies") {
		t.Error("summary does not say the policy came from the PR's own checkout")
	}
}

func TestActionReportProblems(t *testing.T) {
	e := newStepEnv(t, writable, "", strings.Replace(goodBody, "pushed at HEAD", "pushed at "+strings.Repeat("a", 40), 1))
	if code := e.run(); code != ExitFailed {
		t.Fatalf("exit %d, want 1", code)
	}
	r := e.runs()["aep/report"]
	if r.Conclusion != "failure" || len(r.Annotations) != 1 || r.Annotations[0].Path != "PR #34 body" {
		t.Errorf("aep/report = %s with %+v", r.Conclusion, r.Annotations)
	}
}

func TestActionFailOnNever(t *testing.T) {
	e := newStepEnv(t, writable, manyTasks(), goodBody)
	e.vars["INPUT_FAIL-ON"] = "never"
	if code := e.run(); code != ExitOK {
		t.Fatalf("exit %d, want 0 with fail-on never", code)
	}
	if !strings.Contains(e.file("GITHUB_OUTPUT"), "\nfailure\n") {
		t.Error("conclusion output is not failure")
	}
}

func TestActionPolicyFromBaseCommit(t *testing.T) {
	// The pull request deletes the negative control from its own copy of
	// the config; the base commit's copy still judges it. The negative
	// control gives the step no FileReader, so the policy comes from the
	// checkout and the pull request's deletion takes effect.
	workspaceOnly := func(e *stepEnv) Connector {
		return func(apiURL, token string) (GitHub, error) {
			g, err := e.connect()(apiURL, token)
			g.Files = nil
			return g, err
		}
	}
	tests := []struct {
		name        string
		connect     func(*stepEnv) Connector
		wantControl bool
	}{
		{"base commit", (*stepEnv).connect, true},
		{"negative control: workspace copy", workspaceOnly, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newStepEnv(t, writable, "", goodBody)
			write(t, filepath.Join(e.ws, ".github/aepgate.yml"), "version: 1\nrun_documents: [docs/run]\n")
			Run(context.Background(), Options{
				Getenv: func(k string) string { return e.vars[k] }, Stdout: &e.stdout,
				GitHub: tt.connect(e), RunControls: e.controls,
			})
			if _, got := e.runs()["aep/negative-controls"]; got != tt.wantControl {
				t.Errorf("aep/negative-controls written: %v, want %v", got, tt.wantControl)
			}
		})
	}
}

func TestAction200KBSummaryIsCut(t *testing.T) {
	var b strings.Builder
	for i := 2; i < 1802; i++ {
		fmt.Fprintf(&b, "\n### P0-T%d — task %d with a longer title to fill the table\n\n**Goal:** g\n", i, i)
	}
	e := newStepEnv(t, writable, b.String(), goodBody)
	e.vars["INPUT_CHECKS"] = "lint"
	e.run()
	r := e.runs()["aep/lint"]
	if len(r.Summary) > 65535 || !strings.Contains(r.Summary, "aepgate cut this summary") {
		t.Errorf("summary of %d bytes; cut note present: %v", len(r.Summary), strings.Contains(r.Summary, "cut this summary"))
	}
	if len(r.Annotations) != 1800 {
		t.Errorf("annotations = %d, want 1800", len(r.Annotations))
	}
	full := e.file("GITHUB_STEP_SUMMARY")
	if len(full) < 200_000 || !strings.Contains(full, "P0-T1801") {
		t.Errorf("job summary has %d bytes and lacks the last problem; it should hold the full report", len(full))
	}
}

func TestActionInputErrors(t *testing.T) {
	tests := []struct {
		name, key, value, want string
	}{
		{"fail-on", "INPUT_FAIL-ON", "sometimes", "fail-on"},
		{"checks", "INPUT_CHECKS", "lint,coverage", "coverage"},
		{"no repository", "GITHUB_REPOSITORY", "", "GITHUB_REPOSITORY"},
		{"bad run id", "GITHUB_RUN_ID", "x", "workflow context"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newStepEnv(t, writable, "", goodBody)
			e.vars[tt.key] = tt.value
			code, err := Run(context.Background(), Options{Getenv: func(k string) string { return e.vars[k] }, Stdout: &e.stdout, GitHub: e.connect()})
			if code != ExitInput || err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("code %d, err %v; want 2 and an error naming %q", code, err, tt.want)
			}
			if len(e.f.Requests()) != 0 {
				t.Errorf("a bad input still made %d requests", len(e.f.Requests()))
			}
		})
	}
}

func TestActionBadConfig(t *testing.T) {
	e := newStepEnv(t, writable, "", goodBody)
	e.repo.Commit("main", "break config", map[string]string{".github/aepgate.yml": "version: 1\nowners: 7\nbogus: true\n"})
	e.vars["GITHUB_EVENT_PATH"] = writeEvent(t, e, e.repo.Head("main"))
	code := e.run()
	if code != ExitInput {
		t.Fatalf("exit %d, want 2", code)
	}
	if !strings.Contains(e.stdout.String(), "::error file=.github/aepgate.yml,line=") {
		t.Errorf("config errors are not annotated at their lines:\n%s", e.stdout.String())
	}
}

func TestActionForkPullRequestDegrades(t *testing.T) {
	e := newStepEnv(t, ghfake.Permissions{"checks": "read", "contents": "read", "pull_requests": "read"}, "", goodBody)
	var ev map[string]any
	b, _ := os.ReadFile(e.vars["GITHUB_EVENT_PATH"])
	json.Unmarshal(b, &ev)
	ev["pull_request"].(map[string]any)["head"].(map[string]any)["repo"].(map[string]any)["full_name"] = "mallory/widgets"
	b, _ = json.Marshal(ev)
	write(t, e.vars["GITHUB_EVENT_PATH"], string(b))
	if code := e.run(); code != ExitOK {
		t.Fatalf("exit %d\n%s", code, e.stdout.String())
	}
	if !strings.Contains(e.stdout.String(), "comes from the fork mallory/widgets") {
		t.Errorf("the notice does not name the fork:\n%s", e.stdout.String())
	}
	if !strings.Contains(e.file("GITHUB_STEP_SUMMARY"), "base commit") {
		t.Error("the fork's policy was not read from the base commit")
	}
}

func TestActionRateLimitedWriteFails(t *testing.T) {
	e := newStepEnv(t, writable, "", goodBody)
	e.f.InjectFault("POST /repos/{owner}/{repo}/check-runs", ghfake.Fault{Kind: ghfake.FaultSecondary, RetryAfter: 90})
	code, err := Run(context.Background(), Options{
		Getenv: func(k string) string { return e.vars[k] }, Stdout: &e.stdout,
		GitHub: e.connect(), RunControls: e.controls,
	})
	if code != ExitFailed || err == nil || !strings.Contains(err.Error(), "retry after 1m30s") {
		t.Fatalf("code %d, err %v; want 1 and a rate-limit error saying when to retry", code, err)
	}
	posts := 0
	for _, w := range e.f.Requests() {
		if w.Method == "POST" {
			posts++
		}
	}
	if posts != 1 {
		t.Errorf("%d create attempts, want 1 (no busy retry)", posts)
	}
	if !strings.Contains(e.file("GITHUB_STEP_SUMMARY"), "aep/lint") {
		t.Error("the job summary was not written")
	}
}

func TestActionRealNegativeControl(t *testing.T) {
	e := newStepEnv(t, writable, "", goodBody)
	e.controls = nil // isolate.RunAll: each control in its own copy of the workspace
	cfg := "version: 1\nrun_documents: [docs/run]\nnegative_controls:\n" +
		"  - name: guard\n    file: guard.txt\n    break: echo gone > guard.txt\n    test: grep -q ok guard.txt\n" +
		"  - name: toothless\n    file: guard.txt\n    break: echo still ok > guard.txt\n    test: grep -q ok guard.txt\n"
	base := e.repo.Commit("main", "controls", map[string]string{".github/aepgate.yml": cfg})
	e.vars["GITHUB_EVENT_PATH"] = writeEvent(t, e, base)
	write(t, filepath.Join(e.ws, "guard.txt"), "ok\n")
	if code := e.run(); code != ExitFailed {
		t.Fatalf("exit %d, want 1 (the toothless control is not verified)\n%s", code, e.stdout.String())
	}
	r := e.runs()["aep/negative-controls"]
	if r.Conclusion != "failure" || r.Title != "1 of 2 controls not verified" || len(r.Annotations) != 1 {
		t.Errorf("aep/negative-controls = %s %q with %d annotations\n%s\n%s", r.Conclusion, r.Title, len(r.Annotations), r.Summary, r.Text)
	}
	if !strings.Contains(r.Text, "grep -q ok guard.txt") {
		t.Errorf("the transcript is missing from the text:\n%s", r.Text)
	}
	if b, _ := os.ReadFile(filepath.Join(e.ws, "guard.txt")); string(b) != "ok\n" {
		t.Errorf("the workspace was modified: guard.txt = %q", b)
	}
}
