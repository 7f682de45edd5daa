package closure_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

func newClosureWorld(t *testing.T, config string, rules *closurerules.Rules) *appkit.ClosureWorld {
	w := appkit.NewLiveOpts(t, true, func(o *app.Options) { o.Seams.ClosureRules = rules })
	w.Repo.Grant("olivia", "admin")
	w.Repo.Grant("carl", "write")
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": config})
	ms := w.Repo.CreateMilestone("Exports", "```yaml\nrisk: medium\n```\n")
	api := w.Repo.OpenIssue("olivia", "Report API", appkit.Contract("medium", "contract"), ghfake.InMilestone(ms))
	export := w.Repo.OpenIssue("olivia", "Export reports", appkit.Contract("medium", "product", api.Number()), ghfake.InMilestone(ms))
	w.Repo.Branch("feature", "main")
	w.Repo.Commit("feature", "export", map[string]string{"export.go": "package x\n"})
	pr := w.Repo.OpenPR("bob", "feature", "main", "Export", "Work-unit: #"+strconv.Itoa(export.Number()))
	cw := &appkit.ClosureWorld{Live: w, API: api, Export: export, Head: pr.Head()}
	cw.WaitUnit(t, "failure", "is still open")
	return cw
}

// anyClosureCounts is the old rule injected: every closure counts as done.
func anyClosureCounts() *closurerules.Rules {
	r := closurerules.DefaultRules()
	r.Evidence = append(r.Evidence, closurerules.EvidenceRule{Name: "closed-counts", Find: func(closurerules.Facts, closurerules.Rules) string { return "closed" }})
	return &r
}

// TestClosureByCoordinatorKeepsDependentBlocked: carl (a coordinator)
// closes the dependency with no certificate; the dependent stays blocked
// naming him, the App comments once (a redelivery adds none); the owner's
// own closure then releases it. The negative control runs the same attack
// with the old rule (any closure counts) and sees the dependent released.
func TestClosureByCoordinatorKeepsDependentBlocked(t *testing.T) {
	w := newClosureWorld(t, appkit.ClosureConfig, nil)
	w.API.Close("carl")
	w.WaitUnit(t, "failure", "closed without evidence by carl")
	appkit.WaitFor(t, 5*time.Second, "the closure comment", func() bool { return appkit.ClosureComments(w.API) == 1 })
	w.Redeliver(t, "issues", "closed")
	w.Quiet(t)
	if n := appkit.ClosureComments(w.API); n != 1 {
		t.Errorf("%d closure comments after a redelivery, want 1", n)
	}
	if c := w.API.Comments(); !strings.Contains(c[len(c)-1].Body, "/aep close <reason>") {
		t.Errorf("the comment names no owner command:\n%s", c[len(c)-1].Body)
	}
	facts, err := w.App.Store().BoardFacts(t.Context(), "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, f := range facts {
		listed = listed || strings.Contains(string(f), "closed by carl without evidence")
	}
	if !listed {
		t.Errorf("no board fact lists the closure without evidence in its inbox: %d facts", len(facts))
	}

	w.API.Reopen("olivia")
	w.WaitUnit(t, "failure", "is still open")
	w.API.Close("olivia")
	w.WaitUnit(t, "success", "")
	if n := appkit.ClosureComments(w.API); n != 1 {
		t.Errorf("%d closure comments after the owner's closure, want 1", n)
	}

	t.Run("negative control: any closure counts", func(t *testing.T) {
		w := newClosureWorld(t, appkit.ClosureConfig, anyClosureCounts())
		w.API.Close("carl")
		w.WaitUnit(t, "success", "")
	})
}

// TestClosureReopen: with closure.reopen the App reopens the issue closed
// without evidence, with its one comment.
func TestClosureReopen(t *testing.T) {
	w := newClosureWorld(t, appkit.ClosureConfig+"closure:\n  reopen: true\n", nil)
	w.API.Close("carl")
	appkit.WaitFor(t, 10*time.Second, "the App to reopen it", func() bool { return w.API.View().State == "open" && appkit.ClosureComments(w.API) == 1 })
	w.WaitUnit(t, "failure", "is still open")
}

