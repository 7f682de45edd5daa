package pull_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// newAgentWorld is a medium-risk unit opened by olivia (an owner, as is
// dave), who assigned alice and then the agent to it; author opens the
// pull request, whose only commit author wrote, changing the contract path
// api/orders.yaml. agents is the config's agents line.
func newAgentWorld(t *testing.T, author, agents string, edit func(*app.Options)) *appkit.AuditWorld {
	t.Helper()
	w := appkit.NewLiveOpts(t, true, edit)
	cfg := "version: 1\nowners: [olivia, dave]\ncontract_paths: [\"api/**\"]\n" + agents
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": cfg})
	for _, u := range []string{"olivia", "dave", "carol", "alice", "bob"} {
		w.Repo.Grant(u, "write")
	}
	ms := w.Repo.CreateMilestone("M", "")
	unit := w.Repo.OpenIssue("olivia", "Export", appkit.Contract("medium", "product"), ghfake.InMilestone(ms))
	unit.Assign("olivia", "alice")
	unit.Assign("olivia", appkit.AgentBot)
	w.Repo.Branch("export", "main")
	w.Repo.CommitBy(author, "export", "export", map[string]string{"export/export.go": appkit.AuditSource, "api/orders.yaml": "orders: v2\n"})
	pr := w.Repo.OpenPR(author, "export", "main", "Export", "Work-unit: #"+strconv.Itoa(unit.Number()))
	a := &appkit.AuditWorld{Live: w, Unit: unit, PR: pr}
	a.Quiet(t)
	return a
}

// timelineReads counts the requests for issue n's timeline.
func timelineReads(f *ghfake.Fake, n int) int {
	c := 0
	for _, r := range f.Requests() {
		if strings.HasSuffix(r.Path, "/issues/"+strconv.Itoa(n)+"/timeline") {
			c++
		}
	}
	return c
}

// TestInstructorCannotAuditAgentPR: on the agent's pull request, the
// assignee who was on the issue when the agent was assigned (alice) and
// the owner who assigned it (olivia) cannot pass its audit; carol can.
// Negative control (the old rules, without not-instructor): alice's PASS
// passes the audit.
func TestInstructorCannotAuditAgentPR(t *testing.T) {
	a := newAgentWorld(t, appkit.AgentBot, appkit.AgentsLine, nil)
	for _, who := range []string{"alice", "olivia"} {
		r := a.AuditAfter(t, who)
		if r.Conclusion != "failure" || !strings.Contains(r.Summary, who+" instructed the agent "+appkit.AgentBot) {
			t.Errorf("after %s's PASS: %s %s\n%s", who, r.Conclusion, r.Title, r.Summary)
		}
	}
	r := a.Audit()
	if !strings.Contains(r.Summary, "instructed by @olivia (assigned it, instructed push 1 (assigned it on the unit issue)), @alice (assignee when it was assigned) on issue #"+strconv.Itoa(a.Unit.Number())) {
		t.Errorf("the summary does not say who instructed the agent:\n%s", r.Summary)
	}
	if r := a.AuditAfter(t, "carol"); r.Conclusion != "success" {
		t.Errorf("after carol's PASS: %s %s\n%s", r.Conclusion, r.Title, r.Summary)
	}
	reads, evals := timelineReads(a.F, a.Unit.Number()), a.AuditRows(t)
	t.Logf("%d timeline reads over %d evaluations", reads, evals)
	if reads == 0 || reads > evals {
		t.Errorf("%d timeline reads over %d evaluations; want at most one per evaluation", reads, evals)
	}

	neg := newAgentWorld(t, appkit.AgentBot, appkit.AgentsLine, withoutAuditRule("not-instructor"))
	if r := neg.AuditAfter(t, "alice"); r.Conclusion != "success" {
		t.Errorf("negative control: without not-instructor alice's PASS is %s, want success\n%s", r.Conclusion, r.Summary)
	}
}

