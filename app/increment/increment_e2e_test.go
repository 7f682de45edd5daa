package increment_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

func newIncrementWorld(t *testing.T, description string, rules *incrementrules.Rules, risks ...string) *appkit.IncrementWorld {
	t.Helper()
	return newIncrementWorldOn(t, appkit.IncrementYAML, description, rules, risks...)
}

// newIncrementWorldOn is newIncrementWorld with the repository config yaml.
func newIncrementWorldOn(t *testing.T, yaml, description string, rules *incrementrules.Rules, risks ...string) *appkit.IncrementWorld {
	t.Helper()
	return appkit.NewIncrementWorldWith(t, yaml, description, rules, nil, risks...)
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
				rules = appkit.IncrementRulesWithout("readback-at-candidate")
			}
			w := newIncrementWorld(t, "", rules, "medium", "medium", "low")
			w.Certified(t, 0)
			w.Certified(t, 1)
			last := w.Merge(t, 2)
			w.Stories[2].Close("olivia")
			// Without the rule the App issues the certificate with no readback
			// run (which Validate would refuse): it concluded success.
			if r := w.Increment(t, last); (r != nil && r.Conclusion == "success") != control {
				t.Fatalf("before the last readback: success %v, want %v: %+v", !control, control, r)
			}
			if control {
				return
			}
			run := w.Readback(t, last)
			cert, ok := w.Complete(t, last)
			if !ok {
				t.Fatalf("after the last readback the increment is not complete: %+v", w.Increment(t, last))
			}
			if cert.IntegratedSha != last || len(cert.Stories) != 3 || !slices.Contains(cert.ReadbackRunIds, fmt.Sprint(run)) || cert.Milestone != w.MS.Number() {
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
				rules = appkit.IncrementRulesWithout(tt.rule)
			}
			w := newIncrementWorld(t, "```yaml\nrisk: high\n```\n", rules)
			last := w.CertifiedAll(t)
			if got := w.Conclusion(t, last); got != "action_required" || !strings.Contains(w.Increment(t, last).Summary, "/aep accept 1 "+last) {
				t.Fatalf("without acceptance: %s, want action_required naming the command: %+v", got, w.Increment(t, last))
			}
			w.Control.Comment("carl", "/aep accept 1 "+last)
			if _, ok := w.Complete(t, last); ok != (tt.rule == "listed-owner") {
				t.Fatalf("the coordinator's acceptance: complete %v", ok)
			}
			if tt.rule == "listed-owner" {
				return
			}
			w.Control.Comment("olivia", "/aep accept 1 "+last)
			if _, ok := w.Complete(t, last); !ok {
				t.Fatalf("the owner's acceptance did not complete it: %+v", w.Increment(t, last))
			}
			later := w.Merge(t, 2)
			w.Readback(t, later)
			if _, ok := w.Complete(t, later); ok != (tt.rule == "bound-to-candidate") {
				t.Fatalf("a later candidate with the old acceptance: complete %v: %+v", ok, w.Increment(t, later))
			}
			if tt.rule != "" {
				return
			}
			if got := w.Conclusion(t, later); got != "action_required" {
				t.Errorf("the later candidate: %s, want action_required", got)
			}
			w.Control.Comment("olivia", "/aep accept 1 "+later)
			if _, ok := w.Complete(t, later); !ok {
				t.Errorf("a new acceptance did not complete the later candidate: %+v", w.Increment(t, later))
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
				rules = appkit.IncrementRulesWithout("exact-criterion")
			}
			w := newIncrementWorld(t, "```yaml\nrisk: medium\ndemonstration: "+criterion+"\n```\n", rules)
			last := w.CertifiedAll(t)
			if got := w.Conclusion(t, last); got != "action_required" {
				t.Fatalf("without a demonstration: %s, want action_required", got)
			}
			run := w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "e2e", SHA: last, Branch: "main", Event: "workflow_dispatch"})
			demo := func(c string) string {
				return fmt.Sprintf("Shown:\n\n```aep-demo\nmilestone: 1\ncriterion: %s\nevidence: run %d\n```\n", c, run.ID())
			}
			w.Control.Comment("carl", demo(strings.Replace(criterion, "CSV", "CSW", 1)))
			cert, ok := w.Complete(t, last)
			if ok != control {
				t.Fatalf("a criterion with one character changed: complete %v, want %v", ok, control)
			}
			if control {
				return
			}
			w.Control.Comment("carl", demo(criterion))
			if cert, ok = w.Complete(t, last); !ok || cert.Demonstration == nil || cert.Demonstration.Evidence != fmt.Sprintf("run %d", run.ID()) {
				t.Errorf("the exact demonstration: complete %v, certificate %+v", ok, cert.Demonstration)
			}
		})
	}
}

