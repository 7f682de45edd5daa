package increment_test

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// twoOwnersYAML is IncrementYAML with a second owner and two owners to
// accept an increment (gates.<incrementrules.AcceptanceCategory>).
const twoOwnersYAML = "version: 1\nowners: [olivia, oscar]\ncoordinators: [carl]\nrequired_workflows:\n  readback: [ci]\n" +
	"gates:\n  " + incrementrules.AcceptanceCategory + ": {approvals: 2}\n"

// TestIncrementTwoOwnersAccept: a high increment needing two owners is
// not accepted by one owner twice (the second accept refused, saying
// another owner must accept) and completes on a second owner's accept.
// Negative control: counting repeats (Rules.Distinct), one owner's two
// accepts complete it.
func TestIncrementTwoOwnersAccept(t *testing.T) {
	countRepeats := incrementrules.DefaultRules()
	countRepeats.Distinct = approval.Rules{CountRepeats: true}
	for _, tt := range []struct {
		name  string
		rules *incrementrules.Rules
	}{
		{"the same owner twice is refused", nil},
		{"negative control: repeats counted", &countRepeats},
	} {
		t.Run(tt.name, func(t *testing.T) {
			w := newIncrementWorldOn(t, twoOwnersYAML, appkit.HighRisk, tt.rules)
			w.Repo.Grant("oscar", "admin")
			w.Certified(t, 0)
			w.Certified(t, 1)
			last := w.Certified(t, 2)
			w.CandidateNamed(t, last)
			first := w.Control.Comment("olivia", "/aep accept 1 "+last)
			if reactions, _ := w.AnswerOf(t, first); strings.Join(reactions, ",") != "+1" {
				t.Fatalf("the first owner's accept: reactions %v, want +1 (it counts)", reactions)
			}
			if _, done := w.Complete(t, last); done {
				t.Fatal("one owner's accept completed an increment needing two")
			}
			again := w.Control.Comment("olivia", "/aep accept 1 "+last)
			reactions, replies := w.AnswerOf(t, again)
			if tt.rules != nil {
				if _, done := w.Complete(t, last); !done {
					t.Fatalf("negative control: one owner's two accepts did not complete it: %+v", w.Increment(t, last))
				}
				return
			}
			if strings.Join(reactions, ",") != "-1" || len(replies) != 1 || !strings.Contains(replies[0], "olivia already accepted") {
				t.Fatalf("the same owner's second accept: reactions %v, replies %q; want -1 and a reply saying olivia already accepted", reactions, replies)
			}
			if _, done := w.Complete(t, last); done {
				t.Fatal("one owner accepting twice completed the increment")
			}
			if r := w.Increment(t, last); r == nil || !strings.Contains(r.Summary, "1 of 2 distinct owners answered (olivia)") {
				t.Errorf("aepgate/increment does not say who accepted and that another owner must: %+v", r)
			}
			w.Control.Comment("oscar", "/aep accept 1 "+last)
			w.Quiet(t)
			if _, done := w.Complete(t, last); !done {
				t.Fatalf("two distinct owners' accepts did not complete it: %+v", w.Increment(t, last))
			}
		})
	}
}
