package incrementrules

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestAnswers: each accept line naming the milestone is answered as
// Decide counts it, a refusal naming the exact command that would count;
// with the rule that refuses it removed, the same line is accepted.
func TestAnswers(t *testing.T) {
	edited := accept(5, owner, "4", sha("3"))
	edited.Updated = t0.Add(1)
	held := accept(5, owner, "4", sha("3"))
	held.Hold = "wait for legal"
	tests := []struct {
		name    string
		c       Comment
		rule    string // "" when accepted with every rule
		reasons []string
	}{
		{"the owner accepts the candidate", accept(5, owner, "4", sha("3")), "", nil},
		{"a coordinator accepts", accept(5, coordinator, "4", sha("3")), "listed-owner", []string{"carl", "`/aep accept 4 " + sha("3") + "`"}},
		{"an edited acceptance", edited, "not-edited", []string{"edited", "in a new comment"}},
		{"an acceptance under a HOLD", held, "not-under-hold", []string{"wait for legal"}},
		{"an acceptance of another commit", accept(5, owner, "4", sha("2")), "bound-to-candidate", []string{"it accepts " + sha("2"), "`/aep accept 4 " + sha("3") + "`"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := with(complete(), func(f *Facts) { high(f); f.Comments = []Comment{tt.c} })
			got := Answers(f, DefaultRules())
			if len(got) != 1 || got[0].Accepted != (tt.rule == "") {
				t.Fatalf("answers %+v, want one accepted=%v", got, tt.rule == "")
			}
			for _, r := range tt.reasons {
				if !strings.Contains(got[0].Reason, r) {
					t.Errorf("reason %q does not say %q", got[0].Reason, r)
				}
			}
			if tt.rule == "" {
				return
			}
			if control := Answers(f, without(tt.rule)); len(control) != 1 || !control[0].Accepted {
				t.Errorf("negative control: with %q removed the line should be accepted: %+v", tt.rule, control)
			}
		})
	}
}

// TestUnanswerable: a malformed accept and one naming a milestone the App
// did not judge are refused; one naming a judged milestone is left to its
// Answers.
func TestUnanswerable(t *testing.T) {
	cs := []Comment{
		comment(1, owner, "/aep accept 4 "+sha("3")),
		comment(2, owner, "/aep accept 9 "+sha("3")),
		comment(3, owner, "/aep accept four"),
		comment(4, owner, "/aep status"),
	}
	got := Unanswerable(cs, "", []int{4})
	var ids []int64
	for _, a := range got {
		ids = append(ids, a.CommentID)
		if a.Accepted || a.Reason == "" {
			t.Errorf("answer %+v: want a refusal with its reason", a)
		}
	}
	if diff := cmp.Diff([]int64{2, 3}, ids); diff != "" {
		t.Errorf("refused comments (-want +got):\n%s", diff)
	}
	if !got[1].Malformed || got[0].Malformed || !strings.Contains(got[0].Reason, "milestone 9 is not an open milestone") {
		t.Errorf("answers %+v", got)
	}
}

// TestWithdrawn: a certificate at an earlier candidate stops holding once
// the candidate moves or disappears; the one at the candidate holds. The
// negative control drops candidate-moved and keeps them all.
func TestWithdrawn(t *testing.T) {
	f := complete()
	tests := []struct {
		name      string
		candidate string
		sha       string
		want      string
	}{
		{"the candidate itself", sha("3"), sha("3"), ""},
		{"an earlier candidate", sha("3"), sha("2"), "integrated candidate is now " + sha("3")},
		{"no candidate now", "", sha("2"), "has no integrated candidate now"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Verdict{Milestone: 4, Candidate: tt.candidate, Stage: Building}
			got := Withdrawn(f, v, DefaultRules(), tt.sha)
			if (got == "") != (tt.want == "") || !strings.Contains(got, tt.want) {
				t.Errorf("Withdrawn = %q, want %q", got, tt.want)
			}
			if got := Withdrawn(f, v, without("candidate-moved"), tt.sha); got != "" {
				t.Errorf("negative control: without candidate-moved it still withdraws: %q", got)
			}
		})
	}
	named := with(f, func(f *Facts) { f.Comments = []Comment{accept(5, owner, "4", sha("9"))} })
	if diff := cmp.Diff([]string{sha("1"), sha("2"), sha("3"), sha("9")}, Previous(named, DefaultRules())); diff != "" {
		t.Errorf("Previous (-want +got):\n%s", diff)
	}
}
