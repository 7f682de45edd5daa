package app_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
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
	*appkit.Live
	ms      *ghfake.Milestone
	stories []*ghfake.Issue
	control *ghfake.Issue
	merges  int
}

func newIncrementWorld(t *testing.T, description string, rules *incrementrules.Rules, risks ...string) *incrementWorld {
	t.Helper()
	return newIncrementWorldOn(t, incrementYAML, description, rules, risks...)
}

// newIncrementWorldOn is newIncrementWorld with the repository config yaml.
func newIncrementWorldOn(t *testing.T, yaml, description string, rules *incrementrules.Rules, risks ...string) *incrementWorld {
	t.Helper()
	return newIncrementWorldWith(t, yaml, description, rules, nil, risks...)
}

// newIncrementWorldWith is newIncrementWorldOn with opts applied to the
// App's options (nil: none).
func newIncrementWorldWith(t *testing.T, yaml, description string, rules *incrementrules.Rules, opts func(*app.Options), risks ...string) *incrementWorld {
	t.Helper()
	return newIncrementWorldFiles(t, map[string]string{".github/aepgate.yml": yaml}, nil, description, rules, opts, risks...)
}

// newIncrementWorldFiles is newIncrementWorldWith with files on main and
// the installation's permissions besides the world's own (extra).
func newIncrementWorldFiles(t *testing.T, files map[string]string, extra ghfake.Permissions, description string, rules *incrementrules.Rules, opts func(*app.Options), risks ...string) *incrementWorld {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	ghApp := f.App(appkit.AppID, appkit.Key(t))
	repo := f.CreateRepo("acme/widgets")
	perms := ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write", "pull_requests": "write",
		"metadata": "read", "actions": "read", "deployments": "write"}
	maps.Copy(perms, extra)
	inst := ghApp.Install("acme", perms, repo)
	repo.Commit("main", "config", files)
	for login, role := range map[string]string{"olivia": "admin", "carl": "write", "mallory": "write"} {
		repo.Grant(login, role)
	}
	o := appkit.Options(t, nil, "")
	o.GitHubURL = f.URL()
	o.Seams.Readback = app.ReadbackSeams{Audited: passAudit}
	o.Seams.IncrementRules = rules
	if opts != nil {
		opts(&o)
	}
	a, base := appkit.Start(t, o)
	f.SendWebhooks(base+"/webhook", appkit.Secret, ghApp)
	w := &incrementWorld{Live: &appkit.Live{F: f, Repo: repo, App: a, Base: base, Inst: inst, GHApp: ghApp}}
	w.control = repo.OpenIssue("olivia", "aepgate control", "", ghfake.WithLabels(gh.ControlLabel))
	w.ms = repo.CreateMilestone("M1", description)
	for i, risk := range append(risks, "medium", "medium", "medium")[:3] {
		w.stories = append(w.stories, repo.OpenIssue("olivia", fmt.Sprintf("Story %d", i+1), appkit.Contract(risk, "product"), ghfake.InMilestone(w.ms)))
	}
	return w
}

// merge merges an attempt of story i (its gates judged, its ci green)
// and returns the merge commit.
func (w *incrementWorld) merge(t *testing.T, i int) string {
	t.Helper()
	w.merges++
	branch := fmt.Sprintf("story-%d-%d", i, w.merges)
	w.Repo.Branch(branch, "main")
	w.Repo.Commit(branch, "work", map[string]string{fmt.Sprintf("s%d_%d.go", i, w.merges): "package x\n"})
	pr := w.Repo.OpenPR("bob", branch, "main", "Story", fmt.Sprintf("Work-unit: #%d", w.stories[i].Number()))
	appkit.WaitFor(t, 10*time.Second, "aepgate/gates on the head", func() bool { return appkit.NewestRunOn(w.Repo, pr.Head(), checks.NameGates) != nil })
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: pr.Head(), Branch: branch, Event: "pull_request"})
	return pr.Merge(ghfake.MergeCommit)
}

