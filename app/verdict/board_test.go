package verdict

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// factEvaluation is an evaluation of pull request 7 on unit 1.
func factEvaluation(mut func(ev *Evaluation)) *Evaluation {
	ev := &Evaluation{Unit: 1, Cfg: config.Default(), Snap: &snapshot.PR{Pull: &snapshot.Pull{Number: 7, URL: "https://github.com/acme/app/pull/7",
		HeadSHA: "abc", HeadAt: factT0, RunsKnown: true, Runs: []snapshot.ExistingRun{{ID: 55, Name: checks.NameWorkUnit}}}}}
	ev.unitMemo = &workunit.Verdict{OK: true, Unit: 1}
	if mut != nil {
		mut(ev)
	}
	return ev
}

func TestFactState(t *testing.T) {
	unit := "1"
	hold := gatelog.Result{State: gate.State{Gates: []gate.Gate{{GateID: gatelog.UnitHoldPrefix + "1", WorkUnit: &unit, Question: "HOLD: legal"}}},
		Blockers: []gate.Blocker{{GateID: gatelog.UnitHoldPrefix + "1"}}}
	tests := []struct {
		name       string
		mut        func(ev *Evaluation)
		want       boardview.State
		wantReason string
	}{
		{"in progress", nil, boardview.StateInProgress, ""},
		{"in review: a review request", func(ev *Evaluation) { ev.Snap.Pull.ReviewRequests = []string{"carol"} }, boardview.StateInReview, ""},
		{"blocked: the work unit fails", func(ev *Evaluation) {
			ev.unitMemo = &workunit.Verdict{Reasons: []string{"dependency #2 is still open"}}
		}, boardview.StateBlocked, "dependency #2 is still open"},
		{"blocked: gates cannot be judged", func(ev *Evaluation) { ev.gatesDone, ev.Snap.Has.Conversation = true, true }, boardview.StateBlocked, "the owner gates cannot be judged"},
		{"held beats blocked", func(ev *Evaluation) {
			ev.unitMemo = &workunit.Verdict{Reasons: []string{"x"}}
			ev.gatesMemo, ev.gatesDone = &hold, true
		}, boardview.StateHeld, "HOLD: legal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, reason := FactState(factEvaluation(tt.mut))
			if got != tt.want || reason != tt.wantReason {
				t.Errorf("FactState = %q (%q), want %q (%q)", got, reason, tt.want, tt.wantReason)
			}
		})
	}
}

func TestBoardFact(t *testing.T) {
	unit := "1"
	res := gatelog.Result{
		State: gate.State{Gates: []gate.Gate{
			{GateID: "ship", WorkUnit: &unit, Question: "Ship it?", Choices: []string{"yes", "no"}, CreatedAt: factT0.UnixMilli(), Evidence: "https://github.com/acme/app/issues/1#issuecomment-3"},
			{GateID: gate.HoldID, Question: "HOLD: freeze", CreatedAt: factT0.Add(time.Minute).UnixMilli()},
		}},
		Blockers: []gate.Blocker{{GateID: "ship"}, {GateID: gate.HoldID}},
	}
	ev := factEvaluation(func(ev *Evaluation) { ev.gatesMemo, ev.gatesDone = &res, true })
	shown := []Shown{
		{Run: checks.Run{Name: checks.NameWorkUnit, Conclusion: checks.ConclusionSuccess}},             // unchanged: the head's run 55
		{Run: checks.Run{Name: checks.NameGates, Conclusion: checks.ConclusionActionRequired}, ID: 56}, // written now
	}
	got := BoardFact(ev, shown)
	want := boardview.Fact{PR: 7, Unit: 1, Head: "abc", State: boardview.StateHeld, Reason: "Ship it?", LastEvidence: factT0,
		Checks: []boardview.Check{
			{Name: checks.NameWorkUnit, Status: "completed", Conclusion: "success", URL: "https://github.com/acme/app/runs/55"},
			{Name: checks.NameGates, Status: "completed", Conclusion: "action_required", URL: "https://github.com/acme/app/runs/56"},
		},
		Inbox: []boardview.InboxItem{
			{Kind: "gate", Subject: "work unit #1", Question: "Ship it?", Choices: []string{"yes", "no"}, Reply: "/aep resolve ship <choice>",
				URL: "https://github.com/acme/app/issues/1#issuecomment-3", Since: factT0},
			{Kind: "hold", Subject: "project", Question: "HOLD: freeze", Reply: "/aep resume", URL: "https://github.com/acme/app/pull/7", Since: factT0.Add(time.Minute)},
		}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("BoardFact (-want +got):\n%s", diff)
	}
}
