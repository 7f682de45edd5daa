package app_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	aclosure "github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/closure"
)

// closeAnswer is how the App answered comment id: its reactions and its
// replies (those starting with the close reply marker).
func (w *closureWorld) closeAnswer(id int64) (reactions []string, replies []string) {
	for _, c := range w.api.Comments() {
		if c.ID == id {
			reactions = c.Reactions
		}
		if strings.HasPrefix(c.Body, aclosure.ReplyMarker(id)) {
			replies = append(replies, c.Body)
		}
	}
	return reactions, replies
}

// waitAnswered waits for comment id's reaction want ("+1" or "-1") and
// then checks it got exactly one, and one reply holding why (none when
// why is empty).
func (w *closureWorld) waitAnswered(t *testing.T, id int64, want, why string) {
	t.Helper()
	appkit.WaitFor(t, 10*time.Second, "the answer to comment "+want, func() bool {
		r, _ := w.closeAnswer(id)
		return slices.Contains(r, want)
	})
	w.Quiet(t)
	r, replies := w.closeAnswer(id)
	if len(r) != 1 {
		t.Errorf("comment %d: reactions %v, want one %s", id, r, want)
	}
	switch {
	case why == "" && len(replies) != 0:
		t.Errorf("comment %d: an accepted command got replies: %q", id, replies)
	case why != "" && (len(replies) != 1 || !strings.Contains(replies[0], why)):
		t.Errorf("comment %d: replies %q, want one holding %q", id, replies, why)
	}
}

// TestCloseCommandAcknowledged: every `/aep close` is answered once, as
// the other owner commands are: the owner's gets 👍 (and releases the
// dependent); a coordinator's, one edited into being, and the owner's
// under a HOLD get 👎 and one reply saying why. Redelivering the comments
// answers nothing twice. Negative controls: with the listed-owner rule
// removed the coordinator's is accepted; with HoldVoids off the owner's
// under HOLD is.
func TestCloseCommandAcknowledged(t *testing.T) {
	w := newClosureWorld(t, closureConfig, nil)
	w.api.Close("carl")
	w.waitUnit(t, "failure", "closed without evidence by carl")
	carl := w.api.Comment("carl", "/aep close the API shipped with #1")
	w.waitAnswered(t, carl.ID(), "-1", "`carl`: carl is not listed in owners (olivia)")
	edited := w.api.Comment("olivia", "draft")
	w.Quiet(t)
	edited.Edit("olivia", "/aep close edited in")
	w.waitAnswered(t, edited.ID(), "-1", "counts only as a newly created comment")
	own := w.api.Comment("olivia", "/aep close the API shipped with the reports release")
	w.waitAnswered(t, own.ID(), "+1", "")
	w.waitUnit(t, "success", "")
	w.Redeliver(t, "issue_comment", "created")
	w.Quiet(t)
	for _, id := range []int64{carl.ID(), edited.ID(), own.ID()} {
		if r, replies := w.closeAnswer(id); len(r) != 1 || len(replies) > 1 {
			t.Errorf("after a redelivery comment %d has reactions %v and %d replies", id, r, len(replies))
		}
	}

	t.Run("negative control: without listed-owner", func(t *testing.T) {
		r := closure.DefaultRules()
		r.Authority = slices.DeleteFunc(r.Authority, func(a closure.AuthorityRule) bool { return a.Name == "listed-owner" })
		w := newClosureWorld(t, closureConfig, &r)
		carl := w.api.Comment("carl", "/aep close the API shipped with #1")
		w.waitAnswered(t, carl.ID(), "+1", "")
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
			own := w.api.Comment("olivia", "/aep close shipped out of band")
			w.waitAnswered(t, own.ID(), c.want, c.why)
		})
	}
}