// readback runs ci on main at merge and waits for aepgate/readback's
// success there (and the certificate the App then writes).
func (w *incrementWorld) readback(t *testing.T, merge string) int64 {
	t.Helper()
	run := w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: merge, Branch: "main", Event: "push"})
	appkit.WaitFor(t, 10*time.Second, "aepgate/readback on "+merge, func() bool { return appkit.ConclusionOf(w.Repo, merge, checks.NameReadback) == "success" })
	w.Quiet(t)
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
	w.Quiet(t)
	var out *ghfake.CheckRun
	for _, r := range w.Repo.CheckRuns(sha) {
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
	r.Comment = slices.DeleteFunc(r.Comment, func(c incrementrules.CommentRule) bool { return c.Name == name })
	r.Withdraw = slices.DeleteFunc(r.Withdraw, func(w incrementrules.WithdrawRule) bool { return w.Name == name })
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
			reads0, writes0 := appkit.APICalls(w.F.Stats())
			w.Redeliver(t, "workflow_run", "completed")
			w.Quiet(t)
			reads, writes := appkit.APICalls(w.F.Stats())
			if writes != writes0 {
				t.Errorf("a redelivery wrote %d times", writes-writes0)
			}
			t.Logf("a redelivered workflow_run (readback and increment judged again): %d reads, %d writes", reads-reads0, writes-writes0)
		})
	}
}

// certifiedAll merges, reads back and closes the three stories and
// returns the last merge, the integrated candidate.
func (w *incrementWorld) certifiedAll(t *testing.T) string {
	t.Helper()
	w.certified(t, 0)
	w.certified(t, 1)
	return w.certified(t, 2)
}

// conclusion is the conclusion of the aepgate/increment GitHub shows on
// sha ("" when none, or in progress).
func (w *incrementWorld) conclusion(t *testing.T, sha string) string {
	t.Helper()
	if r := w.increment(t, sha); r != nil {
		return r.Conclusion
	}
	return ""
}

// TestIncrementHighRiskNeedsOwnerAcceptance: a high increment waits for
// the owner's `/aep accept` bound to its candidate; the coordinator's does
// not count; a new merge of a story after the acceptance moves the
// candidate, which needs a new one. The negative controls drop the rule
// that stops each attack, and see it complete the increment.
func TestIncrementHighRiskNeedsOwnerAcceptance(t *testing.T) {
	tests := []struct{ name, rule string }{{"every rule", ""}, {"coordinator accepts", "listed-owner"}, {"old acceptance carries over", "bound-to-candidate"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rules *incrementrules.Rules
			if tt.rule != "" {
				rules = without(tt.rule)
			}
			w := newIncrementWorld(t, "```yaml\nrisk: high\n```\n", rules)
			last := w.certifiedAll(t)
			if got := w.conclusion(t, last); got != "action_required" || !strings.Contains(w.increment(t, last).Summary, "/aep accept 1 "+last) {
				t.Fatalf("without acceptance: %s, want action_required naming the command: %+v", got, w.increment(t, last))
			}
			w.control.Comment("carl", "/aep accept 1 "+last)
			if _, ok := w.complete(t, last); ok != (tt.rule == "listed-owner") {
				t.Fatalf("the coordinator's acceptance: complete %v", ok)
			}
			if tt.rule == "listed-owner" {
				return
			}
			w.control.Comment("olivia", "/aep accept 1 "+last)
			if _, ok := w.complete(t, last); !ok {
				t.Fatalf("the owner's acceptance did not complete it: %+v", w.increment(t, last))
			}
			later := w.merge(t, 2)
			w.readback(t, later)
			if _, ok := w.complete(t, later); ok != (tt.rule == "bound-to-candidate") {
				t.Fatalf("a later candidate with the old acceptance: complete %v: %+v", ok, w.increment(t, later))
			}
			if tt.rule != "" {
				return
			}
			if got := w.conclusion(t, later); got != "action_required" {
				t.Errorf("the later candidate: %s, want action_required", got)
			}
			w.control.Comment("olivia", "/aep accept 1 "+later)
			if _, ok := w.complete(t, later); !ok {
				t.Errorf("a new acceptance did not complete the later candidate: %+v", w.increment(t, later))
			}
		})
	}
}

