package pull_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// agentAccounts is the config's agents key for AgentBot with the trigger
// label agent-go (agents.accounts), and approvals when it is above 0.
func agentAccounts(approvals int) string {
	s := "agents:\n  accounts:\n    \"" + appkit.AgentBot + "\": {labels: [agent-go]}\n"
	if approvals > 0 {
		s += "  approvals: " + strconv.Itoa(approvals) + "\n"
	}
	return s
}

// newChannelWorld is a medium-risk unit opened by olivia (an owner, as is
// dave); erin, a writer, assigned the agent to it; the agent opens the
// pull request, changing the contract path api/orders.yaml. A minute
// later instruct gives an instruction (dave's, in these tests) through one
// channel, and a minute after that the agent pushes again: that push,
// the head, is the instruction's. agents is the config's agents key.
func newChannelWorld(t *testing.T, agents string, instruct func(*appkit.AuditWorld), edit func(*app.Options)) *appkit.AuditWorld {
	t.Helper()
	w := appkit.NewLiveOpts(t, true, edit)
	cfg := "version: 1\nowners: [olivia, dave]\ncontract_paths: [\"api/**\"]\n" + agents
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": cfg})
	for _, u := range []string{"olivia", "dave", "carol", "erin", "bob"} {
		w.Repo.Grant(u, "write")
	}
	ms := w.Repo.CreateMilestone("M", "")
	unit := w.Repo.OpenIssue("olivia", "Export", appkit.Contract("medium", "product"), ghfake.InMilestone(ms))
	unit.Assign("erin", appkit.AgentBot)
	w.Repo.Branch("export", "main")
	w.Repo.CommitBy(appkit.AgentBot, "export", "export", map[string]string{"export/export.go": appkit.AuditSource, "api/orders.yaml": "orders: v2\n"})
	pr := w.Repo.OpenPR(appkit.AgentBot, "export", "main", "Export", "Work-unit: #"+strconv.Itoa(unit.Number()))
	a := &appkit.AuditWorld{Live: w, Unit: unit, PR: pr}
	a.Quiet(t)
	w.F.Advance(time.Minute)
	if instruct != nil {
		instruct(a)
	}
	w.F.Advance(time.Minute)
	w.Repo.CommitBy(appkit.AgentBot, "export", "csv", map[string]string{"export/csv.go": "package export\n"})
	a.Quiet(t)
	return a
}

// channels are dave's instruction through each channel the fake records.
var channels = []struct {
	name     string
	channel  string
	instruct func(*appkit.AuditWorld)
}{
	{"issue assignment", "assigned it on the unit issue", func(a *appkit.AuditWorld) {
		a.Unit.Unassign("dave", appkit.AgentBot)
		a.Unit.Assign("dave", appkit.AgentBot)
	}},
	{"pull request assignment", "assigned it on the pull request", func(a *appkit.AuditWorld) { a.PR.Assign("dave", appkit.AgentBot) }},
	{"comment mention", "commanded it in a comment", func(a *appkit.AuditWorld) { a.PR.Comment("dave", "@copilot also write the CSV header") }},
	{"review mention", "commanded it in a review", func(a *appkit.AuditWorld) { a.PR.SubmitReview("dave", "COMMENTED", "@copilot handle empty rows") }},
	{"review comment", "commanded it in a review comment", func(a *appkit.AuditWorld) {
		a.PR.ReviewComment("dave", "export/export.go", "@copilot wrap this error")
	}},
	{"label", "added its trigger label", func(a *appkit.AuditWorld) { a.PR.AddLabels("dave", "agent-go") }},
}

// withoutInstructorRules removes not-instructor from the audit's and the
// gate log's rules.
func withoutInstructorRules(o *app.Options) {
	withoutAuditRule("not-instructor")(o)
	o.Seams.GateRules = appkit.WithoutGateRule("not-instructor")
}

