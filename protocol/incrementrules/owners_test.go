package incrementrules

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// TestTwoOwnersAccept: a high increment needing two owners
// (Facts.Approvals) is accepted by two distinct owners, not by one owner
// twice, whose second accept is answered refused; the negative control
// counts repeats (Rules.Distinct) and watches one owner accept it alone.
func TestTwoOwnersAccept(t *testing.T) {
	oscar := closurerules.Actor{Login: "oscar", Type: "User", Permission: "admin"}
	again := closurerules.Actor{Login: "Olivia", Type: "User", Permission: "admin"}
	two := func(cs ...Comment) Facts {
		return with(complete(), func(f *Facts) {
			high(f)
			f.Owners, f.Approvals, f.Comments = []string{"olivia", "oscar"}, 2, cs
		})
	}
	countRepeats := DefaultRules()
	countRepeats.Distinct = approval.Rules{CountRepeats: true}
	tests := []struct {
		name         string
		f            Facts
		rules        Rules
		wantStage    Stage
		wantAccepted []bool
		wantMissing  string
	}{
		{"one owner of two", two(accept(5, owner, "4", sha("3"))), DefaultRules(), Accepting, []bool{true},
			"high risk: 1 of 2 distinct owners answered (olivia)"},
		{"one owner twice", two(accept(5, owner, "4", sha("3")), accept(6, again, "4", sha("3"))), DefaultRules(), Accepting, []bool{true, false},
			"another owner accepts it"},
		{"two distinct owners", two(accept(5, owner, "4", sha("3")), accept(6, oscar, "4", sha("3"))), DefaultRules(), Complete, []bool{true, true}, ""},
		{"negative control: repeats counted", two(accept(5, owner, "4", sha("3")), accept(6, again, "4", sha("3"))), countRepeats, Complete, []bool{true, true}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := DecideWith(tt.f, tt.rules)
			if v.Stage != tt.wantStage {
				t.Errorf("stage = %s, want %s (missing %+v)", v.Stage, tt.wantStage, v.Missing)
			}
			var got []bool
			for _, a := range Answers(tt.f, tt.rules) {
				got = append(got, a.Accepted)
				if !a.Accepted && !strings.Contains(a.Reason, "olivia already accepted") && !strings.Contains(a.Reason, "Olivia already accepted") {
					t.Errorf("refusal %q does not say the owner already accepted", a.Reason)
				}
			}
			if len(got) != len(tt.wantAccepted) {
				t.Fatalf("answers accepted %v, want %v", got, tt.wantAccepted)
			}
			for i := range got {
				if got[i] != tt.wantAccepted[i] {
					t.Errorf("answers accepted %v, want %v", got, tt.wantAccepted)
				}
			}
			if tt.wantMissing != "" && (len(v.Missing) == 0 || !strings.Contains(v.Missing[0].What, tt.wantMissing)) {
				t.Errorf("missing %+v, want it to say %q", v.Missing, tt.wantMissing)
			}
		})
	}
}