// TestIncrementDemonstrationMustRepeatCriterion: a milestone declaring a
// demonstration completes only with an aep-demo block repeating the
// criterion exactly; one character changed is refused. The negative
// control drops exact-criterion and sees the altered block complete it.
func TestIncrementDemonstrationMustRepeatCriterion(t *testing.T) {
	const criterion = "a report is exported as CSV and opened in a spreadsheet"
	for _, control := range []bool{false, true} {
		t.Run(map[bool]string{false: "every rule", true: "negative control"}[control], func(t *testing.T) {
			var rules *incrementrules.Rules
			if control {
				rules = without("exact-criterion")
			}
			w := newIncrementWorld(t, "```yaml\nrisk: medium\ndemonstration: "+criterion+"\n```\n", rules)
			last := w.certifiedAll(t)
			if got := w.conclusion(t, last); got != "action_required" {
				t.Fatalf("without a demonstration: %s, want action_required", got)
			}
			run := w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "e2e", SHA: last, Branch: "main", Event: "workflow_dispatch"})
			demo := func(c string) string {
				return fmt.Sprintf("Shown:\n\n```aep-demo\nmilestone: 1\ncriterion: %s\nevidence: run %d\n```\n", c, run.ID())
			}
			w.control.Comment("carl", demo(strings.Replace(criterion, "CSV", "CSW", 1)))
			cert, ok := w.complete(t, last)
			if ok != control {
				t.Fatalf("a criterion with one character changed: complete %v, want %v", ok, control)
			}
			if control {
				return
			}
			w.control.Comment("carl", demo(criterion))
			if cert, ok = w.complete(t, last); !ok || cert.Demonstration == nil || cert.Demonstration.Evidence != fmt.Sprintf("run %d", run.ID()) {
				t.Errorf("the exact demonstration: complete %v, certificate %+v", ok, cert.Demonstration)
			}
		})
	}
}

// closedComments are the App's comments on the control issue flagging a
// milestone closed before it was complete.
func (w *incrementWorld) closedComments(t *testing.T) int {
	t.Helper()
	w.Quiet(t)
	n := 0
	for _, c := range w.control.Comments() {
		if strings.HasPrefix(c.Body, increment.ClosedMarker) {
			n++
		}
	}
	return n
}

// TestIncrementClosedEarlyIsFlagged: the coordinator closes the milestone
// while a story is open; the App says so once on the control issue (a
// redelivery adds nothing), naming what is missing; with closure.reopen it
// reopens the milestone too. A complete increment's closure is not flagged.
func TestIncrementClosedEarlyIsFlagged(t *testing.T) {
	for _, reopen := range []bool{false, true} {
		t.Run(fmt.Sprintf("reopen %v", reopen), func(t *testing.T) {
			yaml := incrementYAML
			if reopen {
				yaml += "closure:\n  reopen: true\n"
			}
			w := newIncrementWorldOn(t, yaml, "", nil)
			w.certified(t, 0)
			w.ms.CloseBy("carl")
			if n := w.closedComments(t); n != 1 {
				t.Fatalf("%d comments flagging the closure, want 1", n)
			}
			body := w.control.Comments()[len(w.control.Comments())-1].Body
			if !strings.Contains(body, "@carl") || !strings.Contains(body, "story #3 is not done yet") {
				t.Errorf("the comment does not name the closer and what is missing:\n%s", body)
			}
			if w.ms.Open() != reopen {
				t.Errorf("milestone open %v, want %v", w.ms.Open(), reopen)
			}
			if !reopen {
				w.Redeliver(t, "milestone", "closed")
				if n := w.closedComments(t); n != 1 {
					t.Errorf("a redelivery made %d comments, want 1", n)
				}
			}
		})
	}
	t.Run("complete", func(t *testing.T) {
		w := newIncrementWorld(t, "", nil)
		last := w.certifiedAll(t)
		if _, ok := w.complete(t, last); !ok {
			t.Fatal("not complete")
		}
		w.ms.CloseBy("olivia")
		if n := w.closedComments(t); n != 0 {
			t.Errorf("a complete increment's closure was flagged %d times", n)
		}
	})
}

// TestIncrementDeploymentRequiresCompleteIncrement: production requires
// increment; a deployment of the complete increment's integrated commit is
// approved, one of an earlier story's merge is rejected saying why.
func TestIncrementDeploymentRequiresCompleteIncrement(t *testing.T) {
	yaml := incrementYAML + "deploy:\n  environments:\n    production:\n      require: increment\n"
	w := newIncrementWorldOn(t, yaml, "", nil)
	first := w.certified(t, 0)
	w.certified(t, 1)
	last := w.certified(t, 2)
	if _, ok := w.complete(t, last); !ok {
		t.Fatalf("not complete: %+v", w.increment(t, last))
	}
	for _, tt := range []struct {
		sha, want string
	}{{last, "approved"}, {first, "rejected"}} {
		run := w.Repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy", SHA: tt.sha, Branch: "main"})
		run.RequestDeployment("production")
		if got := answered(t, run); got.State != tt.want {
			t.Errorf("deployment of %s: %s (%s), want %s", tt.sha, got.State, got.Comment, tt.want)
		}
	}
}
