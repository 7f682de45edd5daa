package gates_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// forgetful is the negative control of kept decisions: a store that keeps
// nothing, which is how the App judged before (a stateless replay).
type forgetful struct{ app.Keeper }

func (forgetful) Keep(context.Context, store.Kept, store.Entry, time.Time) (bool, error) {
	return true, nil
}
func (forgetful) KeptDecisions(context.Context, string) ([]store.Kept, error) { return nil, nil }
func (forgetful) LedgerTamper(context.Context, string, bool, int64, string, store.Entry, time.Time) (bool, error) {
	return false, nil
}
func (forgetful) MarkTampered(context.Context, string, int64, string, string, time.Time) (bool, error) {
	return false, nil
}

// tamperings are the attacks of a writer who is neither owner nor
// coordinator on an accepted decision's source: each runs with the kept
// store (the decision must stay in force, shown as tampering) and with the
// forgetful one (the attack must work, or the test could not fail).
func TestKeptDecisionSurvivesTampering(t *testing.T) {
	gateBlock := "```aep-gate\nid: drop-column\nquestion: Drop the legacy column?\nchoices: [approve, reject]\ncategory: irreversible-destructive\neffect: irreversible-data-change\nscope: merge\n```\n"
	tests := []struct {
		name string
		// decide posts the decision and returns the comment to tamper with.
		decide func(g *appkit.GatesWorld) *ghfake.Comment
		// tamper is what mallory does to it, through the REST API.
		tamper func(t *testing.T, g *appkit.GatesWorld, c *ghfake.Comment)
		change string
	}{
		{"owner's HOLD edited with its body unchanged", func(g *appkit.GatesWorld) *ghfake.Comment {
			return g.Unit.Comment("olivia", "/aep hold waiting for legal")
		}, appkit.EditAs("mallory", "/aep hold waiting for legal"), "edited"},
		{"owner's HOLD edited away", func(g *appkit.GatesWorld) *ghfake.Comment {
			return g.Unit.Comment("olivia", "/aep hold waiting for legal")
		}, appkit.EditAs("mallory", "LGTM"), "edited"},
		{"owner's HOLD deleted", func(g *appkit.GatesWorld) *ghfake.Comment {
			return g.PR.Comment("olivia", "/aep hold waiting for legal")
		}, deleteAs("mallory"), "deleted"},
		{"coordinator's irreversible merge gate deleted", func(g *appkit.GatesWorld) *ghfake.Comment {
			return g.PR.Comment("cody", gateBlock)
		}, deleteAs("mallory"), "deleted"},
		{"project HOLD on the control issue deleted", func(g *appkit.GatesWorld) *ghfake.Comment {
			ctl := g.Repo.OpenIssue("olivia", "control", "", ghfake.WithLabels("aepgate:control"))
			return ctl.Comment("olivia", "/aep hold release freeze")
		}, deleteAs("mallory"), "deleted"},
	}
	for _, tt := range tests {
		for _, control := range []bool{false, true} {
			name := tt.name
			if control {
				name += " (negative control: nothing kept)"
			}
			t.Run(name, func(t *testing.T) {
				var edit func(*app.Options)
				if control {
					edit = func(o *app.Options) { o.Seams.Keeper = func(app.Keeper) app.Keeper { return forgetful{} } }
				}
				g := appkit.NewGatesWorldOpts(t, edit)
				c := tt.decide(g)
				g.WaitGates(t, "action_required")
				g.Quiet(t)
				tt.tamper(t, g, c)
				g.Settle(t)
				r := g.Gates()
				if control {
					if r.Conclusion != "success" {
						t.Fatalf("with nothing kept the attack did not lift the decision (%s), so keeping is not what stops it", r.Conclusion)
					}
					return
				}
				if r.Conclusion != "action_required" {
					t.Fatalf("mallory's %s lifted the decision: aepgate/gates is %s\n%s", tt.change, r.Conclusion, r.Summary)
				}
				for _, want := range []string{"### Tampering", tt.change + " by `mallory`"} {
					if !strings.Contains(r.Summary, want) {
						t.Errorf("aepgate/gates does not show the tampering (%q):\n%s", want, r.Summary)
					}
				}
				if n := g.LedgerRows(t, "tampering"); n != 1 {
					t.Errorf("%d tampering rows in the ledger, want 1", n)
				}
				if !g.BoardInboxShows(t, `"kind":"tampering"`, "by mallory") {
					t.Error("the board's inbox does not list the tampering")
				}
				if !restartSees(t, g.App) {
					t.Error("a new App on the same database does not see the kept decision")
				}
			})
		}
	}
}

// TestKeptDecisionLiftedOnlyByTheOwner: the tampered HOLD stays until the
// owner's fresh RESUME, which lifts it.
func TestKeptDecisionLiftedOnlyByTheOwner(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	c := g.Unit.Comment("olivia", "/aep hold waiting for legal")
	g.WaitGates(t, "action_required")
	deleteAs("mallory")(t, g, c)
	g.PR.Comment("mallory", "/aep resume")
	g.Settle(t)
	if r := g.Gates(); r.Conclusion != "action_required" {
		t.Fatalf("a writer lifted the kept HOLD: %s", r.Conclusion)
	}
	g.Unit.Comment("olivia", "/aep resume")
	g.WaitGates(t, "success")
}

// deleteAs deletes the comment through the REST API as login, a writer.
func deleteAs(login string) func(t *testing.T, g *appkit.GatesWorld, c *ghfake.Comment) {
	return func(t *testing.T, g *appkit.GatesWorld, c *ghfake.Comment) {
		t.Helper()
		gc := g.F.Client(g.F.UserToken(login))
		resp, err := gc.Issues.DeleteComment(context.Background(), "acme", "widgets", c.ID())
		if err != nil || resp.StatusCode != http.StatusNoContent {
			t.Fatalf("delete comment: %v", err)
		}
	}
}

// restartSees reports whether the App's database, read as a new replica
// would, holds a kept decision.
func restartSees(t *testing.T, a *app.App) bool {
	t.Helper()
	ks, err := a.Store().KeptDecisions(context.Background(), "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	return len(ks) > 0
}

// TestHoldEditedBeforeItWasJudged: mallory edits the owner's HOLD away
// before the App heard of it; the signed issue_comment.created delivery
// carries the HOLD as it was created, so it is judged as posted, kept and
// shown as tampering. (The rule's negative control, the same replay without
// the witness, is TestWitnessedBeforeFirstJudgement in protocol/gatelog.)
func TestHoldEditedBeforeItWasJudged(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	g.F.CollectWebhooks(appkit.Secret, g.GHApp)
	before := len(g.F.Deliveries())
	c := g.Unit.Comment("olivia", "/aep hold waiting for legal")
	appkit.EditAs("mallory", "never mind")(t, g, c)
	held := g.F.Deliveries()[before:]
	g.F.SendWebhooks(g.Base+"/webhook", appkit.Secret, g.GHApp)
	for _, d := range held {
		req, err := d.Request(g.Base + "/webhook")
		if err != nil {
			t.Fatal(err)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	g.WaitGates(t, "action_required")
	g.Quiet(t)
	if r := g.Gates(); !strings.Contains(r.Summary, "edited by `mallory`") {
		t.Errorf("the early edit is not shown as tampering:\n%s", r.Summary)
	}
	if !restartSees(t, g.App) {
		t.Error("the HOLD judged from its delivery was not kept")
	}
}
