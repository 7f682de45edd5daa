package review

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/google/go-cmp/cmp"
)

const agentBot = "copilot-swe-agent[bot]"

// instructedBy is a finding: the agent made the pull request, and ann
// assigned it on the unit's issue while bob was assigned.
func instructedBy() *instructor.Finding {
	return &instructor.Finding{Agents: []string{agentBot}, Unit: 42, Instructors: []instructor.Instructor{
		{Login: "ann", Agent: agentBot, Roles: []instructor.Role{instructor.RoleAssigner}},
		{Login: "bob", Agent: agentBot, Roles: []instructor.Role{instructor.RoleAssignee}},
	}}
}

// TestNotInstructor: the instructor's audit of an agent's pull request does
// not count; another collaborator's does; without agents nothing changes.
func TestNotInstructor(t *testing.T) {
	tests := []struct {
		name     string
		reviewer string
		found    *instructor.Finding
		outcome  string
		reason   string
	}{
		{"the assigner", "ann", instructedBy(), OutcomeMissing,
			"ann instructed the agent copilot-swe-agent[bot] that made this pull request (on issue #42: assigned it); whoever asked an agent for a change is one of its authors and cannot audit it"},
		{"an assignee then, other case", "BOB", instructedBy(), OutcomeMissing,
			"BOB instructed the agent copilot-swe-agent[bot] that made this pull request (on issue #42: assignee when it was assigned); whoever asked an agent for a change is one of its authors and cannot audit it"},
		{"another auditor", "pat", instructedBy(), OutcomePassed, ""},
		{"no agent made it", "ann", nil, OutcomePassed, ""},
		{"an agent's, nobody assigned it", "ann", &instructor.Finding{Agents: []string{agentBot}, Unit: 42}, OutcomePassed, ""},
		{"instructors unknown", "pat", &instructor.Finding{Agents: []string{agentBot}, Unit: 42, Unknown: "issue #42's timeline holds more than 2000 events"}, OutcomeMissing,
			"this pull request was made by the agent copilot-swe-agent[bot], and issue #42's timeline holds more than 2000 events; nobody can be shown independent of whoever instructed it"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := with(fixture(RiskMedium), []Review{rev(9, tt.reviewer, head, pass(), 1)})
			in.Permissions[tt.reviewer] = "write"
			in.Instructed = tt.found
			d := Evaluate(in)
			got := ""
			if len(d.Ignored) > 0 {
				got = d.Ignored[0].Reason
			}
			if diff := cmp.Diff(tt.outcome+"|"+tt.reason, d.Outcome+"|"+got); diff != "" {
				t.Errorf("outcome|reason (-want +got):\n%s", diff)
			}
		})
	}
}

// TestNotInstructorNegativeControl: the instructor's PASS is refused with
// every rule, and passes with not-instructor removed.
func TestNotInstructorNegativeControl(t *testing.T) {
	in := with(fixture(RiskMedium), []Review{rev(9, "ann", head, pass(), 1)})
	in.Instructed = instructedBy()
	if d := Evaluate(in); d.Outcome == OutcomePassed {
		t.Fatalf("with every rule the instructor's audit passes: %s", d.Reason)
	}
	if d := EvaluateOptions(in, withoutRule("not-instructor")); d.Outcome != OutcomePassed {
		t.Errorf("without not-instructor: %s (%s); want passed", d.Outcome, d.Reason)
	}
}

// TestMissingReasonNamesInstructors: before any audit, the reason says the
// instructors may not audit.
func TestMissingReasonNamesInstructors(t *testing.T) {
	in := fixture(RiskMedium)
	in.Instructed = instructedBy()
	if d := Evaluate(in); !strings.Contains(d.Reason, "and did not instruct the agent (ann, bob) submits") {
		t.Errorf("reason %q does not name the instructors", d.Reason)
	}
	in.Instructed = nil
	if d := Evaluate(in); strings.Contains(d.Reason, "instruct") {
		t.Errorf("no agent, yet the reason %q names instructors", d.Reason)
	}
}
