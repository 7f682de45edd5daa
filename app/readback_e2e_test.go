package app_test

import (
	"context"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// readbackYAML requires the ci workflow for readback; olivia is the owner.
const readbackYAML = "version: 1\nowners: [olivia]\nrequired_workflows:\n  readback: [ci]\n"

// readbackWorld is a ghfake world whose App may read workflow runs
// (Actions: read), with one unit and an open pull request naming it whose
// head has a green ci run and a judged aepgate/gates.
type readbackWorld struct {
	*appkit.Live
	unit *ghfake.Issue
	pr   *ghfake.PR
	ciID int64
	// skew moves the App's readback clock ahead of real time.
	skew *atomic.Int64
}

// passAudit is the audit record the tests hand in through the auditedSHA
// seam: a PASS by carol at the final head.
func passAudit(_ context.Context, _, _ string, m *gh.MergedPull) (readback.Audit, error) {
	return readback.Audit{SHA: m.HeadSHA, Auditor: "carol", ReviewID: 77, Verdict: "PASS"}, nil
}

// newReadbackWorld builds the world; edit changes the readback options after the defaults (a PASS audit at
// the final head, a clock that tests can move).
func newReadbackWorld(t *testing.T, yaml string, edit func(*app.ReadbackSeams)) *readbackWorld {
	t.Helper()
	return newReadbackWorldWith(t, yaml, edit, nil)
}

// newReadbackWorldWith is newReadbackWorld with the App's options changed
// by editApp (nil: unchanged).
func newReadbackWorldWith(t *testing.T, yaml string, edit func(*app.ReadbackSeams), editApp func(*app.Options)) *readbackWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	skew := &atomic.Int64{}
	f := ghfake.New(t)
	ghApp := f.App(appkit.AppID, appkit.Key(t))
	repo := f.CreateRepo("acme/widgets")
	inst := ghApp.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write",
		"pull_requests": "write", "metadata": "read", "actions": "read", "attestations": "write"}, repo)
	repo.Commit("main", "config", map[string]string{".github/aepgate.yml": yaml})
	repo.Grant("olivia", "admin")
	o := appkit.Options(t, nil, "")
	o.GitHubURL = f.URL()
	o.Seams.Readback = app.ReadbackSeams{Audited: passAudit, Now: func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }}
	if edit != nil {
		edit(&o.Seams.Readback)
	}
	if editApp != nil {
		editApp(&o)
	}
	a, base := appkit.Start(t, o)
	f.SendWebhooks(base+"/webhook", appkit.Secret, ghApp)
	w := &readbackWorld{Live: &appkit.Live{F: f, Repo: repo, App: a, Base: base, Inst: inst, GHApp: ghApp}, skew: skew}
	ms := repo.CreateMilestone("M", "")
	w.unit = repo.OpenIssue("alice", "Unit", appkit.Contract("low", "product"), ghfake.InMilestone(ms))
	repo.Branch("work", "main")
	repo.Commit("work", "work", map[string]string{"work.go": "package x\n"})
	w.pr = repo.OpenPR("bob", "work", "main", "Work", "Work-unit: #"+strconv.Itoa(w.unit.Number()))
	appkit.WaitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return w.latest(w.pr.Head(), checks.NameGates) != nil })
	w.ciID = repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: w.pr.Head(), Branch: "work", Event: "pull_request"}).ID()
	return w
}

// latest is the newest check run called name on sha, or nil.
func (w *readbackWorld) latest(sha, name string) *ghfake.CheckRun {
	return appkit.NewestRunOn(w.Repo, sha, name)
}

// count is how many check runs called name are on sha.
func (w *readbackWorld) count(sha, name string) int {
	n := 0
	for _, r := range w.Repo.CheckRuns(sha) {
		if r.Name == name {
			n++
		}
	}
	return n
}

// waitReadback waits until aepgate/readback on sha is completed with
// conclusion want ("" waits for in_progress) and returns it.
func (w *readbackWorld) waitReadback(t *testing.T, sha, want string) *ghfake.CheckRun {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, "aepgate/readback "+want, func() bool {
		r := w.latest(sha, checks.NameReadback)
		return r != nil && r.Conclusion == want && (want != "" || r.Status == "in_progress")
	})
	return w.latest(sha, checks.NameReadback)
}

// mainCI completes a ci run on main at sha.
func (w *readbackWorld) mainCI(sha, conclusion string) *ghfake.WorkflowRun {
	return w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: sha, Branch: "main", Event: "push", Conclusion: conclusion})
}

// sweep runs the reconcile sweep once, as the periodic job does.
func (w *readbackWorld) sweep(t *testing.T) {
	t.Helper()
	if err := w.App.Sweep(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// labels are the unit issue's labels.
func (w *readbackWorld) labels(t *testing.T) []string {
	t.Helper()
	is, _, err := w.F.Client(w.Inst.Token()).Issues.Get(context.Background(), "acme", "widgets", w.unit.Number())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range is.Labels {
		out = append(out, l.GetName())
	}
	if is.GetState() != "open" {
		t.Errorf("the unit's issue is %s; the App never closes it", is.GetState())
	}
	return out
}

// wantRefused checks that run failed naming token and that no certificate
// is on sha.
func (w *readbackWorld) wantRefused(t *testing.T, sha string, run *ghfake.CheckRun, token string) {
	t.Helper()
	if run.Conclusion != "failure" || !strings.Contains(run.Summary, "`"+token+"`") {
		t.Errorf("readback %s, want failure naming %s:\n%s\n%s", run.Conclusion, token, run.Title, run.Summary)
	}
	time.Sleep(200 * time.Millisecond)
	if n := w.count(sha, checks.NameCertificate); n != 0 {
		t.Errorf("%d certificates on a refused readback", n)
	}
}
