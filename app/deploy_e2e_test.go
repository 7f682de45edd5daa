package app_test

import (
	"context"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	deployrules "github.com/aepgate/aepgate/protocol/deploy"
)

// deployWorld is a ghfake world whose App may answer deployments
// (Deployments: write) and can be restarted on its database.
type deployWorld struct {
	F     *ghfake.Fake
	Repo  *ghfake.Repo
	GHApp *ghfake.App
	o     app.Options
	App   *app.App
	Base  string
	stop  func()
}

// newDeployWorld starts an App on a repository whose config is yaml;
// rules replace protocol/deploy's when set (a negative control).
func newDeployWorld(t *testing.T, yaml string, rules []deployrules.Rule) *deployWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	w := &deployWorld{F: f, GHApp: f.App(appkit.AppID, appkit.Key(t)), Repo: f.CreateRepo("acme/widgets")}
	w.GHApp.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write",
		"metadata": "read", "actions": "read", "deployments": "write"}, w.Repo)
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": yaml})
	w.Repo.Grant("olivia", "admin")
	w.Repo.Grant("mallory", "write")
	w.o = appkit.Options(t, nil, "")
	w.o.GitHubURL = f.URL()
	w.o.Seams.Readback = app.ReadbackSeams{Audited: passAudit}
	w.o.Seams.DeployRules = rules
	w.start(t)
	t.Cleanup(func() { w.stop() })
	return w
}

// start runs a new App process on the world's database and sends it the
// webhooks.
func (w *deployWorld) start(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, w.o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, ln) }()
	w.App, w.Base = a, "http://"+ln.Addr().String()
	w.stop = sync.OnceFunc(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("app run: %v", err)
		}
		a.Close()
	})
	w.F.SendWebhooks(w.Base+"/webhook", appkit.Secret, w.GHApp)
}

// restart stops the App and starts a new process on the same database.
func (w *deployWorld) restart(t *testing.T) {
	t.Helper()
	w.stop()
	w.start(t)
}

// certifiedMerge merges a unit's pull request and completes ci on main,
// and returns the merge commit once aepgate/certificate is on it.
func (w *deployWorld) certifiedMerge(t *testing.T) string {
	t.Helper()
	unit := w.Repo.OpenIssue("alice", "Unit", appkit.Contract("low", "product"), ghfake.InMilestone(w.Repo.CreateMilestone("M", "")))
	w.Repo.Branch("work", "main")
	w.Repo.Commit("work", "work", map[string]string{"work.go": "package x\n"})
	pr := w.Repo.OpenPR("bob", "work", "main", "Work", "Work-unit: #"+strconv.Itoa(unit.Number()))
	appkit.WaitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return appkit.NewestRunOn(w.Repo, pr.Head(), checks.NameGates) != nil })
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: "work", Event: "pull_request"})
	merge := pr.Merge(ghfake.MergeCommit)
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: merge, Branch: "main", Event: "push"})
	appkit.WaitFor(t, 15*time.Second, "certificate", func() bool { return appkit.NewestRunOn(w.Repo, merge, checks.NameCertificate) != nil })
	return merge
}

// deploy starts a deploy workflow run at sha waiting on production.
func (w *deployWorld) deploy(sha string) *ghfake.WorkflowRun {
	run := w.Repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy", SHA: sha})
	run.RequestDeployment("production")
	return run
}

// deployCounted is deploy with the fake's log reset once the run has
// started (its workflow_run deliveries are not the deployment's cost).
func (w *deployWorld) deployCounted(t *testing.T, sha string) *ghfake.WorkflowRun {
	t.Helper()
	run := w.Repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy", SHA: sha})
	w.Quiet(t)
	w.F.ResetLog()
	run.RequestDeployment("production")
	return run
}

// quiet waits until the App has made no request to the fake for half a
// second (at most 10 s): the work of earlier deliveries is done.
func (w *deployWorld) Quiet(t *testing.T) { t.Helper(); appkit.Drained(t, w.F, w.App) }

// deployCost is what the deployment's judgement cost, without the App's
// credentials (an installation token lasts an hour and the App's login is
// read once per process: neither is the request's).
func deployCost(st ghfake.Stats) (reads, writes int) {
	delete(st.ByRoute, "GET /app")
	delete(st.ByRoute, "POST /app/installations/{installation_id}/access_tokens")
	return appkit.APICalls(st)
}

// answered waits for run's answer and returns it.
func answered(t *testing.T, run *ghfake.WorkflowRun) ghfake.DeploymentReview {
	t.Helper()
	appkit.WaitFor(t, 30*time.Second, "the deployment's answer", func() bool { return len(run.DeploymentReviews()) > 0 })
	return run.DeploymentReviews()[0]
}

// settle waits until the App has run every job queued so far (drained):
// a comment's delivery has been judged, an answer written.
func (w *deployWorld) settle(t *testing.T) { t.Helper(); appkit.Drained(t, w.F, w.App) }

// controlIssue opens the control issue.
func (w *deployWorld) controlIssue() *ghfake.Issue {
	return w.Repo.OpenIssue("olivia", "control", "", ghfake.WithLabels("aepgate:control"))
}

// appComments are the App's comments on issue that name the gate of run.
func appComments(issue *ghfake.Issue, run *ghfake.WorkflowRun) int {
	n := 0
	for _, c := range issue.Comments() {
		if strings.HasSuffix(c.Author, "[bot]") && strings.HasPrefix(c.Body, "**Owner gate `"+deployrules.GateID("production", run.ID())+"`**") {
			n++
		}
	}
	return n
}

func withoutDeployRule(name string) []deployrules.Rule {
	var out []deployrules.Rule
	for _, r := range deployrules.DefaultRules() {
		if r.Name != name {
			out = append(out, r)
		}
	}
	return out
}
