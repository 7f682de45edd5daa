package gatelog

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/google/go-cmp/cmp"
)

// agentInput is work unit 13's pull request 21, made by an agent that
// alice (an owner) assigned; it changes a contract path at headA. dave is
// a second owner.
func agentInput(found *instructor.Finding, items ...Item) Input {
	in := input(items...)
	in.Policy.Owners = append(in.Policy.Owners, "dave")
	in.Permissions["dave"] = "write"
	in.PullRequests = []PullRequestState{{Number: 21, Head: headA, HeadAt: at(1), ContractFiles: []string{"api/orders.yaml"}}}
	in.Instructed = found
	return in
}

func aliceInstructed() *instructor.Finding {
	return &instructor.Finding{Agents: []string{"copilot-swe-agent[bot]"}, Unit: 13,
		Instructors: []instructor.Instructor{{Login: "alice", Agent: "copilot-swe-agent[bot]", Roles: []instructor.Role{instructor.RoleAssigner}}}}
}

// TestNotInstructorApproval: the instructor's approval (review or resolve)
// does not answer the agent's contract-change gate; another owner's does;
// a reject still counts; a pull request no agent made is unaffected.
func TestNotInstructorApproval(t *testing.T) {
	id := ContractGateID(21, headA)
	open := []string{"gate-open:" + id}
	unknown := &instructor.Finding{Agents: []string{"copilot-swe-agent[bot]"}, Unit: 13, Unknown: "issue #13's timeline holds more than 2000 events"}
	tests := []struct {
		name   string
		found  *instructor.Finding
		item   Item
		want   []string
		reason string // the refusal's start; "" when accepted
	}{
		{"instructor's approving review", aliceInstructed(), review(1, "alice", onPR, 2, ReviewApproved, headA, ""), open, "alice instructed the agent copilot-swe-agent[bot] that made pull request #21"},
		{"instructor's resolve approve", aliceInstructed(), comment(1, "alice", onPR, 2, "/aep resolve "+id+" approve"), open, "alice instructed the agent"},
		{"instructor's reject counts", aliceInstructed(), comment(1, "alice", onPR, 2, "/aep resolve "+id+" reject"), []string{"gate-answered-safe-default:" + id}, ""},
		{"another owner's approval", aliceInstructed(), review(1, "dave", onPR, 2, ReviewApproved, headA, ""), []string{}, ""},
		{"no agent made it", nil, review(1, "alice", onPR, 2, ReviewApproved, headA, ""), []string{}, ""},
		{"instructors unknown", unknown, review(1, "dave", onPR, 2, ReviewApproved, headA, ""), open, "pull request #21 was made by the agent copilot-swe-agent[bot], and issue #13's timeline"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Build(agentInput(tt.found, tt.item))
			if diff := cmp.Diff(tt.want, tokens(r)); diff != "" {
				t.Errorf("blockers (-want +got):\n%s", diff)
			}
			got := ""
			for _, o := range r.Outcomes {
				if o.GateID == id && !o.Accepted {
					got = o.Reason
				}
			}
			if !strings.HasPrefix(got, tt.reason) || (tt.reason == "") != (got == "") {
				t.Errorf("refusal %q; want it to start %q", got, tt.reason)
			}
		})
	}
}

// TestNotInstructorApprovalNegativeControl: with the rule removed, the
// instructor's approval alone answers the contract-change gate.
func TestNotInstructorApprovalNegativeControl(t *testing.T) {
	for _, it := range []Item{
		review(1, "alice", onPR, 2, ReviewApproved, headA, ""),
		comment(1, "alice", onPR, 2, "/aep resolve "+ContractGateID(21, headA)+" approve"),
	} {
		in := agentInput(aliceInstructed(), it)
		if got := tokens(Build(in)); len(got) == 0 {
			t.Fatalf("with every rule the instructor's approval answers the gate")
		}
		if got := tokens(BuildWith(in, without("not-instructor"))); len(got) != 0 {
			t.Errorf("without not-instructor: blockers %v; want none", got)
		}
	}
}
