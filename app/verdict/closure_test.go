package verdict

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/workunit"
)

func keptItem(id int64, kind gatelog.Kind, thread int, body, change string) gatelog.Kept {
	return gatelog.Kept{Item: gatelog.Item{ID: id, Source: gatelog.Source{Kind: kind, Number: thread}, Body: body}, Change: change}
}

func TestHoldOn(t *testing.T) {
	tests := []struct {
		name string
		kept []gatelog.Kept
		want string
	}{
		{"none", nil, ""},
		{"unit hold", []gatelog.Kept{keptItem(1, gatelog.UnitIssue, 7, "/aep hold legal", "")}, "legal"},
		{"resumed", []gatelog.Kept{keptItem(2, gatelog.UnitIssue, 7, "/aep resume", ""), keptItem(1, gatelog.UnitIssue, 7, "/aep hold legal", "")}, ""},
		{"tampered resume lifts nothing", []gatelog.Kept{keptItem(1, gatelog.UnitIssue, 7, "/aep hold legal", ""), keptItem(2, gatelog.UnitIssue, 7, "/aep resume", gatelog.ChangeEdited)}, "legal"},
		{"project and unit", []gatelog.Kept{keptItem(1, gatelog.ControlIssue, 3, "/aep hold freeze", ""), keptItem(2, gatelog.UnitIssue, 7, "/aep hold legal", "")}, "freeze; legal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, HoldOn(tt.kept, 7, "/aep")); diff != "" {
				t.Errorf("HoldOn (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWithClosures: a closed story with stored facts carries its verdict,
// one without facts none (the work-unit check then blocks), an open one
// none; another repository's blocker is not judged.
func TestWithClosures(t *testing.T) {
	u := &workunit.Issue{Number: 1, BlockedBy: []workunit.Dep{{Number: 8}, {Repo: "o/x", Number: 8}},
		Milestone: &workunit.Milestone{Stories: []workunit.Story{{Number: 2}, {Number: 3}, {Number: 4, Open: true}}}}
	facts := map[int]closurerules.Facts{
		2: {Number: 2, StateReason: closurerules.ReasonCompleted, ClosedBy: closurerules.Actor{Login: "o", Type: "User", Permission: "admin"}, Owners: []string{"o"}},
		8: {Number: 8, StateReason: closurerules.ReasonCompleted, ClosedBy: closurerules.Actor{Login: "c", Type: "User", Permission: "write"}, Owners: []string{"o"}},
		4: {Number: 4, StateReason: closurerules.ReasonCompleted},
	}
	got := withClosures(u, facts, closurerules.DefaultRules())
	states := func(v *closurerules.Verdict) string {
		if v == nil {
			return "none"
		}
		return string(v.State)
	}
	gotStates := []string{states(got.Milestone.Stories[0].Closure), states(got.Milestone.Stories[1].Closure), states(got.Milestone.Stories[2].Closure),
		states(got.BlockedBy[0].Closure), states(got.BlockedBy[1].Closure)}
	want := []string{"done", "none", "none", "closed-without-evidence", "none"}
	if diff := cmp.Diff(want, gotStates); diff != "" {
		t.Errorf("closures (-want +got):\n%s", diff)
	}
	if u.Milestone.Stories[0].Closure != nil {
		t.Error("withClosures changed the snapshot's unit")
	}
}
