package gates_test

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// mergeGate is cody's irreversible gate on the unit's merge, which holds
// aepgate/gates at action_required until olivia answers it.
const mergeGate = "```aep-gate\nid: drop-column\nquestion: Drop the legacy column?\nchoices: [approve, reject]\ncategory: irreversible-destructive\neffect: irreversible-data-change\nscope: merge\n```\n"

const overrideGates = "/aep override aepgate/gates production is down and the column is already gone"

// blockedGates is a gates world whose aepgate/gates is held by an open
// merge gate.
func blockedGates(t *testing.T, rules []gatelog.Rule, keeper func(app.Keeper) app.Keeper) *appkit.GatesWorld {
	t.Helper()
	g := appkit.NewGatesWorldOpts(t, func(o *app.Options) {
		o.Seams.GateRules = rules
		if keeper != nil {
			o.Seams.Keeper = keeper
		}
	})
	g.PR.Comment("cody", mergeGate)
	g.WaitGates(t, "action_required")
	return g
}

// TestOverrideCheck: olivia's override makes aepgate/gates succeed at the
// head, titled with her name and reason, and the ledger and kept store hold
// it; a new push ends it.
func TestOverrideCheck(t *testing.T) {
	g := blockedGates(t, nil, nil)
	c := g.PR.Comment("olivia", overrideGates)
	if got := g.WaitReaction(t, c.ID()); len(got) != 1 || got[0] != "+1" {
		t.Fatalf("reactions = %v, want [+1]", got)
	}
	r := g.WaitGates(t, "success")
	if want := "overridden by olivia: production is down and the column is already gone"; r.Title != want {
		t.Errorf("title = %q, want %q", r.Title, want)
	}
	for _, want := range []string{"**Overridden.**", "retro-audit", "Judged alone, this check concludes **action_required**"} {
		if !strings.Contains(r.Summary, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.Summary)
		}
	}
	if !restartSees(t, g.App) || g.LedgerRows(t, "kept_decision") < 2 {
		t.Error("the override is not kept with its ledger row")
	}
	if !ledgerHolds(t, g, "kept_decision", `"check":"aepgate/gates"`) || !ledgerHolds(t, g, "kept_decision", `"head_sha":"`+g.PR.Head()+`"`) {
		t.Error("the override's kept_decision row does not record the check and the head")
	}
	if !ledgerHolds(t, g, "check_run:aepgate/gates", `"overridden_by":"olivia"`) {
		t.Error("the gates check's ledger row does not record the override")
	}
	g.PR.Commit("more work", map[string]string{"more.go": "package x\n"})
	g.WaitGates(t, "action_required")
	g.Quiet(t)
	if r := g.Gates(); strings.Contains(r.Title, "overridden") {
		t.Errorf("a new push left the override in force: %q", r.Title)
	}
}

// TestOverrideOwnerOnly: a coordinator's override and a writer's are
// refused with a reply, and aepgate/gates stays blocked. The negative
// control drops the owner-decides rule: the coordinator's override then
// opens the check.
func TestOverrideOwnerOnly(t *testing.T) {
	for _, tc := range []struct {
		name, who string
		rules     []gatelog.Rule
		want      string
	}{
		{"coordinator refused", "cody", nil, "action_required"},
		{"writer refused", "mallory", nil, "action_required"},
		{"negative control: without owner-decides", "cody", appkit.WithoutGateRule("owner-decides"), "success"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := blockedGates(t, tc.rules, nil)
			c := g.PR.Comment(tc.who, overrideGates)
			got := g.WaitReaction(t, c.ID())
			g.Settle(t)
			if r := g.Gates(); r.Conclusion != tc.want {
				t.Fatalf("aepgate/gates = %s %q, want %s", r.Conclusion, r.Title, tc.want)
			}
			if tc.rules != nil {
				return
			}
			if len(got) != 1 || got[0] != "-1" {
				t.Errorf("reactions = %v, want [-1]", got)
			}
			if rs := g.Replies(t, g.PR.Number(), c.ID()); len(rs) != 1 || !strings.Contains(rs[0], "only an owner") && !strings.Contains(rs[0], "permission") {
				t.Errorf("replies = %q, want one refusal", rs)
			}
		})
	}
}

