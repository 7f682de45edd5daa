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

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/isolate"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
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
	// commands and checkout are Options.RunCommands and Options.Checkout;
	// nil means the defaults.
	commands func(ctx context.Context, root string, cmds []string) ([]isolate.Outcome, error)
	checkout func(ctx context.Context, ev Event) (string, error)
	// history is Options.LocalHistory; nil means the default.
	history func(ctx context.Context, ev Event) (PlanHistory, error)
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
	e := &stepEnv{t: t, f: ghfake.New(t)}
	e.repo = e.f.CreateRepo("acme/widgets")
	files := map[string]string{}
	for _, f := range scaffold.Render("widgets") {
		content := string(f.Content)
		if f.Path == "execution-guide.md" {
			content += extraGuide
		}
		files["docs/run/"+f.Path] = content
	}
	// The auditor's plan and guide are on main; the pull request carries
	// the executor's part (an unchanged guide and plan too).
	e.base = e.repo.Commit("main", "add config", map[string]string{".github/aepgate.yml": baseConfig,
		"docs/run/plan-of-record.md": files["docs/run/plan-of-record.md"], "docs/run/execution-guide.md": files["docs/run/execution-guide.md"]})
	e.repo.Branch("unit-12", "main")
	files["widget.go"] = "package widget\n"
	e.head = e.repo.Commit("unit-12", "work", files)
	body = strings.ReplaceAll(body, "HEAD", e.head)
	for range prNumber - 1 {
		e.repo.OpenIssue("octo", "earlier issue", "")
	}
	e.repo.OpenPR("octo", "unit-12", "main", "Add the widget", body)
	// The workspace is the head checked out, as actions/checkout with
	// ref: head.sha leaves it.
	e.ws = mirrorGit(t, e.f.Client(e.f.ActionsToken(e.repo, writable)), e.head)
	e.f.ResetLog()
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
	raw := fixtures.Payload(e.t, "pull_request", "opened")
	var ev map[string]any
	if err := json.Unmarshal(raw, &ev); err != nil {
		e.t.Fatal(err)
	}
	pr := ev["pull_request"].(map[string]any)
	pr["number"], pr["body"] = prNumber, body
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
		GitHub: e.connect(), RunControls: e.controls, RunCommands: e.commands, Checkout: e.checkout,
		LocalHistory: e.history,
	})
	if err != nil {
		e.t.Logf("Run: %v", err)
	}
	return code
}

// connect opens the fake GitHub, without a pause between writes.
func (e *stepEnv) connect() Connector {
	return NewConnector(gh.ActionClientOptions{HTTPClient: e.f.HTTPClient()})
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

// prNumber is the pull request's number in the fake and in the event.
const prNumber = 34

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
- docs/run/
- widget.go
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

// writable is the README workflow's token: checks written, contents and
// pull requests read.
var writable = ghfake.Permissions{"checks": "write", "contents": "read", "pull_requests": "read"}

func writeEvent(t *testing.T, e *stepEnv, base string) string {
	e.base = base
	p := filepath.Join(t.TempDir(), "event.json")
	write(t, p, e.event(strings.ReplaceAll(goodBody, "HEAD", e.head)))
	return p
}
