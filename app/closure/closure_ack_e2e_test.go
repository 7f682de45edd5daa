package closure_test

import (
	"slices"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// TestCloseCommandAcknowledged: every `/aep close` is answered once, as
// the other owner commands are: the owner's gets 👍 (and releases the
// dependent); a coordinator's, one edited into being, and the owner's
// under a HOLD get 👎 and one reply saying why. Redelivering the comments
// answers nothing twice. Negative controls: with the listed-owner rule
// removed the coordinator's is accepted; with HoldVoids off the owner's
// under HOLD is.
func TestCloseCommandAcknowledged(t *testing.T) {
	w := newClosureWorld(t, appkit.ClosureConfig, nil)
	w.API.Close("carl")
	w.WaitUnit(t, "failure", "closed without evidence by carl")
	carl := w.API.Comment("carl", "/aep close the API shipped with #1")
	w.WaitAnswered(t, carl.ID(), "-1", "`carl`: carl is not listed in owners (olivia)")
	edited := w.API.Comment("olivia", "draft")
	w.Quiet(t)
	edited.Edit("olivia", "/aep close edited in")
	w.WaitAnswered(t, edited.ID(), "-1", "counts only as a newly created comment")
	own := w.API.Comment("olivia", "/aep close the API shipped with the reports release")
	w.WaitAnswered(t, own.ID(), "+1", "")
	w.WaitUnit(t, "success", "")
	w.Redeliver(t, "issue_comment", "created")
	w.Quiet(t)
	for _, id := range []int64{carl.ID(), edited.ID(), own.ID()} {
		if r, replies := w.CloseAnswer(id); len(r) != 1 || len(replies) > 1 {
			t.Errorf("after a redelivery comment %d has reactions %v and %d replies", id, r, len(replies))
		}
	}

	t.Run("negative control: without listed-owner", func(t *testing.T) {
		r := closurerules.DefaultRules()
		r.Authority = slices.DeleteFunc(r.Authority, func(a closurerules.AuthorityRule) bool { return a.Name == "listed-owner" })
		w := newClosureWorld(t, appkit.ClosureConfig, &r)
		carl := w.API.Comment("carl", "/aep close the API shipped with #1")
		w.WaitAnswered(t, carl.ID(), "+1", "")
	})
}

// TestCloseCommandUnderHold: the owner's `/aep close` while her project
// HOLD stands is refused saying so, once. Negative control: with
// HoldVoids off it counts.
func TestCloseCommandUnderHold(t *testing.T) {
	for _, c := range []struct {
		name  string
		voids bool
		want  string
		why   string
	}{
		{"HOLD refuses it", true, "-1", "a HOLD applies (release freeze)"},
		{"negative control: HoldVoids off", false, "+1", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newHeldClosureWorld(t, c.voids)
			own := w.API.Comment("olivia", "/aep close shipped out of band")
			w.WaitAnswered(t, own.ID(), c.want, c.why)
		})
	}
}
