package app_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v62/github"

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
		decide func(g *gatesWorld) *ghfake.Comment
		// tamper is what mallory does to it, through the REST API.
		tamper func(t *testing.T, g *gatesWorld, c *ghfake.Comment)
		change string
	}{
		{"owner's HOLD edited with its body unchanged", func(g *gatesWorld) *ghfake.Comment {
			return g.unit.Comment("olivia", "/aep hold waiting for legal")
		}, editAs("mallory", "/aep hold waiting for legal"), "edited"},
		{"owner's HOLD edited away", func(g *gatesWorld) *ghfake.Comment {
			return g.unit.Comment("olivia", "/aep hold waiting for legal")
		}, editAs("mallory", "LGTM"), "edited"},
		{"owner's HOLD deleted", func(g *gatesWorld) *ghfake.Comment {
			return g.pr.Comment("olivia", "/aep hold waiting for legal")
		}, deleteAs("mallory"), "deleted"},
		{"coordinator's irreversible merge gate deleted", func(g *gatesWorld) *ghfake.Comment {
			return g.pr.Comment("cody", gateBlock)
		}, deleteAs("mallory"), "deleted"},
		{"project HOLD on the control issue deleted", func(g *gatesWorld) *ghfake.Comment {
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
				g := newGatesWorldOpts(t, edit)
				c := tt.decide(g)
				g.waitGates(t, "action_required")
				g.Quiet(t)
				tt.tamper(t, g, c)
				g.settle(t)
				r := g.gates()
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
				if n := g.ledgerRows(t, "tampering"); n != 1 {
					t.Errorf("%d tampering rows in the ledger, want 1", n)
				}
				if !g.boardInboxShows(t, `"kind":"tampering"`, "by mallory") {
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
	g := newGatesWorld(t)
	c := g.unit.Comment("olivia", "/aep hold waiting for legal")
	g.waitGates(t, "action_required")
	deleteAs("mallory")(t, g, c)
	g.pr.Comment("mallory", "/aep resume")
	g.settle(t)
	if r := g.gates(); r.Conclusion != "action_required" {
		t.Fatalf("a writer lifted the kept HOLD: %s", r.Conclusion)
	}
	g.unit.Comment("olivia", "/aep resume")
	g.waitGates(t, "success")
}

// editAs edits the comment through the REST API as login, a writer.
func editAs(login, body string) func(t *testing.T, g *gatesWorld, c *ghfake.Comment) {
	return func(t *testing.T, g *gatesWorld, c *ghfake.Comment) {
		t.Helper()
		gc := g.F.Client(g.F.UserToken(login))
		if _, _, err := gc.Issues.EditComment(context.Background(), "acme", "widgets", c.ID(), &github.IssueComment{Body: github.String(body)}); err != nil {
			t.Fatal(err)
		}
	}
}

// deleteAs deletes the comment through the REST API as login, a writer.
func deleteAs(login string) func(t *testing.T, g *gatesWorld, c *ghfake.Comment) {
	return func(t *testing.T, g *gatesWorld, c *ghfake.Comment) {
		t.Helper()
		gc := g.F.Client(g.F.UserToken(login))
		resp, err := gc.Issues.DeleteComment(context.Background(), "acme", "widgets", c.ID())
		if err != nil || resp.StatusCode != http.StatusNoContent {
			t.Fatalf("delete comment: %v", err)
		}
	}
}

// ledgerRows counts the ledger's rows of kind.
func (g *gatesWorld) ledgerRows(t *testing.T, kind string) int {
	t.Helper()
	var n int
	if err := g.App.Store().SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM aepgate_ledger WHERE kind = ?`, kind).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// boardInboxShows reports whether a board fact of the repository holds
// every one of wants (the facts the board's inbox is built from).
func (g *gatesWorld) boardInboxShows(t *testing.T, wants ...string) bool {
	t.Helper()
	facts, err := g.App.Store().BoardFacts(context.Background(), "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range facts {
		if !slices.ContainsFunc(wants, func(w string) bool { return !strings.Contains(string(f), w) }) {
			return true
		}
	}
	return false
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
	g := newGatesWorld(t)
	g.F.CollectWebhooks(appkit.Secret, g.GHApp)
	before := len(g.F.Deliveries())
	c := g.unit.Comment("olivia", "/aep hold waiting for legal")
	editAs("mallory", "never mind")(t, g, c)
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
	g.waitGates(t, "action_required")
	g.Quiet(t)
	if r := g.gates(); !strings.Contains(r.Summary, "edited by `mallory`") {
		t.Errorf("the early edit is not shown as tampering:\n%s", r.Summary)
	}
	if !restartSees(t, g.App) {
		t.Error("the HOLD judged from its delivery was not kept")
	}
}