// TestIncrementClosedEarlyIsFlagged: the coordinator closes the milestone
// while a story is open; the App says so once on the control issue (a
// redelivery adds nothing), naming what is missing; with closure.reopen it
// reopens the milestone too. A complete increment's closure is not flagged.
func TestIncrementClosedEarlyIsFlagged(t *testing.T) {
	for _, reopen := range []bool{false, true} {
		t.Run(fmt.Sprintf("reopen %v", reopen), func(t *testing.T) {
			yaml := appkit.IncrementYAML
			if reopen {
				yaml += "closure:\n  reopen: true\n"
			}
			w := newIncrementWorldOn(t, yaml, "", nil)
			w.Certified(t, 0)
			w.MS.CloseBy("carl")
			if n := w.ClosedComments(t); n != 1 {
				t.Fatalf("%d comments flagging the closure, want 1", n)
			}
			body := w.Control.Comments()[len(w.Control.Comments())-1].Body
			if !strings.Contains(body, "@carl") || !strings.Contains(body, "story #3 is not done yet") {
				t.Errorf("the comment does not name the closer and what is missing:\n%s", body)
			}
			if w.MS.Open() != reopen {
				t.Errorf("milestone open %v, want %v", w.MS.Open(), reopen)
			}
			if !reopen {
				w.Redeliver(t, "milestone", "closed")
				if n := w.ClosedComments(t); n != 1 {
					t.Errorf("a redelivery made %d comments, want 1", n)
				}
			}
		})
	}
	t.Run("complete", func(t *testing.T) {
		w := newIncrementWorld(t, "", nil)
		last := w.CertifiedAll(t)
		if _, ok := w.Complete(t, last); !ok {
			t.Fatal("not complete")
		}
		w.MS.CloseBy("olivia")
		if n := w.ClosedComments(t); n != 0 {
			t.Errorf("a complete increment's closure was flagged %d times", n)
		}
	})
}

// TestIncrementDeploymentRequiresCompleteIncrement: production requires
// increment; a deployment of the complete increment's integrated commit is
// approved, one of an earlier story's merge is rejected saying why.
func TestIncrementDeploymentRequiresCompleteIncrement(t *testing.T) {
	yaml := appkit.IncrementYAML + "deploy:\n  environments:\n    production:\n      require: increment\n"
	w := newIncrementWorldOn(t, yaml, "", nil)
	first := w.Certified(t, 0)
	w.Certified(t, 1)
	last := w.Certified(t, 2)
	if _, ok := w.Complete(t, last); !ok {
		t.Fatalf("not complete: %+v", w.Increment(t, last))
	}
	for _, tt := range []struct {
		sha, want string
	}{{last, "approved"}, {first, "rejected"}} {
		run := w.Repo.StartWorkflowRun(ghfake.RunOptions{Name: "deploy", SHA: tt.sha, Branch: "main"})
		run.RequestDeployment("production")
		if got := appkit.Answered(t, run); got.State != tt.want {
			t.Errorf("deployment of %s: %s (%s), want %s", tt.sha, got.State, got.Comment, tt.want)
		}
	}
}
