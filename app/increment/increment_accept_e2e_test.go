package increment_test

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestIncrementAcceptIsAnswered: every `/aep accept` on the control issue
// is answered once — 👍 when it counts; 👎 and one reply saying why, with
// the exact command that would count, when refused (a coordinator's, the
// wrong or an unknown SHA, an unknown milestone, a malformed line, one
// posted under a HOLD, an edited one) — and a redelivery and the sweep add
// nothing. Only the owner's acceptance after the resume completes the
// increment.
func TestIncrementAcceptIsAnswered(t *testing.T) {
	w := newIncrementWorld(t, appkit.HighRisk, nil)
	first := w.Certified(t, 0)
	w.Certified(t, 1)
	last := w.Certified(t, 2)
	w.CandidateNamed(t, last)
	use := "`/aep accept 1 " + last + "`"
	refusals := []struct {
		name, by, body string
		wants          []string
	}{
		{"a coordinator", "carl", "/aep accept 1 " + last, []string{"carl is not listed in owners", use}},
		{"an earlier merge", "olivia", "/aep accept 1 " + first, []string{"the candidate is " + last, use}},
		{"an unknown SHA", "olivia", "/aep accept 1 " + strings.Repeat("d", 40), []string{"the candidate is " + last, use}},
		{"an unknown milestone", "olivia", "/aep accept 7 " + last, []string{"milestone 7 is not an open milestone", "/aep accept <milestone-number> <sha>"}},
		{"a malformed line", "olivia", "/aep accept 1", []string{"accept takes exactly a milestone number", "/aep hold"}},
	}
	var answeredComments []*ghfake.Comment
	refuse := func(name string, c *ghfake.Comment, wants []string) {
		t.Helper()
		reactions, replies := w.AnswerOf(t, c)
		if strings.Join(reactions, ",") != "-1" || len(replies) != 1 {
			t.Fatalf("%s: reactions %v, %d replies; want -1 and one reply", name, reactions, len(replies))
		}
		for _, want := range wants {
			if !strings.Contains(replies[0], want) {
				t.Errorf("%s: the reply does not say %q:\n%s", name, want, replies[0])
			}
		}
		answeredComments = append(answeredComments, c)
	}
	for _, r := range refusals {
		st := w.F.Stats()
		c := w.Control.Comment(r.by, r.body)
		refuse(r.name, c, r.wants)
		w.CostSince(t, r.name+" (its delivery, all its work)", st)
	}
	w.Control.Comment("olivia", "/aep hold legal review")
	w.Quiet(t)
	refuse("under a HOLD", w.Control.Comment("olivia", "/aep accept 1 "+last), []string{"a HOLD applied", "legal review", use})
	w.Control.Comment("olivia", "/aep resume")
	w.Quiet(t)
	if _, ok := w.Complete(t, last); ok {
		t.Fatal("the increment completed on a refused acceptance")
	}
	st := w.F.Stats()
	ok := w.Control.Comment("olivia", "/aep accept 1 "+last)
	if reactions, replies := w.AnswerOf(t, ok); strings.Join(reactions, ",") != "+1" || len(replies) != 0 {
		t.Fatalf("the owner's acceptance: reactions %v, replies %v; want +1 and none", reactions, replies)
	}
	w.CostSince(t, "the owner's acceptance (its delivery, all its work)", st)
	if _, done := w.Complete(t, last); !done {
		t.Fatalf("the owner's acceptance did not complete the increment: %+v", w.Increment(t, last))
	}
	answeredComments = append(answeredComments, ok)
	refuse("an edited acceptance", w.EditedAccept(t, last), []string{"was edited after it was posted", "in a new comment", use})
	w.Redeliver(t, "issue_comment", "created")
	w.Sweep(t)
	for _, c := range answeredComments {
		if reactions, replies := w.AnswerOf(t, c); len(reactions) != 1 || len(replies) > 1 {
			t.Errorf("comment %d after a redelivery and the sweep: reactions %v, %d replies", c.ID(), reactions, len(replies))
		}
	}
	if n := w.LedgerRows(t, "answered"); n < len(answeredComments) {
		t.Errorf("%d answered rows, want at least %d", n, len(answeredComments))
	}
}

// TestIncrementAcceptRefusalsNegativeControls: each refusal above with
// the one rule that refuses it removed: the acceptance is then answered 👍
// and completes the increment, so each rule is shown to matter.
func TestIncrementAcceptRefusalsNegativeControls(t *testing.T) {
	tests := []struct {
		rule   string
		attack func(t *testing.T, w *appkit.IncrementWorld, first, last string) *ghfake.Comment
	}{
		{"listed-owner", func(t *testing.T, w *appkit.IncrementWorld, _, last string) *ghfake.Comment {
			return w.Control.Comment("carl", "/aep accept 1 "+last)
		}},
		{"bound-to-candidate", func(t *testing.T, w *appkit.IncrementWorld, first, _ string) *ghfake.Comment {
			return w.Control.Comment("olivia", "/aep accept 1 "+first)
		}},
		{"not-under-hold", func(t *testing.T, w *appkit.IncrementWorld, _, last string) *ghfake.Comment {
			w.Control.Comment("olivia", "/aep hold legal review")
			w.Quiet(t)
			return w.Control.Comment("olivia", "/aep accept 1 "+last)
		}},
		{"not-edited", func(t *testing.T, w *appkit.IncrementWorld, _, last string) *ghfake.Comment {
			return w.EditedAccept(t, last)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			w := newIncrementWorld(t, appkit.HighRisk, appkit.IncrementRulesWithout(tt.rule))
			first := w.Certified(t, 0)
			w.Certified(t, 1)
			last := w.Certified(t, 2)
			w.CandidateNamed(t, last)
			c := tt.attack(t, w, first, last)
			if reactions, replies := w.AnswerOf(t, c); strings.Join(reactions, ",") != "+1" || len(replies) != 0 {
				t.Errorf("without %s: reactions %v, replies %v; want the attack accepted", tt.rule, reactions, replies)
			}
			if _, done := w.Complete(t, last); !done {
				t.Errorf("without %s the attack should complete the increment: %+v", tt.rule, w.Increment(t, last))
			}
		})
	}
}