// TestInstructorOfPushPerChannel: for each channel, dave instructs the
// agent before its last push: his PASS does not pass the audit and his
// approval does not answer the contract gate, while carol's PASS and
// olivia's approval count. Negative control (not-instructor removed from
// both rule sets): dave's PASS passes and his approval clears the gate.
func TestInstructorOfPushPerChannel(t *testing.T) {
	for _, ch := range channels {
		t.Run(ch.name, func(t *testing.T) {
			t.Parallel()
			a := newChannelWorld(t, agentAccounts(0), ch.instruct, nil)
			if r := a.AuditAfter(t, "dave"); r.Conclusion != "failure" || !strings.Contains(r.Summary, "dave instructed the agent "+appkit.AgentBot) ||
				!strings.Contains(r.Summary, ch.channel) {
				t.Errorf("after dave's PASS: %s %s\n%s", r.Conclusion, r.Title, r.Summary)
			}
			a.PR.SubmitReview("dave", "APPROVED", "")
			a.Quiet(t)
			if r := appkit.NewestRunOn(a.Repo, a.PR.Head(), checks.NameGates); r == nil || r.Conclusion != "action_required" {
				t.Errorf("after the instructor's approval the gates are %+v", r)
			}
			a.PR.SubmitReview("olivia", "APPROVED", "")
			a.Quiet(t)
			if r := appkit.NewestRunOn(a.Repo, a.PR.Head(), checks.NameGates); r == nil || r.Conclusion != "success" {
				t.Errorf("after olivia's approval the gates are %+v", r)
			}
			r := a.AuditAfter(t, "carol")
			if r.Conclusion != "success" {
				t.Errorf("after carol's PASS: %s %s\n%s", r.Conclusion, r.Title, r.Summary)
			}
			for _, row := range []string{"| @dave | audit | `" + a.PR.Head()[:7] + "` | not counted: instructor of push 2 (" + ch.channel + ") |",
				"| @olivia | approving review | `" + a.PR.Head()[:7] + "` | counted |", "| @carol | audit | `" + a.PR.Head()[:7] + "` | counted |"} {
				if !strings.Contains(r.Summary, row) {
					t.Errorf("the audit's approvals lack %q:\n%s", row, r.Summary)
				}
			}
			if g := appkit.NewestRunOn(a.Repo, a.PR.Head(), checks.NameGates); g == nil || !strings.Contains(g.Summary, "| @dave | approving review |") {
				t.Errorf("the gates do not list the approvals: %+v", g)
			}

			neg := newChannelWorld(t, agentAccounts(0), ch.instruct, withoutInstructorRules)
			if r := neg.AuditAfter(t, "dave"); r.Conclusion != "success" {
				t.Errorf("negative control: without not-instructor dave's PASS is %s, want success\n%s", r.Conclusion, r.Summary)
			}
			neg.PR.SubmitReview("dave", "APPROVED", "")
			neg.Quiet(t)
			if r := appkit.NewestRunOn(neg.Repo, neg.PR.Head(), checks.NameGates); r == nil || r.Conclusion != "success" {
				t.Errorf("negative control: without not-instructor dave's approval leaves the gates %+v, want success", r)
			}
		})
	}
}

// newAgentOwnerWorld is bob's pull request changing the contract path
// api/orders.yaml, in a repository whose owners are olivia and devin, an
// admin whose account is also a listed agent. edit changes the App's
// options.
func newAgentOwnerWorld(t *testing.T, edit func(*app.Options)) *appkit.AuditWorld {
	t.Helper()
	w := appkit.NewLiveOpts(t, true, edit)
	cfg := "version: 1\nowners: [olivia, devin]\ncontract_paths: [\"api/**\"]\nagents: [devin]\n"
	w.Repo.Commit("main", "config", map[string]string{".github/aepgate.yml": cfg})
	for _, u := range []string{"olivia", "carol", "bob"} {
		w.Repo.Grant(u, "write")
	}
	w.Repo.Grant("devin", "admin")
	ms := w.Repo.CreateMilestone("M", "")
	unit := w.Repo.OpenIssue("olivia", "Export", appkit.Contract("medium", "product"), ghfake.InMilestone(ms))
	w.Repo.Branch("export", "main")
	w.Repo.CommitBy("bob", "export", "export", map[string]string{"export/export.go": appkit.AuditSource, "api/orders.yaml": "orders: v2\n"})
	pr := w.Repo.OpenPR("bob", "export", "main", "Export", "Work-unit: #"+strconv.Itoa(unit.Number()))
	a := &appkit.AuditWorld{Live: w, Unit: unit, PR: pr}
	a.Quiet(t)
	return a
}

