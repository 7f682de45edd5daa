package action

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/ghfake"
	"github.com/aepgate/aepgate/internal/sharedfix"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/negcontrol"
	"github.com/aepgate/aepgate/protocol/scaffold"
)

// stepEnv is one workflow step against the fake GitHub: a repository with a
// config on main and a pull request whose head carries a run folder.
type stepEnv struct {
	t        *testing.T
	f        *ghfake.Fake
	repo     *ghfake.Repo
	vars     map[string]string
	ws       string
	head     string
	base     string
	stdout   bytes.Buffer
	controls func(ctx context.Context, root string, cs []config.NegativeControl) ([]negcontrol.Result, error)
}

const baseConfig = `version: 1
run_documents: [docs/run]
negative_controls:
  - name: auth-check
    break: "true"
    restore: "true"
    test: "false"
`

// newStepEnv builds the repository, the workspace (a scaffolded run folder,
// plus extra guide text) and a pull_request event from the real fixture's
// shape, with a token holding perms.
func newStepEnv(t *testing.T, perms ghfake.Permissions, extraGuide, body string) *stepEnv {
	t.Helper()
	e := &stepEnv{t: t, f: ghfake.New(t), ws: t.TempDir()}
	e.repo = e.f.CreateRepo("acme/widgets")
	e.base = e.repo.Commit("main", "add config", map[string]string{".github/aepgate.yml": baseConfig})
	e.repo.Branch("unit-12", "main")
	files := map[string]string{}
	for _, f := range scaffold.Render("widgets") {
		content := string(f.Content)
		if f.Path == "execution-guide.md" {
			content += extraGuide
		}
		files["docs/run/"+f.Path] = content
		write(t, filepath.Join(e.ws, "docs/run", f.Path), content)
	}
	write(t, filepath.Join(e.ws, ".github/aepgate.yml"), baseConfig)
	e.head = e.repo.Commit("unit-12", "work", files)
	body = strings.ReplaceAll(body, "HEAD", e.head)
	event := e.event(body)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "event.json"), event)
	e.vars = map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/widgets", "GITHUB_EVENT_NAME": "pull_request",
		"GITHUB_EVENT_PATH": filepath.Join(dir, "event.json"), "GITHUB_SHA": strings.Repeat("e", 40),
		"GITHUB_API_URL": strings.TrimSuffix(e.f.URL(), "/"), "GITHUB_WORKSPACE": e.ws,
		"GITHUB_OUTPUT": filepath.Join(dir, "output"), "GITHUB_STEP_SUMMARY": filepath.Join(dir, "summary"),
		"GITHUB_SERVER_URL": "https://github.com", "GITHUB_RUN_ID": "4242",
		"INPUT_TOKEN": e.f.ActionsToken(e.repo, perms),
	}
	e.controls = func(_ context.Context, _ string, cs []config.NegativeControl) ([]negcontrol.Result, error) {
		out := make([]negcontrol.Result, len(cs))
		for i, c := range cs {
			out[i] = negcontrol.Result{Name: c.Name, OK: true, Verdict: "OK: protection verified", Transcript: "$ false\n", Seconds: 0.5}
		}
		return out, nil
	}
	return e
}

// event rewrites the real pull_request.opened payload for this repository.
func (e *stepEnv) event(body string) string {
	raw, err := os.ReadFile(sharedfix.Path(e.t, "fixtures/github/webhooks/pull_request/opened.payload.json"))
	if err != nil {
		e.t.Fatal(err)
	}
	var ev map[string]any
	if err := json.Unmarshal(raw, &ev); err != nil {
		e.t.Fatal(err)
	}
	pr := ev["pull_request"].(map[string]any)
	pr["number"], pr["body"] = 34, body
	head, base := pr["head"].(map[string]any), pr["base"].(map[string]any)
	head["sha"], head["ref"], base["sha"], base["ref"] = e.head, "unit-12", e.base, "main"
	head["repo"].(map[string]any)["full_name"] = "acme/widgets"
	base["repo"].(map[string]any)["full_name"] = "acme/widgets"
	ev["repository"].(map[string]any)["full_name"] = "acme/widgets"
	out, _ := json.Marshal(ev)
	return string(out)
}

