package gate

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/approval"
)

// TestDistinctOwners: a gate whose category needs two owners
// (Log.Approvals) resolves only when two distinct owners answer one
// choice; the same owner twice is refused and the gate stays open. The
// negative control counts repeats (approval.Rules.CountRepeats) and
// watches one owner open it alone.
func TestDistinctOwners(t *testing.T) {
	by := func(min int, actor, choice string) Event {
		e := resolve(min, "g1", choice)
		e.Actor = actor
		return e
	}
	two := map[string]int{"high-blast-radius-public-release": 2}
	tests := []struct {
		name      string
		approvals map[string]int
		distinct  approval.Rules
		answers   []Event
		wantState string
		wantLast  string // the last answer's result
		wantToken string
	}{
		{"one owner is enough without approvals", nil, approval.Rules{}, []Event{by(2, "alice", "SHIP")}, StateResolved, ResultResolved, ""},
		{"one of two owners answered", two, approval.Rules{}, []Event{by(2, "alice", "SHIP")}, StateOpen, ResultCounted, ""},
		{"the same owner twice is refused", two, approval.Rules{}, []Event{by(2, "alice", "SHIP"), by(3, "Alice", "SHIP")}, StateOpen, ResultRefused, "answer-not-distinct"},
		{"two distinct owners resolve it", two, approval.Rules{}, []Event{by(2, "alice", "SHIP"), by(3, "bob", "SHIP")}, StateResolved, ResultResolved, ""},
		{"two owners with different choices do not", two, approval.Rules{}, []Event{by(2, "alice", "SHIP"), by(3, "bob", "LATER")}, StateOpen, ResultCounted, ""},
		{"the safe default needs one owner", two, approval.Rules{}, []Event{by(2, "alice", "HOLD")}, StateResolved, ResultResolved, ""},
		{"negative control: repeats counted", two, approval.Rules{CountRepeats: true}, []Event{by(2, "alice", "SHIP"), by(3, "Alice", "SHIP")}, StateResolved, ResultResolved, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := create(1, "g1", "merge", nil)
			g.Choices = Choices{"SHIP", "LATER", "HOLD"}
			st := Replay(Log{Project: "demo", Events: append([]Event{g}, tt.answers...), Approvals: tt.approvals, Distinct: tt.distinct})
			if got := st.Gates[0].State; got != tt.wantState {
				t.Errorf("state = %q, want %q", got, tt.wantState)
			}
			last := st.Outcomes[len(st.Outcomes)-1]
			if last.Result != tt.wantLast || last.Token != tt.wantToken {
				t.Errorf("last outcome = %+v, want result %q token %q", last, tt.wantLast, tt.wantToken)
			}
		})
	}
}

// TestDistinctOwnersSay: the counted answer, the refusal and the state
// say who answered and how many more owners must.
func TestDistinctOwnersSay(t *testing.T) {
	g := create(1, "g1", "merge", nil)
	a, b := resolve(2, "g1", "SHIP"), resolve(3, "g1", "SHIP")
	a.Actor, b.Actor = "alice", "alice"
	st := Replay(Log{Project: "demo", Events: []Event{g, a, b}, Approvals: map[string]int{"high-blast-radius-public-release": 2}})
	want := "1 of 2 distinct owners answered (alice)"
	if m := st.Outcomes[1].Message; !strings.HasPrefix(m, want) {
		t.Errorf("counted answer says %q, want it to start %q", m, want)
	}
	if m := st.Outcomes[2].Message; !strings.Contains(m, "alice already counted") || !strings.Contains(m, "1 more owner(s)") {
		t.Errorf("refusal says %q", m)
	}
	if c := st.Counts["g1"]; len(c) != 1 || c[0].Choice != "SHIP" || c[0].Missing() != 1 {
		t.Errorf("counts = %+v, want SHIP missing one owner", c)
	}
	d, err := Check(st, Request{Action: "merge"})
	if err != nil || d.Allowed {
		t.Errorf("check = %+v, %v: want blocked while one owner is missing", d, err)
	}
}
