package gatelog

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// kept is it kept as accepted.
func kept(it Item) Kept { return Kept{Item: it, BodySHA256: BodyHash(it.Body)} }

// edited is it as GitHub shows it after someone rewrote it at minute min.
func edited(it Item, body string, min int) Item {
	it.Body, it.Updated, it.EditedBy = body, at(min), "mallory"
	return it
}

// TestKeptDecisions shows that an edit or deletion of an accepted blocking
// decision's source never lifts it, and that each case is an attack that
// works without the kept copy (what main did before): the kept copy is
// what stops it.
func TestKeptDecisions(t *testing.T) {
	hold := comment(1, "alice", unitIssue, 1, "/aep hold legal review")
	ctlHold := comment(1, "alice", control, 1, "/aep hold release freeze")
	coordGate := comment(2, "carol", onPR, 2, gateBlock("deploy-docs", "merge", "Deploy the docs?"))
	whole := func(srcs ...Source) []Read {
		var out []Read
		for _, s := range srcs {
			out = append(out, Read{Source: s})
		}
		return out
	}
	tests := []struct {
		name     string
		in       Input
		blockers []string
		tampered []Tamper
	}{
		{"HOLD edited, body unchanged", Input{Items: []Item{edited(hold, hold.Body, 5)}, Kept: []Kept{kept(hold)}, Read: whole(unitIssue)},
			[]string{"gate-open:unit-hold-13"}, []Tamper{{ItemID: 1, URL: hold.URL, Source: unitIssue, Author: "alice", By: "mallory", Change: ChangeEdited, Created: at(1)}}},
		{"HOLD edited into a harmless remark", Input{Items: []Item{edited(hold, "never mind", 5)}, Kept: []Kept{kept(hold)}, Read: whole(unitIssue)},
			[]string{"gate-open:unit-hold-13"}, []Tamper{{ItemID: 1, URL: hold.URL, Source: unitIssue, Author: "alice", By: "mallory", Change: ChangeEdited, Created: at(1)}}},
		{"HOLD deleted from a thread read whole", Input{Kept: []Kept{kept(hold)}, Read: whole(unitIssue)},
			[]string{"gate-open:unit-hold-13"}, []Tamper{{ItemID: 1, URL: hold.URL, Source: unitIssue, Author: "alice", Change: ChangeDeleted, Created: at(1)}}},
		{"HOLD deleted, reported by webhook, thread read from later", Input{Kept: []Kept{{Item: hold, BodySHA256: BodyHash(hold.Body), Change: ChangeDeleted, TamperedBy: "mallory"}}, Read: []Read{{Source: unitIssue, FromID: 50}}},
			[]string{"gate-open:unit-hold-13"}, []Tamper{{ItemID: 1, URL: hold.URL, Source: unitIssue, Author: "alice", By: "mallory", Change: ChangeDeleted, Created: at(1)}}},
		{"HOLD edited, reported by webhook, thread read from later", Input{Kept: []Kept{{Item: hold, BodySHA256: BodyHash(hold.Body), Change: ChangeEdited, TamperedBy: "mallory"}}, Read: []Read{{Source: unitIssue, FromID: 50}}},
			[]string{"gate-open:unit-hold-13"}, []Tamper{{ItemID: 1, URL: hold.URL, Source: unitIssue, Author: "alice", By: "mallory", Change: ChangeEdited, Created: at(1)}}},
		{"HOLD older than the part of the thread read", Input{Kept: []Kept{kept(hold)}, Read: []Read{{Source: unitIssue, FromID: 50}}},
			[]string{"gate-open:unit-hold-13"}, nil},
		{"project HOLD deleted from the control issue", Input{Kept: []Kept{kept(ctlHold)}, Read: whole(control)},
			[]string{"gate-open:project-hold"}, []Tamper{{ItemID: 1, URL: ctlHold.URL, Source: control, Author: "alice", Change: ChangeDeleted, Created: at(1)}}},
		{"coordinator's merge gate edited", Input{Items: []Item{edited(coordGate, "ok", 4)}, Kept: []Kept{kept(coordGate)}, Read: whole(onPR)},
			[]string{"gate-open:deploy-docs"}, []Tamper{{ItemID: 2, URL: coordGate.URL, Source: onPR, Author: "carol", By: "mallory", Change: ChangeEdited, Created: at(2)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input()
			in.Items, in.Kept, in.Read = tt.in.Items, tt.in.Kept, tt.in.Read
			r := Build(in)
			if diff := cmp.Diff(tt.blockers, tokens(r)); diff != "" {
				t.Errorf("blockers (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.tampered, r.Tampered); diff != "" {
				t.Errorf("tampered (-want +got):\n%s", diff)
			}
			// Negative control: without the kept copy the attack lifts it.
			in.Kept = nil
			if r := Build(in); len(r.Blockers) != 0 || len(r.Tampered) != 0 {
				t.Errorf("without the kept copy the decision still blocks, so the copy is not what keeps it: %v", tokens(r))
			}
		})
	}
}

// TestKeptIntact: a kept item GitHub shows unchanged is replayed as it is
// and reported as nothing.
func TestKeptIntact(t *testing.T) {
	hold := comment(1, "alice", unitIssue, 1, "/aep hold legal review")
	in := input(hold)
	in.Kept, in.Read = []Kept{kept(hold)}, []Read{{Source: unitIssue}}
	r := Build(in)
	if diff := cmp.Diff([]string{"gate-open:unit-hold-13"}, tokens(r)); diff != "" || len(r.Tampered) != 0 {
		t.Errorf("blockers (-want +got):\n%s\ntampered: %v", diff, r.Tampered)
	}
	if n := len(r.Outcomes); n != 1 {
		t.Errorf("the kept item was replayed %d times, want once: %+v", n, r.Outcomes)
	}
}

// TestKeptGrantCancelled: an edit of a kept RESUME cancels it (the HOLD is
// back), an owner's fresh RESUME then lifts the HOLD, and without the
// tampered-grant rule the edited RESUME would still count.
func TestKeptGrantCancelled(t *testing.T) {
	hold := comment(1, "alice", unitIssue, 1, "/aep hold legal review")
	resume := comment(2, "alice", unitIssue, 2, "/aep resume")
	in := input(hold, edited(resume, "/aep resume", 3))
	in.Kept, in.Read = []Kept{kept(hold), kept(resume)}, []Read{{Source: unitIssue}}
	r := Build(in)
	if diff := cmp.Diff([]string{"gate-open:unit-hold-13"}, tokens(r)); diff != "" {
		t.Errorf("an edited RESUME still lifts the HOLD (-want +got):\n%s", diff)
	}
	if !slices.ContainsFunc(r.Outcomes, func(o Outcome) bool { return o.ItemID == 2 && !o.Accepted && o.Reason != "" }) {
		t.Errorf("the edited RESUME was not refused with a reason: %+v", r.Outcomes)
	}
	if r := BuildWith(in, without("tampered-grant")); len(r.Blockers) != 0 {
		t.Errorf("without tampered-grant the edited RESUME still does not count, so the rule is not what cancels it: %v", tokens(r))
	}
	in.Items = append(in.Items, comment(3, "alice", unitIssue, 4, "/aep resume"))
	if r := Build(in); len(r.Blockers) != 0 {
		t.Errorf("the owner's fresh RESUME did not lift the kept HOLD: %v", tokens(r))
	}
}

// TestKeeps lists the actions whose acceptance the App keeps.
func TestKeeps(t *testing.T) {
	var got []string
	for _, a := range []string{ActionHold, ActionResume, ActionResolve, ActionStatus, ActionRecheck, ActionOpenGate, ActionApprove} {
		if Keeps(a) {
			got = append(got, a)
		}
	}
	if diff := cmp.Diff([]string{ActionHold, ActionResume, ActionResolve, ActionOpenGate}, got); diff != "" {
		t.Errorf("kept actions (-want +got):\n%s", diff)
	}
}

// TestKeptHoldOutlivesItsSender: a kept HOLD was judged when accepted; a
// later loss of its sender's write access or listing does not lift it (a
// stateless replay would re-judge it and drop it: the negative control).
func TestKeptHoldOutlivesItsSender(t *testing.T) {
	hold := comment(1, "carol", unitIssue, 1, "/aep hold flaky deploy")
	for _, tt := range []struct {
		name string
		edit func(*Input)
	}{
		{"coordinator lowered to read", func(in *Input) { in.Permissions["carol"] = "read" }},
		{"coordinator no longer listed", func(in *Input) { in.Policy.Coordinators = nil }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := input(hold)
			tt.edit(&in)
			if r := Build(in); len(r.Blockers) != 0 {
				t.Fatalf("the stateless replay kept the HOLD, so the case shows nothing: %v", tokens(r))
			}
			in.Kept = []Kept{kept(hold)}
			if diff := cmp.Diff([]string{"gate-open:unit-hold-13"}, tokens(Build(in))); diff != "" {
				t.Errorf("the kept HOLD was lifted (-want +got):\n%s", diff)
			}
		})
	}
}

// TestWitnessedBeforeFirstJudgement: a HOLD edited away (or deleted)
// before the App first judged it is judged as the signed
// issue_comment.created webhook delivered it, by every rule: it blocks,
// and shows as tampering; a stranger's witnessed HOLD is still refused.
// Without the witness (the negative control) the edit wins.
func TestWitnessedBeforeFirstJudgement(t *testing.T) {
	hold := comment(1, "alice", unitIssue, 1, "/aep hold legal review")
	stranger := comment(1, "mallory", unitIssue, 1, "/aep hold because")
	tests := []struct {
		name     string
		items    []Item
		witness  Item
		blockers []string
	}{
		{"edited away", []Item{edited(hold, "thanks", 2)}, hold, []string{"gate-open:unit-hold-13"}},
		{"deleted", nil, hold, []string{"gate-open:unit-hold-13"}},
		{"a stranger's is still refused", []Item{edited(stranger, "x", 2)}, stranger, []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := input(tt.items...)
			in.Read, in.Witnessed = []Read{{Source: unitIssue}}, []Item{tt.witness}
			r := Build(in)
			if diff := cmp.Diff(tt.blockers, tokens(r)); diff != "" {
				t.Errorf("blockers (-want +got):\n%s", diff)
			}
			if len(tt.blockers) == 0 {
				return
			}
			if len(r.Tampered) != 1 {
				t.Errorf("tampered = %+v, want one", r.Tampered)
			}
			in.Witnessed = nil
			if r := Build(in); len(r.Blockers) != 0 {
				t.Errorf("without the witness the HOLD still blocks, so the witness is not what keeps it: %v", tokens(r))
			}
		})
	}
}
