package app

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/closure"
	incrementrules "github.com/aepgate/aepgate/protocol/increment"
)

// incrementYAML: olivia owns the repository, carl coordinates, ci is the
// readback workflow.
const incrementYAML = "version: 1\nowners: [olivia]\ncoordinators: [carl]\nrequired_workflows:\n  readback: [ci]\n"

// incrementWorld is a ghfake world with a control issue and milestone M1
// of three medium-risk stories, whose App may read workflow runs and
// deployments; the readback's audit seam passes every merged head.
type incrementWorld struct {
	*ghfakeWorld
	ms      *ghfake.Milestone
	stories []*ghfake.Issue
	control *ghfake.Issue
	merges  int
}

func newIncrementWorld(t *testing.T, description string, rules *incrementrules.Rules, risks ...string) *incrementWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(testAppID, appKey(t))
	repo := f.CreateRepo("acme/widgets")
	inst := ghApp.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write",
		"metadata": "read", "actions": "read", "deployments": "read"}, repo)
	repo.Commit("main", "config", map[string]string{".github/aepgate.yml": incrementYAML})
	for login, role := range map[string]string{"olivia": "admin", "carl": "write", "mallory": "write"} {
		repo.Grant(login, role)
	}
	o := testOptions(t, nil, "")
	o.GitHubURL = f.URL()
	o.readback = readbackOptions{audited: passAudit}
	o.incrementRules = rules
	a, base := startApp(t, o)
	f.SendWebhooks(base+"/webhook", testSecret, ghApp)
	w := &incrementWorld{ghfakeWorld: &ghfakeWorld{f: f, repo: repo, app: a, base: base, inst: inst, ghApp: ghApp}}
	w.control = repo.OpenIssue("olivia", "aepgate control", "", ghfake.WithLabels(gh.ControlLabel))
	w.ms = repo.CreateMilestone("M1", description)
	for i, risk := range append(risks, "medium", "medium", "medium")[:3] {
		w.stories = append(w.stories, repo.OpenIssue("olivia", fmt.Sprintf("Story %d", i+1), contract(risk, "product"), ghfake.InMilestone(w.ms)))
	}
	return w
}

// merge merges an attempt of story i (its gates judged, its ci green)
// and returns the merge commit.
func (w *incrementWorld) merge(t *testing.T, i int) string {
	t.Helper()
	w.merges++
	branch := fmt.Sprintf("story-%d-%d", i, w.merges)
	w.repo.Branch(branch, "main")
	w.repo.Commit(branch, "work", map[string]string{fmt.Sprintf("s%d_%d.go", i, w.merges): "package x\n"})
	pr := w.repo.OpenPR("bob", branch, "main", "Story", fmt.Sprintf("Work-unit: #%d", w.stories[i].Number()))
	waitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return newestRunOn(w.repo, pr.Head(), checks.NameGates) != nil })
	w.repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: branch, Event: "pull_request"})
	return pr.Merge(ghfake.MergeCommit)
}

// readback runs ci on main at merge and waits for aepgate/readback's
// success there (and the certificate the App then writes).
func (w *incrementWorld) readback(t *testing.T, merge string) int64 {
	t.Helper()
	run := w.repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: merge, Branch: "main", Event: "push"})
	waitFor(t, 10*time.Second, "aepgate/readback on "+merge, func() bool { return conclusionOf(w.repo, merge, checks.NameReadback) == "success" })
	w.quiet(t)
	return run.ID()
}

// certified merges story i, reads it back and has carl close it.
func (w *incrementWorld) certified(t *testing.T, i int) string {
	t.Helper()
	m := w.merge(t, i)
	w.readback(t, m)
	w.stories[i].Close("carl")
	return m
}

// increment is the newest aepgate/increment on sha (the highest ID, the
// one GitHub shows) once the queue is drained; nil when there is none.
func (w *incrementWorld) increment(t *testing.T, sha string) *ghfake.CheckRun {
	t.Helper()
	w.quiet(t)
	var out *ghfake.CheckRun
	for _, r := range w.repo.CheckRuns(sha) {
		if r.Name == checks.NameIncrement && (out == nil || r.ID > out.ID) {
			out = &r
		}
	}
	return out
}

// complete reports whether sha carries a verified increment certificate.
func (w *incrementWorld) complete(t *testing.T, sha string) (incrementrules.Certificate, bool) {
	t.Helper()
	r := w.increment(t, sha)
	if r == nil {
		return incrementrules.Certificate{}, false
	}
	cert, rs := checks.VerifyIncrementRun(checks.Run{Name: r.Name, HeadSHA: sha, ExternalID: r.ExternalID, Status: checks.Status(r.Status),
		Conclusion: checks.Conclusion(r.Conclusion), Title: r.Title, Summary: r.Summary})
	return cert, len(rs) == 0
}

// without is protocol/increment's DefaultRules with the named rule out.
func without(name string) *incrementrules.Rules {
	r := incrementrules.DefaultRules()
	r.Checks = slices.DeleteFunc(r.Checks, func(c incrementrules.Rule) bool { return c.Name == name })
	r.Owner = slices.DeleteFunc(r.Owner, func(a closure.AuthorityRule) bool { return a.Name == name })
	r.Demo = slices.DeleteFunc(r.Demo, func(d incrementrules.DemoRule) bool { return d.Name == name })
	r.Accept = slices.DeleteFunc(r.Accept, func(a incrementrules.AcceptRule) bool { return a.Name == name })
	return &r
}

// TestIncrementCompletesOnlyAfterLastReadback: stories 1 and 2 (medium)
// merged, certified and closed by the coordinator; story 3 (low) merged
// and closed by the owner before ci ran on main at its merge, which is the
// integrated candidate: aepgate/increment succeeds there only once ci has
// run at it. The negative control drops readback-at-candidate: the same
// increment then completes before the readback.
func TestIncrementCompletesOnlyAfterLastReadback(t *testing.T) {
	for _, control := range []bool{false, true} {
		t.Run(map[bool]string{false: "every rule", true: "negative control"}[control], func(t *testing.T) {
			var rules *incrementrules.Rules
			if control {
				rules = without("readback-at-candidate")
			}
			w := newIncrementWorld(t, "", rules, "medium", "medium", "low")
			w.certified(t, 0)
			w.certified(t, 1)
			last := w.merge(t, 2)
			w.stories[2].Close("olivia")
			// Without the rule the App issues the certificate with no readback
			// run (which Validate would refuse): it concluded success.
			if r := w.increment(t, last); (r != nil && r.Conclusion == "success") != control {
				t.Fatalf("before the last readback: success %v, want %v: %+v", !control, control, r)
			}
			if control {
				return
			}
			run := w.readback(t, last)
			cert, ok := w.complete(t, last)
			if !ok {
				t.Fatalf("after the last readback the increment is not complete: %+v", w.increment(t, last))
			}
			if cert.IntegratedSha != last || len(cert.Stories) != 3 || !slices.Contains(cert.ReadbackRunIds, fmt.Sprint(run)) || cert.Milestone != w.ms.Number() {
				t.Errorf("certificate %+v", cert)
			}
			for _, s := range cert.Stories[:2] {
				if s.CertificateSha256 == "" || s.MergeSha == "" {
					t.Errorf("story %+v is not bound to its certificate", s)
				}
			}
			_, writes0 := apiCalls(w.f.Stats())
			w.redeliver(t, "workflow_run", "completed")
			w.quiet(t)
			if _, writes := apiCalls(w.f.Stats()); writes != writes0 {
				t.Errorf("a redelivery wrote %d times", writes-writes0)
			}
		})
	}
}