// TestClosureEventReads: judging a closure costs two reads, the issue with
// the config (one GraphQL query) and the closer's live role, on top of
// what any issues delivery costs (the affected pull requests' judging,
// measured on a reopening of the same issue).
func TestClosureEventReads(t *testing.T) {
	w := newClosureWorld(t, appkit.ClosureConfig, nil)
	reads := func(act func(), settled func() bool) (n int) {
		w.Quiet(t) // what came before is done: none of its reads is counted
		before := len(w.F.Requests())
		act()
		appkit.WaitFor(t, 10*time.Second, "the delivery's work", settled)
		time.Sleep(300 * time.Millisecond)
		for _, r := range w.F.Requests()[before:] {
			if !r.Write || r.Pattern == "POST /graphql" {
				n++
			}
		}
		return n
	}
	// The owner's closure (done, no comment) against her reopening: both
	// flip the dependent's aepgate/work-unit, so the dependents' judging
	// costs the same; the difference is the closure's own judgement.
	closed := reads(func() { w.API.Close("olivia") }, func() bool { return w.WorkUnitRun(w.Head).Conclusion == "success" })
	edit := reads(func() { w.API.Reopen("olivia") }, func() bool { return w.WorkUnitRun(w.Head).Conclusion == "failure" })
	t.Logf("reads: issues.reopened %d, issues.closed %d; the closure's own: %d", edit, closed, closed-edit)
	if closed-edit > 2 {
		t.Errorf("the closure cost %d reads beyond a reopening's, want at most 2", closed-edit)
	}
}

// TestClosureOwnerCommand: after carl's closure without evidence, the
// owner's `/aep close <reason>` releases the dependent; the same command
// from carl, or edited into being, does not. The negative control removes
// the listed-owner rule and sees carl's command release it.
func TestClosureOwnerCommand(t *testing.T) {
	w := newClosureWorld(t, appkit.ClosureConfig, nil)
	w.API.Close("carl")
	w.WaitUnit(t, "failure", "closed without evidence by carl")
	w.API.Comment("carl", "/aep close the API shipped with #1")
	c := w.API.Comment("olivia", "draft")
	c.Edit("olivia", "/aep close edited in")
	w.Quiet(t) // both deliveries judged
	w.WaitUnit(t, "failure", "closed without evidence by carl")
	w.API.Comment("olivia", "/aep close the API shipped with the reports release")
	w.WaitUnit(t, "success", "")

	t.Run("negative control: without listed-owner", func(t *testing.T) {
		r := closurerules.DefaultRules()
		r.Authority = slices.DeleteFunc(r.Authority, func(a closurerules.AuthorityRule) bool { return a.Name == "listed-owner" })
		w := newClosureWorld(t, appkit.ClosureConfig, &r)
		w.API.Close("carl")
		w.WaitUnit(t, "success", "") // carl's own closure now counts
	})
}

// newHeldClosureWorld is a closure world under olivia's project HOLD
// ("release freeze"), kept by the App, with the closure rules' HoldVoids
// set to voids (false: the negative control).
func newHeldClosureWorld(t *testing.T, voids bool) *appkit.ClosureWorld {
	t.Helper()
	r := closurerules.DefaultRules()
	r.HoldVoids = voids
	w := newClosureWorld(t, appkit.ClosureConfig, &r)
	ctl := w.Repo.OpenIssue("olivia", "control", "", ghfake.WithLabels("aepgate:control"))
	ctl.Comment("olivia", "/aep hold release freeze")
	appkit.WaitFor(t, 10*time.Second, "the HOLD kept", func() bool {
		return appkit.ConclusionOf(w.Repo, w.Head, "aepgate/gates") == "action_required"
	})
	return w
}

// TestClosureUnderHoldNeverCounts: under the owner's project HOLD (kept by
// the App), even her own closure of the dependency is no evidence. The
// negative control turns HoldVoids off and sees the closure count.
func TestClosureUnderHoldNeverCounts(t *testing.T) {
	for _, c := range []struct {
		name    string
		voids   bool
		want    string
		summary string
	}{
		{"HOLD voids the closure", true, "failure", "closed while a HOLD applied (release freeze)"},
		{"negative control: HoldVoids off", false, "success", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newHeldClosureWorld(t, c.voids)
			w.API.Close("olivia")
			w.WaitUnit(t, c.want, c.summary)
		})
	}
}
