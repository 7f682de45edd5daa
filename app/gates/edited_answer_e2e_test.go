package gates_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestCommentEditedIntoCommandAnsweredOnce: a comment edited into a
// command is refused (edited comments count for nothing) and told so once,
// with a 👎 and one reply, whichever of its created and edited deliveries
// the App judges first; a command already answered and then edited is not
// answered again. Before, the edited delivery answered nothing: the first
// case got no answer at all (until a sweep), and the others depended on
// which job ran first.
func TestCommentEditedIntoCommandAnsweredOnce(t *testing.T) {
	tests := []struct {
		name string
		// play posts and edits the comment and returns it once the App
		// judged both deliveries.
		play      func(t *testing.T, g *appkit.GatesWorld) *ghfake.Comment
		reactions []string
		replies   int
	}{
		{"an old comment edited into /aep resume", func(t *testing.T, g *appkit.GatesWorld) *ghfake.Comment {
			c := g.PR.Comment("olivia", "Thanks, looking at it.")
			g.Quiet(t) // judged as posted: nothing to answer
			appkit.EditAs("mallory", "/aep resume")(t, g, c)
			g.Quiet(t)
			return c
		}, []string{"-1"}, 1},
		{"edited before its created delivery is judged", func(t *testing.T, g *appkit.GatesWorld) *ghfake.Comment {
			return g.EditedFirst(t, func(ds []ghfake.Delivery) []ghfake.Delivery { return ds })
		}, []string{"-1"}, 1},
		{"the edited delivery judged before the created one", func(t *testing.T, g *appkit.GatesWorld) *ghfake.Comment {
			return g.EditedFirst(t, func(ds []ghfake.Delivery) []ghfake.Delivery { return []ghfake.Delivery{ds[1], ds[0]} })
		}, []string{"-1"}, 1},
		{"an answered HOLD edited into /aep resume", func(t *testing.T, g *appkit.GatesWorld) *ghfake.Comment {
			c := g.PR.Comment("olivia", "/aep hold waiting for legal")
			g.WaitReaction(t, c.ID())
			appkit.EditAs("mallory", "/aep resume")(t, g, c)
			g.Quiet(t)
			return c
		}, []string{"+1"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := appkit.NewGatesWorld(t)
			c := tt.play(t, g)
			if diff := cmp.Diff(tt.reactions, g.Reactions(t, c.ID())); diff != "" {
				t.Errorf("reactions (-want +got):\n%s", diff)
			}
			if got := len(g.Replies(t, g.PR.Number(), c.ID())); got != tt.replies {
				t.Errorf("%d replies, want %d", got, tt.replies)
			}
			// One judgement of the request: the created delivery's witness
			// shows the comment as posted (no request) when it comes second.
			if n := g.CommandRows(t, c.ID()); n != 1 {
				t.Errorf("%d command rows in the ledger, want 1", n)
			}
		})
	}
}

// TestControlCommentEditedIntoCommandAnswered: on the control issue too,
// a comment edited into a command counts for nothing and is told so once
// (a 👎 and one reply), and the HOLD it now reads holds nothing. Before,
// the edit was dropped as mattering to no decision and never answered.
func TestControlCommentEditedIntoCommandAnswered(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	ctl := g.Repo.OpenIssue("olivia", "aepgate control", "", ghfake.WithLabels(gh.ControlLabel))
	c := ctl.Comment("olivia", "Notes for the week.")
	g.Quiet(t)
	appkit.EditAs("mallory", "/aep hold stop everything")(t, g, c)
	g.Quiet(t)
	if diff := cmp.Diff([]string{"-1"}, g.Reactions(t, c.ID())); diff != "" {
		t.Errorf("reactions (-want +got):\n%s", diff)
	}
	if got := len(g.Replies(t, ctl.Number(), c.ID())); got != 1 {
		t.Errorf("%d replies on the control issue, want 1", got)
	}
	if n := g.CommandRows(t, c.ID()); n != 1 {
		t.Errorf("%d command rows in the ledger, want 1", n)
	}
	g.WaitGates(t, "success")
}
