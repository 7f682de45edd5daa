package checks

import (
	"path/filepath"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/aepgate/aepgate/review"
)

// TestRenderAuditAgent: an agent's pull request says who instructed the
// agent, whose audit then does not count (golden).
func TestRenderAuditAgent(t *testing.T) {
	const bot = "copilot-swe-agent[bot]"
	bobInstructed := &instructor.Finding{Agents: []string{bot}, Unit: 42, Instructors: []instructor.Instructor{
		{Login: "bob", Agent: bot, Roles: []instructor.Role{instructor.RoleAssigner, instructor.RoleAssignee}},
		{Login: "dana", Agent: bot, Roles: []instructor.Role{instructor.RoleAssignee}},
	}}
	tests := []struct {
		file     string
		found    *instructor.Finding
		reviewer string
		want     Conclusion
	}{
		{"audit-agent-instructor.golden", bobInstructed, "bob", ConclusionFailure},
		{"audit-agent-passed.golden", bobInstructed, "ann", ConclusionSuccess},
		{"audit-agent-unassigned.golden", &instructor.Finding{Agents: []string{bot}, Unit: 42}, "ann", ConclusionSuccess},
		{"audit-agent-unknown.golden", &instructor.Finding{Agents: []string{bot}, Unit: 42,
			Unknown: "issue #42's timeline holds more than 2000 events, more than aepgate reads, so who assigned the agent cannot be known"}, "ann", ConclusionFailure},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			f := newAuditFixture("medium").review(2, tt.reviewer, sha, auditPass(), 4)
			f.in.PRAuthor = review.Actor{Login: bot, Type: "Bot"}
			f.in.Permissions = map[string]string{tt.reviewer: "write"}
			f.in.Instructed = tt.found
			run := Audit(sha, AuditContext{Unit: 42, PR: 21, Risk: "medium", PRURL: "https://github.com/acme/w/pull/21", Instructed: tt.found}, review.Evaluate(f.in))
			if run.Conclusion != tt.want {
				t.Errorf("conclusion %s, want %s", run.Conclusion, tt.want)
			}
			if err := Validate(Fit(run)); err != nil {
				t.Errorf("rendered run is invalid: %v", err)
			}
			golden.CheckString(t, filepath.Join("testdata", tt.file), dumpApp(run))
		})
	}
}

// TestRenderFates: the approvals of an agent's pull request and their
// fates, in aepgate/audit's and aepgate/gates' summaries (golden); a
// login's "|" cannot break the table.
func TestRenderFates(t *testing.T) {
	const bot = "copilot-swe-agent[bot]"
	f := instructor.Facts{Head: sha, Base: "b", IsAgent: func(l string) bool { return l == bot }, Approvals: 2,
		Pushes: []instructor.Instructed{{Push: instructor.Push{Head: sha, Agent: bot}, N: 1, Instructor: &instructor.Instruction{Author: "dave", Channel: instructor.ChannelComment}}}}
	d := instructor.Decide(f, []instructor.Approval{
		{Kind: instructor.KindAudit, Login: "ann", Head: sha, Base: "b", LiveWrite: true},
		{Kind: instructor.KindAudit, Login: "dave", Head: sha, Base: "b", LiveWrite: true},
		{Kind: instructor.KindReview, Login: bot, Head: sha, Base: "b", LiveWrite: true, Bot: true},
		{Kind: instructor.KindReview, Login: "carol", Head: "0123456789abcdef", Base: "b", LiveWrite: true},
		{Kind: instructor.KindCommand, Login: "eve|x", Head: sha, Base: "b"},
	})
	in := newAuditFixture("medium").review(2, "ann", sha, auditPass(), 4)
	in.in.Permissions = map[string]string{"ann": "write"}
	audit := Audit(sha, AuditContext{Unit: 42, PR: 21, Risk: "medium", Fates: &d}, review.Evaluate(in.in))
	gates := Gates(sha, GatesContext{Unit: 42, PR: 21, Fates: &d}, gate.State{}, nil)
	for file, run := range map[string]Run{"audit-fates.golden": audit, "gates-fates.golden": gates} {
		if err := Validate(Fit(run)); err != nil {
			t.Errorf("%s: rendered run is invalid: %v", file, err)
		}
		golden.CheckString(t, filepath.Join("testdata", file), dumpApp(run))
	}
}
