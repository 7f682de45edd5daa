package approval

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCount: distinct owners are counted once each however they answer;
// each rule has a negative control that turns it off (Rules) and watches
// the same person open a two-owner gate alone.
func TestCount(t *testing.T) {
	alice := Answer{Login: "alice", Emails: []string{"alice@example.com"}}
	aliceAgain := Answer{Login: "Alice"}
	aliceAlt := Answer{Login: "alice-work", Emails: []string{" ALICE@example.com"}}
	aliceAgent := Answer{Login: "copilot-swe-agent[bot]", ActsFor: "alice"}
	bob := Answer{Login: "bob", Emails: []string{"bob@example.com"}}
	tests := []struct {
		name       string
		answers    []Answer
		need       int
		rules      Rules
		wantPeople [][]string
		wantOK     bool
	}{
		{"two distinct owners", []Answer{alice, bob}, 2, Rules{}, [][]string{{"alice"}, {"bob"}}, true},
		{"one owner is enough for one", []Answer{alice}, 1, Rules{}, [][]string{{"alice"}}, true},
		{"need below one is one", nil, 0, Rules{}, nil, false},
		{"the same owner twice", []Answer{alice, aliceAgain}, 2, Rules{}, [][]string{{"alice"}}, false},
		{"negative control: repeats counted", []Answer{alice, aliceAgain}, 2, Rules{CountRepeats: true}, [][]string{{"alice"}, {"Alice"}}, true},
		{"a second account with the same verified e-mail", []Answer{alice, aliceAlt}, 2, Rules{}, [][]string{{"alice", "alice-work"}}, false},
		{"negative control: e-mails ignored", []Answer{alice, aliceAlt}, 2, Rules{IgnoreEmails: true}, [][]string{{"alice"}, {"alice-work"}}, true},
		{"an agent acting for its instructor", []Answer{aliceAgent, alice}, 2, Rules{}, [][]string{{"copilot-swe-agent[bot]", "alice"}}, false},
		{"negative control: instructors ignored", []Answer{aliceAgent, alice}, 2, Rules{IgnoreInstructors: true}, [][]string{{"copilot-swe-agent[bot]"}, {"alice"}}, true},
		{"two agents for one instructor", []Answer{aliceAgent, {Login: "other-agent", ActsFor: "ALICE"}}, 2, Rules{}, [][]string{{"copilot-swe-agent[bot]", "other-agent"}}, false},
		{"joined through a chain, then a distinct owner", []Answer{aliceAgent, alice, aliceAlt, bob}, 2, Rules{}, [][]string{{"copilot-swe-agent[bot]", "alice", "alice-work"}, {"bob"}}, true},
		{"unknown e-mails join nothing", []Answer{{Login: "carol"}, {Login: "dave"}}, 2, Rules{}, [][]string{{"carol"}, {"dave"}}, true},
		{"an answer without a login counts for no one", []Answer{alice, {Emails: []string{"x@example.com"}}}, 2, Rules{}, [][]string{{"alice"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Count(tt.answers, tt.need, tt.rules)
			if diff := cmp.Diff(tt.wantPeople, got.People); diff != "" {
				t.Errorf("people (-want +got):\n%s", diff)
			}
			if got.Satisfied() != tt.wantOK {
				t.Errorf("satisfied = %v, want %v (%s)", got.Satisfied(), tt.wantOK, got.Reason())
			}
		})
	}
}

func TestReason(t *testing.T) {
	got := Count([]Answer{{Login: "alice", Emails: []string{"a@x"}}, {Login: "alice-work", Emails: []string{"a@x"}}}, 2, Rules{}).Reason()
	want := "1 of 2 distinct owners answered (alice/alice-work); alice-work is alice (same verified e-mail); 1 more owner(s), other than those who answered, must answer"
	if got != want {
		t.Errorf("Reason() =\n%q\nwant\n%q", got, want)
	}
	ok := Count([]Answer{{Login: "alice"}, {Login: "bob"}}, 2, Rules{})
	if r := ok.Reason(); !strings.HasPrefix(r, "2 of 2 distinct owners answered (alice, bob)") || ok.Missing() != 0 {
		t.Errorf("Reason() = %q, missing %d", r, ok.Missing())
	}
}