// TestInstructorApprovalAloneNotContractGate: olivia, an owner who
// assigned the agent, approves its contract change: the gate stays open;
// dave, the other owner, approves: it clears. Negative control (without
// the gate log's not-instructor): olivia's approval alone clears it.
func TestInstructorApprovalAloneNotContractGate(t *testing.T) {
	a := newAgentWorld(t, appkit.AgentBot, appkit.AgentsLine, nil)
	gates := func(w *appkit.AuditWorld) *ghfake.CheckRun {
		return appkit.NewestRunOn(w.Repo, w.PR.Head(), checks.NameGates)
	}
	if r := gates(a); r == nil || r.Conclusion != "action_required" {
		t.Fatalf("before any approval: %+v", r)
	}
	a.PR.SubmitReview("olivia", "APPROVED", "")
	a.Quiet(t)
	if r := gates(a); r.Conclusion != "action_required" || !strings.Contains(r.Summary, "contract-pr"+strconv.Itoa(a.PR.Number())) {
		t.Errorf("after the instructor's approval: %s\n%s", r.Conclusion, r.Summary)
	}
	a.PR.SubmitReview("dave", "APPROVED", "")
	a.Quiet(t)
	if r := gates(a); r.Conclusion != "success" {
		t.Errorf("after dave's approval: %s\n%s", r.Conclusion, r.Summary)
	}

	neg := newAgentWorld(t, appkit.AgentBot, appkit.AgentsLine, func(o *app.Options) { o.Seams.GateRules = appkit.WithoutGateRule("not-instructor") })
	neg.PR.SubmitReview("olivia", "APPROVED", "")
	neg.Quiet(t)
	if r := gates(neg); r.Conclusion != "success" {
		t.Errorf("negative control: without not-instructor olivia's approval leaves %s, want success\n%s", r.Conclusion, r.Summary)
	}
}

// TestNonAgentPRUnaffected: bob's pull request on the same unit reads no
// timeline, and alice (assigned to the unit) may audit it. Negative
// control: with bob listed as an agent, the timeline is read and alice's
// audit no longer counts.
func TestNonAgentPRUnaffected(t *testing.T) {
	a := newAgentWorld(t, "bob", appkit.AgentsLine, nil)
	if r := a.AuditAfter(t, "alice"); r.Conclusion != "success" || strings.Contains(r.Summary, "agent") {
		t.Errorf("alice's PASS of bob's pull request: %s\n%s", r.Conclusion, r.Summary)
	}
	if n := timelineReads(a.F, a.Unit.Number()); n != 0 {
		t.Errorf("%d timeline reads for a pull request no agent made; want 0", n)
	}

	neg := newAgentWorld(t, "bob", "agents: [\""+appkit.AgentBot+"\", bob]\n", nil)
	if r := neg.AuditAfter(t, "alice"); r.Conclusion != "failure" {
		t.Errorf("negative control: with bob listed as an agent alice's PASS is %s, want failure", r.Conclusion)
	}
	if n := timelineReads(neg.F, neg.Unit.Number()); n == 0 {
		t.Error("negative control: with bob listed as an agent the timeline is never read")
	}
}

// TestInstructorsAreADeclaredRead: the timeline is read because the audit
// and the gates declare Reads.Instructors. Negative control: checks that
// declare it nowhere never read it, and the instructor's audit passes.
func TestInstructorsAreADeclaredRead(t *testing.T) {
	starved := verdict.DefaultChecks()
	for i := range starved {
		starved[i].Reads.Instructors = false
	}
	a := newAgentWorld(t, appkit.AgentBot, appkit.AgentsLine, func(o *app.Options) { o.Seams.Checks = starved })
	if r := a.AuditAfter(t, "alice"); r.Conclusion != "success" {
		t.Errorf("with no check reading the instructors, alice's PASS is %s, want success (nothing read, nothing known)", r.Conclusion)
	}
	if n := timelineReads(a.F, a.Unit.Number()); n != 0 {
		t.Errorf("%d timeline reads with no check declaring them; want 0", n)
	}
}