// TestOverrideEditCannotWiden: after olivia's override of aepgate/gates is
// kept, mallory edits it to name aepgate/merge; the edit widens nothing
// (aepgate/merge stays failing) and cancels the override (a grant). The
// negative control keeps nothing and counts edited comments: the edit then
// overrides aepgate/merge.
func TestOverrideEditCannotWiden(t *testing.T) {
	for _, control := range []bool{false, true} {
		name := "kept"
		var rules []gatelog.Rule
		var keeper func(app.Keeper) app.Keeper
		if control {
			name, rules = "negative control: nothing kept, edits counted", appkit.WithoutGateRule("not-edited")
			keeper = func(app.Keeper) app.Keeper { return forgetful{} }
		}
		t.Run(name, func(t *testing.T) {
			g := blockedGates(t, rules, keeper)
			c := g.PR.Comment("olivia", overrideGates)
			g.WaitGates(t, "success")
			g.Quiet(t)
			appkit.EditAs("mallory", "/aep override aepgate/merge production is down and the column is already gone")(t, g, c)
			g.Settle(t)
			merge := appkit.NewestRunOn(g.Repo, g.PR.Head(), "aepgate/merge")
			widened := merge != nil && merge.Conclusion == "success"
			if control {
				if !widened {
					t.Fatalf("without the kept copy the edit did not widen the override (aepgate/merge %s), so keeping is not what stops it", merge.Conclusion)
				}
				return
			}
			if widened {
				t.Fatalf("the edit widened the override: aepgate/merge is %s %q", merge.Conclusion, merge.Title)
			}
			if r := g.Gates(); r.Conclusion != "action_required" || !strings.Contains(r.Summary, "edited by `mallory`") {
				t.Errorf("aepgate/gates = %s %q, want the override cancelled and the tampering shown:\n%s", r.Conclusion, r.Title, r.Summary)
			}
		})
	}
}

// TestOverrideNeverLiftsHold: under a HOLD, an override of aepgate/gates is
// refused (only resume lifts it), and "/aep override hold …" and an
// override of the readback are refused by their grammar, each with a reply.
func TestOverrideNeverLiftsHold(t *testing.T) {
	g := appkit.NewGatesWorld(t)
	g.Unit.Comment("olivia", "/aep hold waiting for legal")
	g.WaitGates(t, "action_required")
	for _, tc := range []struct{ body, why string }{
		{overrideGates, "only `resume` lifts it"},
		{"/aep override hold the release is late anyway", "lifted only by `resume`"},
		{"/aep override aepgate/readback main is fine trust me", "the readback is what main showed"},
	} {
		c := g.PR.Comment("olivia", tc.body)
		if got := g.WaitReaction(t, c.ID()); len(got) != 1 || got[0] != "-1" {
			t.Errorf("%q: reactions = %v, want [-1]", tc.body, got)
		}
		if rs := g.Replies(t, g.PR.Number(), c.ID()); len(rs) != 1 || !strings.Contains(rs[0], tc.why) {
			t.Errorf("%q: replies = %q, want one saying %q", tc.body, rs, tc.why)
		}
	}
	g.Settle(t)
	if r := g.Gates(); r.Conclusion != "action_required" {
		t.Fatalf("an override lifted the HOLD: aepgate/gates is %s %q", r.Conclusion, r.Title)
	}
}

// ledgerHolds reports whether a ledger row of kind holds want.
func ledgerHolds(t *testing.T, g *appkit.GatesWorld, kind, want string) bool {
	t.Helper()
	rows, err := g.App.Store().SQL.Query(`SELECT body FROM aepgate_ledger WHERE kind = ?`, kind)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var body string
		if err := rows.Scan(&body); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(body, want) {
			return true
		}
	}
	return false
}