// TestAgentApprovalNeverCounts: devin, an owner with admin permission
// whose account is a listed agent, approves the contract change, resolves
// its gate and posts a PASS: none counts. Negative control (not-agent left
// out of both rule sets): his approval clears the gate and his PASS
// passes the audit.
func TestAgentApprovalNeverCounts(t *testing.T) {
	gates := func(a *appkit.AuditWorld) *ghfake.CheckRun {
		return appkit.NewestRunOn(a.Repo, a.PR.Head(), checks.NameGates)
	}
	a := newAgentOwnerWorld(t, nil)
	gateID := "contract-pr" + strconv.Itoa(a.PR.Number()) + "-" + a.PR.Head()[:12]
	a.PR.SubmitReview("devin", "APPROVED", "")
	a.Quiet(t)
	a.PR.Comment("devin", "/aep resolve "+gateID+" approve")
	a.Quiet(t)
	if r := gates(a); r == nil || r.Conclusion != "action_required" {
		t.Errorf("after the agent's approval and resolve the gates are %+v", r)
	}
	if r := a.AuditAfter(t, "devin"); r.Conclusion != "failure" || !strings.Contains(r.Summary, "listed agent") {
		t.Errorf("after the agent's PASS: %s %s\n%s", r.Conclusion, r.Title, r.Summary)
	}
	a.PR.SubmitReview("olivia", "APPROVED", "")
	a.Quiet(t)
	if r := gates(a); r == nil || r.Conclusion != "success" {
		t.Errorf("after olivia's approval the gates are %+v", r)
	}

	neg := newAgentOwnerWorld(t, func(o *app.Options) {
		withoutAuditRule("not-agent")(o)
		o.Seams.GateRules = appkit.WithoutGateRule("not-agent")
	})
	neg.PR.SubmitReview("devin", "APPROVED", "")
	neg.Quiet(t)
	if r := gates(neg); r == nil || r.Conclusion != "success" {
		t.Errorf("negative control: without not-agent the agent's approval leaves the gates %+v, want success", r)
	}
	if r := neg.AuditAfter(t, "devin"); r.Conclusion != "success" {
		t.Errorf("negative control: without not-agent the agent's PASS is %s, want success\n%s", r.Conclusion, r.Summary)
	}
}

// TestAgentApprovalsNeedsTwo: with agents.approvals: 2, carol's PASS on
// the agent's pull request is not enough; bob's approving review makes
// the second independent approval. Negative control (agents.approvals
// unset, one needed): carol's PASS alone passes the audit.
func TestAgentApprovalsNeedsTwo(t *testing.T) {
	a := newChannelWorld(t, agentAccounts(2), nil, nil)
	if r := a.AuditAfter(t, "carol"); r.Conclusion != "failure" || !strings.Contains(r.Summary, "1 of 2 independent approvals needed counted") {
		t.Errorf("after carol's PASS alone: %s %s\n%s", r.Conclusion, r.Title, r.Summary)
	}
	a.PR.SubmitReview("bob", "APPROVED", "")
	a.Quiet(t)
	if r := a.Audit(); r == nil || r.Conclusion != "success" || !strings.Contains(r.Summary, "2 independent approvals counted; 2 needed") {
		t.Errorf("after bob's approval the audit is %+v", r)
	}

	neg := newChannelWorld(t, agentAccounts(0), nil, nil)
	if r := neg.AuditAfter(t, "carol"); r.Conclusion != "success" {
		t.Errorf("negative control: with one approval needed carol's PASS is %s, want success\n%s", r.Conclusion, r.Summary)
	}
}

// TestAgentDeniedPathOpensGate: the agent's pull request changes
// deploy/run.sh, a path its agents.accounts entry denies it (and no
// contract path): the contract-change gate opens for the owners, and
// olivia's approval clears it. Negative control (the entry denies other
// paths): the gate (opened for the contract path api/orders.yaml) does
// not cover deploy/run.sh.
func TestAgentDeniedPathOpensGate(t *testing.T) {
	push := func(a *appkit.AuditWorld) {
		a.Repo.CommitBy(appkit.AgentBot, "export", "deploy", map[string]string{"deploy/run.sh": "#!/bin/sh\n"})
	}
	agents := func(paths string) string {
		return "agents:\n  accounts:\n    \"" + appkit.AgentBot + "\": {paths: [" + paths + "]}\n"
	}
	gates := func(a *appkit.AuditWorld) *ghfake.CheckRun {
		return appkit.NewestRunOn(a.Repo, a.PR.Head(), checks.NameGates)
	}
	a := newChannelWorld(t, agents(`"deploy/**", "api/**"`), push, nil)
	if r := gates(a); r == nil || r.Conclusion != "action_required" || !strings.Contains(r.Summary, "`deploy/run.sh`") {
		t.Fatalf("the agent's change of a denied path leaves the gates %+v", r)
	}
	a.PR.SubmitReview("olivia", "APPROVED", "")
	a.Quiet(t)
	if r := gates(a); r == nil || r.Conclusion != "success" {
		t.Errorf("after olivia's approval the gates are %+v", r)
	}

	neg := newChannelWorld(t, agents(`"docs/**"`), push, nil)
	if r := gates(neg); r == nil || strings.Contains(r.Summary, "deploy/run.sh") {
		t.Errorf("negative control: with deploy/** not denied the gate still covers deploy/run.sh: %+v", r)
	}
}
