package app_test

import (
	"net/http"
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
		play      func(t *testing.T, g *gatesWorld) *ghfake.Comment
		reactions []string
		replies   int
	}{
		{"an old comment edited into /aep resume", func(t *testing.T, g *gatesWorld) *ghfake.Comment {
			c := g.pr.Comment("olivia", "Thanks, looking at it.")
			g.Quiet(t) // judged as posted: nothing to answer
			editAs("mallory", "/aep resume")(t, g, c)
			g.Quiet(t)
			return c
		}, []string{"-1"}, 1},
		{"edited before its created delivery is judged", func(t *testing.T, g *gatesWorld) *ghfake.Comment {
			return g.editedFirst(t, func(ds []ghfake.Delivery) []ghfake.Delivery { return ds })
		}, []string{"-1"}, 1},
		{"the edited delivery judged before the created one", func(t *testing.T, g *gatesWorld) *ghfake.Comment {
			return g.editedFirst(t, func(ds []ghfake.Delivery) []ghfake.Delivery { return []ghfake.Delivery{ds[1], ds[0]} })
		}, []string{"-1"}, 1},
		{"an answered HOLD edited into /aep resume", func(t *testing.T, g *gatesWorld) *ghfake.Comment {
			c := g.pr.Comment("olivia", "/aep hold waiting for legal")
			g.waitReaction(t, c.ID())
			editAs("mallory", "/aep resume")(t, g, c)
			g.Quiet(t)
			return c
		}, []string{"+1"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := newGatesWorld(t)
			c := tt.play(t, g)
			if diff := cmp.Diff(tt.reactions, g.reactions(t, c.ID())); diff != "" {
				t.Errorf("reactions (-want +got):\n%s", diff)
			}
			if got := len(g.replies(t, g.pr.Number(), c.ID())); got != tt.replies {
				t.Errorf("%d replies, want %d", got, tt.replies)
			}
			// One judgement of the request: the created delivery's witness
			// shows the comment as posted (no request) when it comes second.
			if n := g.commandRows(t, c.ID()); n != 1 {
				t.Errorf("%d command rows in the ledger, want 1", n)
			}
		})
	}
}

// editedFirst has olivia post a comment that mallory edits into
// '/aep resume' before the App hears of either, then sends the two
// deliveries (created, edited) in the order order gives, each judged
// before the next is sent.
func (g *gatesWorld) editedFirst(t *testing.T, order func([]ghfake.Delivery) []ghfake.Delivery) *ghfake.Comment {
	t.Helper()
	g.F.CollectWebhooks(appkit.Secret, g.GHApp)
	before := len(g.F.Deliveries())
	c := g.pr.Comment("olivia", "Thanks, looking at it.")
	editAs("mallory", "/aep resume")(t, g, c)
	held := g.F.Deliveries()[before:]
	if len(held) != 2 {
		t.Fatalf("%d deliveries for a comment and its edit, want 2", len(held))
	}
	g.F.SendWebhooks(g.Base+"/webhook", appkit.Secret, g.GHApp)
	for _, d := range order(held) {
		req, err := d.Request(g.Base + "/webhook")
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("delivery %s (%s.%s) answered %d", d.GUID, d.Event, d.Action, resp.StatusCode)
		}
		g.Quiet(t)
	}
	return c
}

// TestControlCommentEditedIntoCommandAnswered: on the control issue too,
// a comment edited into a command counts for nothing and is told so once
// (a 👎 and one reply), and the HOLD it now reads holds nothing. Before,
// the edit was dropped as mattering to no decision and never answered.
func TestControlCommentEditedIntoCommandAnswered(t *testing.T) {
	g := newGatesWorld(t)
	ctl := g.Repo.OpenIssue("olivia", "aepgate control", "", ghfake.WithLabels(gh.ControlLabel))
	c := ctl.Comment("olivia", "Notes for the week.")
	g.Quiet(t)
	editAs("mallory", "/aep hold stop everything")(t, g, c)
	g.Quiet(t)
	if diff := cmp.Diff([]string{"-1"}, g.reactions(t, c.ID())); diff != "" {
		t.Errorf("reactions (-want +got):\n%s", diff)
	}
	if got := len(g.replies(t, ctl.Number(), c.ID())); got != 1 {
		t.Errorf("%d replies on the control issue, want 1", got)
	}
	if n := g.commandRows(t, c.ID()); n != 1 {
		t.Errorf("%d command rows in the ledger, want 1", n)
	}
	g.waitGates(t, "success")
}
