package increment_test

import (
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// deployIncrementYAML requires a complete increment for production.
const deployIncrementYAML = appkit.IncrementYAML + "deploy:\n  environments:\n    production:\n      require: increment\n"

// TestIncrementMovedCandidateWithdrawsCertificate: once a complete
// increment's integrated candidate moves — a story merged again, a later
// commit an owner names, a story added — its certificate at the old
// candidate is updated in place (same check run) to neutral naming the new
// candidate, and a production deployment requiring a complete increment
// of the old SHA is rejected; the sweep afterwards writes nothing to it.
// The negative control drops candidate-moved: the old certificate keeps
// approving and the old SHA deploys.
func TestIncrementMovedCandidateWithdrawsCertificate(t *testing.T) {
	tests := []struct {
		name, rule string
		move       func(t *testing.T, w *appkit.IncrementWorld, old string) string // returns the new candidate ("" when none)
	}{
		{"a story merged again", "", remerge},
		{"a later commit named by the owner", "", namedLater},
		{"a story added", "", storyAdded},
		{"negative control: a story merged again", "candidate-moved", remerge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var rules *incrementrules.Rules
			if tt.rule != "" {
				rules = appkit.IncrementRulesWithout(tt.rule)
			}
			w := newIncrementWorldOn(t, deployIncrementYAML, "", rules)
			old := w.CertifiedAll(t)
			before := w.CertificateRun(t, old)
			if before == nil || before.Conclusion != "success" {
				t.Fatalf("no certificate on the candidate: %+v", w.Increment(t, old))
			}
			reads0, writes0 := appkit.APICalls(w.F.Stats())
			next := tt.move(t, w, old)
			w.Quiet(t)
			reads, writes := appkit.APICalls(w.F.Stats())
			t.Logf("moving the candidate (the move's deliveries, all their work): %d reads, %d writes", reads-reads0, writes-writes0)
			after := w.CertificateRun(t, old)
			if after == nil || after.ID != before.ID {
				t.Fatalf("the certificate run on %s is gone or another: before %d, after %+v", old, before.ID, after)
			}
			got := w.DeployState(t, old)
			if tt.rule != "" {
				if after.Conclusion != "success" || got.State != "approved" {
					t.Errorf("negative control: without the withdrawal the old SHA should deploy: %s, deployment %s (%s)", after.Conclusion, got.State, got.Comment)
				}
				return
			}
			wantName := "has no integrated candidate now"
			if next != "" {
				wantName = gitsha.Short(next)
			}
			if after.Conclusion != "neutral" || !strings.Contains(after.Title+after.Summary, wantName) {
				t.Errorf("the old certificate: %s %q, want neutral naming %q:\n%s", after.Conclusion, after.Title, wantName, after.Summary)
			}
			if got.State != "rejected" {
				t.Errorf("a deployment of the withdrawn candidate %s: %s (%s), want rejected", old, got.State, got.Comment)
			}
			w.Sweep(t)
			if again := w.CertificateRun(t, old); again.Summary != after.Summary || again.Conclusion != after.Conclusion {
				t.Errorf("the sweep changed the withdrawn certificate: %+v", again)
			}
			if n := w.LedgerRows(t, "increment_withdrawn"); n != 1 {
				t.Errorf("%d withdrawals in the ledger after the sweep, want 1", n)
			}
		})
	}
}

// remerge merges story 3 again and reads it back: the new merge is the
// candidate.
func remerge(t *testing.T, w *appkit.IncrementWorld, _ string) string {
	later := w.Merge(t, 2)
	w.Readback(t, later)
	return later
}

// namedLater commits to main after the candidate and has the owner name
// that commit in an acceptance: it becomes the candidate.
func namedLater(t *testing.T, w *appkit.IncrementWorld, _ string) string {
	later := w.Repo.Commit("main", "docs", map[string]string{"NOTES.md": "later\n"})
	w.Quiet(t)
	w.Control.Comment("olivia", "/aep accept 1 "+later)
	return later
}

// storyAdded opens a fourth story in the milestone: the increment is
// building again, with no candidate.
func storyAdded(t *testing.T, w *appkit.IncrementWorld, _ string) string {
	w.Repo.OpenIssue("olivia", "Story 4", appkit.Contract("low", "product"), ghfake.InMilestone(w.MS))
	return ""
}
