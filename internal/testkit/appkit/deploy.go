package appkit

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/deployrules"
)

// RedeliverControl sends the newest control-issue comment again.
func (w *DeployWorld) RedeliverControl(t *testing.T) {
	t.Helper()
	ds := w.F.Deliveries()
	for i := len(ds) - 1; i >= 0; i-- {
		if ds[i].Event == "issue_comment" {
			Deliver(t, w.Base, "issue_comment", fmt.Sprintf("re-%d", time.Now().UnixNano()), ds[i].Payload)
			return
		}
	}
	t.Fatal("no issue_comment delivery recorded")
}

// DeployWorld is a ghfake world whose App may answer deployments
// (Deployments: write) and can be restarted on its database.
type DeployWorld struct {
	F     *ghfake.Fake
	Repo  *ghfake.Repo
	GHApp *ghfake.App
	Opts  app.Options
	App   *app.App
	Base  string
	Stop  func()
}

// Start runs a new App process on the world's database and sends it the
// webhooks.
func (w *DeployWorld) Start(t *testing.T) {
	t.Helper()
	if w.Opts.Seams.Readback.Coverage == nil {
		w.Opts.Seams.Readback.Coverage = FakeClones(t, w.Opts.GitHubURL)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, w.Opts)
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
	w.Stop = sync.OnceFunc(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("app run: %v", err)
		}
		a.Close()
	})
	w.F.SendWebhooks(w.Base+"/webhook", Secret, w.GHApp)
}

// Restart stops the App and starts a new process on the same database.
func (w *DeployWorld) Restart(t *testing.T) {
	t.Helper()
	w.Stop()
	w.Start(t)
}

// CertifiedMerge merges a unit's pull request and completes ci on main,
// and returns the merge commit once aepgate/certificate is on it.
func (w *DeployWorld) CertifiedMerge(t *testing.T) string {
	t.Helper()
	unit := w.Repo.OpenIssue("alice", "Unit", Contract("low", "product"), ghfake.InMilestone(w.Repo.CreateMilestone("M", "")))
	w.Repo.Branch("work", "main")
	w.Repo.Commit("work", "work", map[string]string{"work.go": "package x\n"})
	pr := w.Repo.OpenPR("bob", "work", "main", "Work", "Work-unit: #"+strconv.Itoa(unit.Number()))
	WaitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return NewestRunOn(w.Repo, pr.Head(), checks.NameGates) != nil })
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: "work", Event: "pull_request"})
	merge := pr.Merge(ghfake.MergeCommit)
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: merge, Branch: "main", Event: "push"})
	WaitFor(t, 15*time.Second, "certificate", func() bool { return NewestRunOn(w.Repo, merge, checks.NameCertificate) != nil })
	return merge
}

// Deploy starts a deploy workflow run at sha waiting on production.
func (w *DeployWorld) Deploy(sha string) *ghfake.WorkflowRun {
	run := w.Repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy", SHA: sha})
	run.RequestDeployment("production")
	return run
}

// DeployCounted is Deploy with the fake's log reset once the run has
// started (its workflow_run deliveries are not the deployment's cost).
func (w *DeployWorld) DeployCounted(t *testing.T, sha string) *ghfake.WorkflowRun {
	t.Helper()
	run := w.Repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy", SHA: sha})
	w.Quiet(t)
	w.F.ResetLog()
	run.RequestDeployment("production")
	return run
}

// Quiet waits until the App has made no request to the fake for half a
// second (at most 10 s): the work of earlier deliveries is done.
func (w *DeployWorld) Quiet(t *testing.T) { t.Helper(); Drained(t, w.F, w.App) }

// Answered waits for run's answer and returns it.
func Answered(t *testing.T, run *ghfake.WorkflowRun) ghfake.DeploymentReview {
	t.Helper()
	WaitFor(t, 30*time.Second, "the deployment's answer", func() bool { return len(run.DeploymentReviews()) > 0 })
	return run.DeploymentReviews()[0]
}

// Settle waits until the App has run every job queued so far (Drained):
// a comment's delivery has been judged, an answer written.
func (w *DeployWorld) Settle(t *testing.T) { t.Helper(); Drained(t, w.F, w.App) }

// ControlIssue opens the control issue.
func (w *DeployWorld) ControlIssue() *ghfake.Issue {
	return w.Repo.OpenIssue("olivia", "control", "", ghfake.WithLabels("aepgate:control"))
}

// AppComments are the App's comments on issue that name the gate of run.
func AppComments(issue *ghfake.Issue, run *ghfake.WorkflowRun) int {
	n := 0
	for _, c := range issue.Comments() {
		if strings.HasSuffix(c.Author, "[bot]") && strings.HasPrefix(c.Body, "**Owner gate `"+deployrules.GateID("production", run.ID())+"`**") {
			n++
		}
	}
	return n
}

// CertifiedMergeNamed is CertifiedMerge for a unit and branch called name,
// so one world can certify several merges.
func (w *DeployWorld) CertifiedMergeNamed(t *testing.T, name string) string {
	t.Helper()
	unit := w.Repo.OpenIssue("alice", "Unit "+name, Contract("low", "product"), ghfake.InMilestone(w.Repo.CreateMilestone("M "+name, "")))
	w.Repo.Branch(name, "main")
	w.Repo.Commit(name, "work "+name, map[string]string{name + ".go": "package x\n"})
	pr := w.Repo.OpenPR("bob", name, "main", "Work "+name, "Work-unit: #"+strconv.Itoa(unit.Number()))
	WaitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return NewestRunOn(w.Repo, pr.Head(), checks.NameGates) != nil })
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: name, Event: "pull_request"})
	merge := pr.Merge(ghfake.MergeCommit)
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: merge, Branch: "main", Event: "push"})
	WaitFor(t, 15*time.Second, "certificate", func() bool { return NewestRunOn(w.Repo, merge, checks.NameCertificate) != nil })
	w.Quiet(t)
	return merge
}
