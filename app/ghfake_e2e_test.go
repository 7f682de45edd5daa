package app

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/ghfake"
)

// ghfakeWorld is a repository on internal/ghfake with the App installed
// and delivering its webhooks to a running serve.
type ghfakeWorld struct {
	f    *ghfake.Fake
	repo *ghfake.Repo
	base string
}

func newGhfakeWorld(t *testing.T) *ghfakeWorld {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	key := appKey(t)
	ghApp := f.App(testAppID, key)
	repo := f.CreateRepo("acme/widgets")
	ghApp.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "read", "pull_requests": "read", "metadata": "read"}, repo)
	o := testOptions(t, nil, "")
	o.GitHubURL = f.URL()
	_, base := startApp(t, o)
	f.SendWebhooks(base+"/webhook", testSecret, ghApp)
	return &ghfakeWorld{f: f, repo: repo, base: base}
}

// workUnitRun returns the newest aepgate/work-unit run on sha, or nil.
func (w *ghfakeWorld) workUnitRun(sha string) *ghfake.CheckRun {
	var found *ghfake.CheckRun
	for _, r := range w.repo.CheckRuns(sha) {
		if r.Name == WorkUnitCheck {
			r := r
			found = &r
		}
	}
	return found
}

func TestGhfakeWorkUnitLifecycle(t *testing.T) {
	w := newGhfakeWorld(t)
	ms := w.repo.CreateMilestone("Exports", "Ship exports.\n\n```yaml\nrisk: medium\ndemonstration: a CSV is downloaded\n```\n")
	api := w.repo.OpenIssue("alice", "Report API", contract("low", "contract"), ghfake.InMilestone(ms))
	export := w.repo.OpenIssue("alice", "Export reports", contract("medium", "product", api.Number()), ghfake.InMilestone(ms))
	api.Close("alice")
	w.repo.Branch("feature", "main")
	w.repo.Commit("feature", "export", map[string]string{"export.go": "package x\n"})
	pr := w.repo.OpenPR("bob", "feature", "main", "Export", "Adds CSV export.\n\nWork-unit: #"+strconv.Itoa(export.Number()))
	head := pr.Head()
	waitFor(t, 10*time.Second, "work-unit check on the PR head", func() bool { return w.workUnitRun(head) != nil })
	if r := w.workUnitRun(head); r.Conclusion != "success" {
		t.Fatalf("conclusion %q, title %q\n%s", r.Conclusion, r.Title, r.Summary)
	}

	// Reopening the dependency fails the PR; closing it again passes.
	api.Reopen("alice")
	waitFor(t, 10*time.Second, "failure after the dependency reopened", func() bool { return w.workUnitRun(head).Conclusion == "failure" })
	if r := w.workUnitRun(head); !strings.Contains(r.Summary, "is still open") {
		t.Errorf("summary:\n%s", r.Summary)
	}

	// A native blocker (GitHub's blocked-by) also blocks, once an edit re-evaluates.
	api.Close("alice")
	waitFor(t, 10*time.Second, "success after the dependency closed", func() bool { return w.workUnitRun(head).Conclusion == "success" })
	blocker := w.repo.OpenIssue("carol", "Infra", "no contract needed")
	export.BlockedBy(blocker)
	export.Edit("alice", contract("medium", "product", api.Number())+"\n(edited)")
	waitFor(t, 10*time.Second, "failure from the native blocker", func() bool { return w.workUnitRun(head).Conclusion == "failure" })
	if r := w.workUnitRun(head); !strings.Contains(r.Summary, "is blocked by #"+strconv.Itoa(blocker.Number())) {
		t.Errorf("summary:\n%s", r.Summary)
	}
	n := 0
	for _, r := range w.repo.CheckRuns(head) {
		if r.Name == WorkUnitCheck {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d %s runs on the head, want 1 (updated in place)", n, WorkUnitCheck)
	}
	for _, d := range w.f.Deliveries() {
		if d.Status != 202 && d.Status != 200 {
			t.Errorf("delivery %s %s answered %d", d.Event, d.Action, d.Status)
		}
	}
}

func TestGhfakeBrokenConfigOnDefaultBranch(t *testing.T) {
	w := newGhfakeWorld(t)
	w.repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nowners: alice\n"})
	ms := w.repo.CreateMilestone("M", "")
	u := w.repo.OpenIssue("alice", "Unit", contract("low", "product"), ghfake.InMilestone(ms))
	w.repo.Branch("fix", "main")
	// The PR tries to fix the config itself; it must not count.
	w.repo.Commit("fix", "fix config", map[string]string{".github/aepgate.yml": "version: 1\nowners: [alice]\n"})
	pr := w.repo.OpenPR("bob", "fix", "main", "Fix", "Fixes #"+strconv.Itoa(u.Number()))
	head := pr.Head()
	waitFor(t, 10*time.Second, "config check", func() bool {
		for _, r := range w.repo.CheckRuns(head) {
			if r.Name == ConfigCheck {
				return true
			}
		}
		return false
	})
	for _, r := range w.repo.CheckRuns(head) {
		if r.Name == ConfigCheck && (r.Conclusion != "failure" || !strings.Contains(r.Summary, "owners")) {
			t.Errorf("config run: %s\n%s", r.Conclusion, r.Summary)
		}
	}
	waitFor(t, 10*time.Second, "work-unit check", func() bool { return w.workUnitRun(head) != nil })
	if r := w.workUnitRun(head); r.Conclusion != "failure" {
		t.Errorf("work-unit with a broken default-branch config: %s", r.Conclusion)
	}
}