func (e *stepEnv) run() int {
	e.t.Helper()
	e.stdout.Reset()
	code, err := Run(context.Background(), Options{
		Getenv: func(k string) string { return e.vars[k] }, Stdout: &e.stdout,
		HTTPClient: e.f.HTTPClient(), RunControls: e.controls,
	})
	if err != nil {
		e.t.Logf("Run: %v", err)
	}
	return code
}

func (e *stepEnv) runs() map[string]ghfake.CheckRun {
	out := map[string]ghfake.CheckRun{}
	for _, r := range e.repo.CheckRuns(e.head) {
		if _, dup := out[r.Name]; dup {
			e.t.Errorf("check run %s exists twice", r.Name)
		}
		out[r.Name] = r
	}
	return out
}

func (e *stepEnv) file(key string) string {
	b, _ := os.ReadFile(e.vars[key])
	return string(b)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const goodBody = `Adds the widget.

STATUS: done
WORK-UNIT: #12
ATTEMPT: 1
BRANCH: unit-12
PR: #34
DONE:
- widget added
NOT DONE / OPEN: none
FILES:
- docs/run/compliance-log.md
VERIFY:
- ` + "`go test ./...`" + ` → ok
PRESERVATION: clean + pushed at HEAD
`

// manyTasks adds 120 tasks without a **Report:** line: 120 lint problems.
func manyTasks() string {
	var b strings.Builder
	for i := 2; i < 122; i++ {
		fmt.Fprintf(&b, "\n### P0-T%d — task %d\n\n**Goal:** g\n", i, i)
	}
	return b.String()
}

var writable = ghfake.Permissions{"checks": "write", "contents": "read"}

func TestActionPullRequest(t *testing.T) {
	e := newStepEnv(t, writable, "", goodBody)
	if code := e.run(); code != ExitOK {
		t.Fatalf("exit %d, want 0\n%s", code, e.stdout.String())
	}
	want := map[string]string{
		"aep/lint": "success", "aep/status": "neutral", "aep/negative-controls": "success", "aep/report": "success",
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
	if creates != 4 || lintPatches != 2 || len(e.f.Writes()) != 6 {
		t.Errorf("creates %d, lint updates %d, writes %d; want 4, 2, 6:\n%s", creates, lintPatches, len(e.f.Writes()), e.f.WriteLog())
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
	e := newStepEnv(t, ghfake.Permissions{"checks": "read", "contents": "read"}, manyTasks(), "no report here")
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
	// the config; the base commit's copy still judges it.
	e := newStepEnv(t, writable, "", goodBody)
	write(t, filepath.Join(e.ws, ".github/aepgate.yml"), "version: 1\nrun_documents: [docs/run]\n")
	e.run()
	if _, ok := e.runs()["aep/negative-controls"]; !ok {
		t.Error("the PR's own config removed aep/negative-controls; the base commit's policy must apply")
	}
	// Negative control: read the policy from the checkout and the pull
	// request's deletion takes effect.
	policyFromBase = false
	defer func() { policyFromBase = true }()
	e2 := newStepEnv(t, writable, "", goodBody)
	write(t, filepath.Join(e2.ws, ".github/aepgate.yml"), "version: 1\nrun_documents: [docs/run]\n")
	e2.run()
	if _, ok := e2.runs()["aep/negative-controls"]; ok {
		t.Error("with the base-commit read off, the PR's own config still kept the control; the test proves nothing")
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
			code, err := Run(context.Background(), Options{Getenv: func(k string) string { return e.vars[k] }, Stdout: &e.stdout, HTTPClient: e.f.HTTPClient()})
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

func writeEvent(t *testing.T, e *stepEnv, base string) string {
	e.base = base
	p := filepath.Join(t.TempDir(), "event.json")
	write(t, p, e.event(strings.ReplaceAll(goodBody, "HEAD", e.head)))
	return p
}

func TestActionForkPullRequestDegrades(t *testing.T) {
	e := newStepEnv(t, ghfake.Permissions{"checks": "read", "contents": "read"}, "", goodBody)
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
		HTTPClient: e.f.HTTPClient(), RunControls: e.controls,
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
