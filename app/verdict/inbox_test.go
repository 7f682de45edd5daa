package verdict

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/gate"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

var factT0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

func TestLastEvidence(t *testing.T) {
	tests := []struct {
		name string
		p    snapshot.Pull
		want time.Time
	}{
		{"head commit only", snapshot.Pull{HeadAt: factT0}, factT0},
		{"a newer workflow run", snapshot.Pull{HeadAt: factT0, Workflows: []snapshot.WorkflowRun{{Updated: factT0.Add(time.Minute)}}}, factT0.Add(time.Minute)},
		{"a newer report comment", snapshot.Pull{HeadAt: factT0, Conversation: snapshot.Thread{Comments: []snapshot.Comment{
			{Body: "STATUS: DONE\nWORK-UNIT: #1", Created: factT0.Add(2 * time.Minute)}}}}, factT0.Add(2 * time.Minute)},
		{"a newer report comment in bold, as aep/report accepts", snapshot.Pull{HeadAt: factT0, Conversation: snapshot.Thread{Comments: []snapshot.Comment{
			{Body: "**STATUS:** done\n**WORK-UNIT:** #1", Created: factT0.Add(3 * time.Minute)}}}}, factT0.Add(3 * time.Minute)},
		{"a newer comment that is no report", snapshot.Pull{HeadAt: factT0, Conversation: snapshot.Thread{Comments: []snapshot.Comment{
			{Body: "looks good", Created: factT0.Add(2 * time.Minute)}}}}, factT0},
		{"an older workflow run", snapshot.Pull{HeadAt: factT0, Workflows: []snapshot.WorkflowRun{{Updated: factT0.Add(-time.Hour)}}}, factT0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := LastEvidence(&tt.p); !got.Equal(tt.want) {
				t.Errorf("LastEvidence = %s, want %s", got, tt.want)
			}
		})
	}
}

// TestInbox: a gate's reply resolves it with its one choice, a HOLD's
// resumes, both in the repository's command prefix (the default when it
// sets none); a blocker naming no gate is left out; a changed source of a
// kept decision is listed as tampering.
func TestInbox(t *testing.T) {
	unit := "1"
	res := gatelog.Result{
		State: gate.State{Gates: []gate.Gate{
			{GateID: "ship", WorkUnit: &unit, Question: "Ship it?", Choices: []string{"yes"}, CreatedAt: factT0.UnixMilli()},
			{GateID: gatelog.UnitHoldPrefix + "1", WorkUnit: &unit, Question: "HOLD: legal", CreatedAt: factT0.UnixMilli(), Evidence: "https://github.com/acme/app/issues/1#issuecomment-3"},
		}},
		Blockers: []gate.Blocker{{GateID: "ship"}, {GateID: "gone"}, {GateID: gatelog.UnitHoldPrefix + "1"}},
		Tampered: []gatelog.Tamper{{Author: "olivia", Change: "edited", URL: "https://github.com/acme/app/issues/1#issuecomment-4", Created: factT0}},
	}
	const pr = "https://github.com/acme/app/pull/7"
	want := func(prefix string) []boardview.InboxItem {
		return []boardview.InboxItem{
			{Kind: "gate", Subject: "work unit #1", Question: "Ship it?", Choices: []string{"yes"}, Reply: prefix + " resolve ship yes", URL: pr, Since: factT0},
			{Kind: "hold", Subject: "work unit #1", Question: "HOLD: legal", Reply: prefix + " resume", URL: "https://github.com/acme/app/issues/1#issuecomment-3", Since: factT0},
			{Kind: "tampering", Subject: "comment by olivia", Question: "edited by an account GitHub did not name after aepgate accepted it; what it blocked stays in force as accepted",
				URL: "https://github.com/acme/app/issues/1#issuecomment-4", Since: factT0},
		}
	}
	tests := []struct {
		name, prefix string
		want         []boardview.InboxItem
	}{
		{"the default prefix", "", want("/aep")},
		{"the repository's prefix", "/gate", want("/gate")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, Inbox(res, tt.prefix, pr)); diff != "" {
				t.Errorf("Inbox (-want +got):\n%s", diff)
			}
		})
	}
}
