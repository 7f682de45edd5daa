package deployrules

import (
	"testing"

	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/gate"
)

// TestWaitingForSaysWhoAnswered: a deploy gate needing two owners waits
// saying who answered and that another owner must.
func TestWaitingForSaysWhoAnswered(t *testing.T) {
	st := gate.State{Counts: map[string][]gate.Count{"deploy-production-7": {{Choice: "approve",
		Tally: approval.Count([]approval.Answer{{Login: "olivia"}}, 2, approval.Rules{})}}}}
	got := waitingFor(st, "deploy-production-7")
	want := `waiting for the owner to answer gate deploy-production-7 on the control issue; "approve": 1 of 2 distinct owners answered (olivia); 1 more owner(s), other than those who answered, must answer`
	if got != want {
		t.Errorf("waitingFor =\n%s\nwant\n%s", got, want)
	}
	if got := waitingFor(gate.State{}, "deploy-production-7"); got != "waiting for the owner to answer gate deploy-production-7 on the control issue" {
		t.Errorf("one owner's gate: %s", got)
	}
}
