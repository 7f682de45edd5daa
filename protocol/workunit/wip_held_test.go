package workunit

import (
	"testing"

	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/google/go-cmp/cmp"
)

func TestHeldLane(t *testing.T) {
	tests := []struct {
		name     string
		verdict  *closurerules.Verdict
		wantHeld string
	}{
		{"never judged", nil, "closed, but aepgate holds no judgement of its closure"},
		{"closed without evidence", &closurerules.Verdict{Number: 4, State: closurerules.WithoutEvidence, Closer: "carl"}, "closed without evidence by carl"},
		{"closer unknown", &closurerules.Verdict{Number: 4, State: closurerules.WithoutEvidence}, "closed without evidence by an unknown account"},
		{"done", &closurerules.Verdict{Number: 4, State: closurerules.Done, Closer: "olivia"}, ""},
		{"cancelled by the owner", &closurerules.Verdict{Number: 4, State: closurerules.Cancelled, Closer: "olivia"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := HeldLane(4, tt.verdict)
			if ok != (tt.wantHeld != "") {
				t.Fatalf("HeldLane holds = %v, want %v", ok, tt.wantHeld != "")
			}
			if diff := cmp.Diff(tt.wantHeld, got.Held); diff != "" {
				t.Errorf("Held (-want +got):\n%s", diff)
			}
		})
	}
}

// heldWorld is an increment with lanes_per_increment 2: story #1 closed
// by the coordinator carl with no evidence, #2 and #3 each with an open
// attempt (#10, #12); closure judges #1's closure with rules.
func heldWorld(rules closurerules.Rules) (*Issue, []Lane) {
	v := closurerules.Judge(closurerules.Facts{Number: 1, StateReason: closurerules.ReasonCompleted, Owners: []string{"olivia"}, Risk: "medium",
		ClosedBy: closurerules.Actor{Login: "carl", Type: "User", Permission: "write"}}, rules)
	m := &Milestone{Number: 1, Title: "M1", Open: true, Description: "```yaml\nrisk: medium\n```", Stories: []Story{
		{Number: 1, Open: false, Body: contractBody("medium", "product"), Closure: &v},
		{Number: 2, Open: true, Body: contractBody("medium", "product")},
		{Number: 3, Open: true, Body: contractBody("medium", "product")},
	}}
	return &Issue{Number: 3, Title: "third", Open: true, Body: m.Stories[2].Body, Milestone: m}, []Lane{{PR: 10, Unit: 2}, {PR: 12, Unit: 3}}
}

// TestClosedWithoutEvidenceHoldsLane: a story closed without evidence
// still counts against lanes_per_increment, so a third unit's attempt is
// over the limit. The negative control judges the closure with the old
// rule (any closure counts as done): the closed story then frees its lane
// and the attempt passes.
func TestClosedWithoutEvidenceHoldsLane(t *testing.T) {
	anyClosed := closurerules.DefaultRules()
	anyClosed.Evidence = append(anyClosed.Evidence, closurerules.EvidenceRule{Name: "closed-counts", Find: func(closurerules.Facts, closurerules.Rules) string { return "closed" }})
	tests := []struct {
		name  string
		rules closurerules.Rules
		want  []string
	}{
		{"closure rule", closurerules.DefaultRules(), []string{"limits.lanes_per_increment is 2: the increment's open lanes are #1 (closed without evidence by carl), #2 (#10); finish one before starting work unit #3"}},
		{"negative control: any closure counts", anyClosed, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, lanes := heldWorld(tt.rules)
			got := Evaluate(Input{Refs: []Ref{{Number: 3}}, Unit: u, PR: 12, Lanes: lanes, Limits: Limits{1, 2}})
			if diff := cmp.Diff(tt.want, got.Reasons); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
		})
	}
}

func TestOverLimitsHeldLane(t *testing.T) {
	held := Lane{Unit: 1, Held: "closed without evidence by carl"}
	tests := []struct {
		name string
		open []Lane
		want map[int]string
	}{
		{"a held lane is no attempt", []Lane{held, {PR: 10, Unit: 1}}, map[int]string{}},
		{"a held lane takes a place first", []Lane{{PR: 10, Unit: 2}, held}, map[int]string{10: LimitLanes}},
		{"held lanes alone exceed nothing", []Lane{held, {Unit: 2, Held: "x"}}, map[int]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := map[int]string{}
			for pr, o := range OverLimits(tt.open, Limits{1, 1}) {
				got[pr] = o.Limit
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("OverLimits (-want +got):\n%s", diff)
			}
		})
	}
}
