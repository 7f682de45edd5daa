package readback_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// retroWorld is a readback world whose audit of the merged head is missing
// until audited is set (the auditor's retro-audit PASS at the merged head);
// olivia overrode aepgate/merge on the head, merged it, main's ci passed,
// and she closed the unit's issue.
func retroWorld(t *testing.T, rules *closurerules.Rules) (*appkit.ReadbackWorld, *atomic.Bool, string) {
	t.Helper()
	audited := &atomic.Bool{}
	audit := func(ctx context.Context, owner, repo string, m *gh.MergedPull) (readback.Audit, error) {
		if audited.Load() {
			return appkit.PassAudit(ctx, owner, repo, m)
		}
		return readback.Audit{}, nil
	}
	w := appkit.NewReadbackWorldWith(t, appkit.ReadbackYAML, func(o *app.ReadbackSeams) { o.Audited = audit }, func(o *app.Options) {
		if rules != nil {
			o.Seams.ClosureRules = rules
		}
	})
	head := w.PR.Head()
	c := w.PR.Comment("olivia", "/aep override aepgate/merge the audit service is down and this fixes production")
	appkit.WaitFor(t, 10*time.Second, "aepgate/merge overridden", func() bool {
		r := w.Latest(head, checks.NameMerge)
		return r != nil && r.Conclusion == "success" && strings.HasPrefix(r.Title, "overridden by olivia: ")
	})
	w.Quiet(t)
	if got, _ := w.Repo.CommentByID(c.ID()); len(got.Reactions) != 1 || got.Reactions[0] != "+1" {
		t.Fatalf("reactions on the override %v, want [+1]", got.Reactions)
	}
	sha, err := w.PR.MergeBy("olivia", ghfake.MergeCommit)
	if err != nil {
		t.Fatal(err)
	}
	w.MainCI(sha, "success")
	w.Unit.Close("olivia")
	w.Quiet(t)
	return w, audited, sha
}

// unitClosure is the unit's closure verdict as the App judges it from what
// it keeps (its stored facts and the evidence of its attempts).
func unitClosure(t *testing.T, w *appkit.ReadbackWorld, rules closurerules.Rules) closurerules.Verdict {
	t.Helper()
	ctx := context.Background()
	rows, err := w.App.Store().Closures(ctx, "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := w.App.Store().UnitEvidence(ctx, "acme/widgets")
	if err != nil {
		t.Fatal(err)
	}
	f, err := verdict.ClosureFacts(rows[w.Unit.Number()], ev[w.Unit.Number()])
	if err != nil {
		t.Fatal(err)
	}
	return closurerules.Judge(f, rules)
}

// boardText is the board as its JSON.
func boardText(b boardview.Board) string {
	raw, _ := json.Marshal(b)
	return string(raw)
}

// TestOverriddenMergeOwesRetroAudit: a merge whose aepgate/merge olivia
// overrode gets no certificate and its unit is not done (though the owner
// closed it) until the auditor's PASS at the merged head; the ledger
// records the override, the debt and its settlement, and the board lists
// what the merge owes. The negative control drops the closure rule: the
// owner's closure then counts the unit done while it owes its audit.
func TestOverriddenMergeOwesRetroAudit(t *testing.T) {
	w, audited, sha := retroWorld(t, nil)
	if n := w.Count(sha, checks.NameCertificate); n != 0 {
		t.Fatalf("%d certificates on an overridden merge whose retro-audit is owed", n)
	}
	v := unitClosure(t, w, closurerules.DefaultRules())
	if v.State != closurerules.RetroOwed || !strings.Contains(v.Missing, "owes a retro-audit") {
		t.Fatalf("closure %s (%s), want %s", v.State, v.Missing, closurerules.RetroOwed)
	}
	if got := boardText(w.KeptBoard(t)); !strings.Contains(got, "retro-audit") || !strings.Contains(got, "waive") {
		t.Errorf("the board does not list what the overridden merge owes:\n%s", got)
	}
	if n := appkit.LedgerRows(t, w.App, "retro_audit"); n != 1 {
		t.Errorf("%d retro_audit ledger rows, want 1 (owed)", n)
	}
	audited.Store(true)
	w.Sweep(t)
	w.Quiet(t)
	w.CertificateOn(t, sha)
	if v := unitClosure(t, w, closurerules.DefaultRules()); v.State != closurerules.Done {
		t.Errorf("after the retro-audit PASS the unit is %s (%s), want done", v.State, v.Missing)
	}
	if n := appkit.LedgerRows(t, w.App, "retro_audit"); n != 2 {
		t.Errorf("%d retro_audit ledger rows, want 2 (owed, settled)", n)
	}
}

// TestRetroAuditNegativeControl: without the retro-audit closure rule the
// owner's closure counts the overridden unit done, nothing audited.
func TestRetroAuditNegativeControl(t *testing.T) {
	rules := closurerules.DefaultRules()
	rules.RetroAudit = false
	w, _, _ := retroWorld(t, &rules)
	if v := unitClosure(t, w, rules); v.State != closurerules.Done {
		t.Fatalf("without the rule the overridden unit is %s, want done (else the rule is not what stops it)", v.State)
	}
}

// TestRetroAuditWaived: the owner's waiver settles the debt (a writer's
// does not): the unit counts as done, with no certificate (nothing was
// audited), the waiver gets 👍 and the ledger records who waived and why.
func TestRetroAuditWaived(t *testing.T) {
	w, _, sha := retroWorld(t, nil)
	w.Repo.Grant("mallory", "write")
	bad := w.PR.Comment("mallory", "/aep waive nobody needs to audit this one")
	w.Quiet(t)
	if v := unitClosure(t, w, closurerules.DefaultRules()); v.State != closurerules.RetroOwed {
		t.Fatalf("a writer's waiver settled the retro-audit: %s", v.State)
	}
	c := w.PR.Comment("olivia", "/aep waive the change was reverted the next day in #99")
	appkit.WaitFor(t, 10*time.Second, "the waiver counted", func() bool {
		return unitClosure(t, w, closurerules.DefaultRules()).State == closurerules.Done
	})
	w.Quiet(t)
	if got, _ := w.Repo.CommentByID(c.ID()); len(got.Reactions) != 1 || got.Reactions[0] != "+1" {
		t.Errorf("reactions on the waiver %v, want [+1]", got.Reactions)
	}
	if got, _ := w.Repo.CommentByID(bad.ID()); len(got.Reactions) != 0 {
		t.Errorf("reactions on the writer's waiver %v, want none", got.Reactions)
	}
	if n := w.Count(sha, checks.NameCertificate); n != 0 {
		t.Errorf("%d certificates on a merge nobody audited", n)
	}
	if n := appkit.LedgerRows(t, w.App, "retro_audit"); n != 2 {
		t.Errorf("%d retro_audit ledger rows, want 2 (owed, waived)", n)
	}
}
