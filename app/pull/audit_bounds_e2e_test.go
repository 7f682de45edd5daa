package pull_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// TestAuditSecondFailOpensOwnerGate: after the first FAIL, one correction
// and one re-audit are allowed; a second FAIL at the corrected head opens
// the owner gate (human-product-judgment-action) instead of a third
// attempt: aepgate/audit and aepgate/gates wait for the owner. The control
// is the first FAIL alone, which leaves the executor to correct.
func TestAuditSecondFailOpensOwnerGate(t *testing.T) {
	a := appkit.NewAuditWorld(t, "medium")
	a.WaitAudit(t, "failure")
	a.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(a.Unit.Number(), "FAIL", appkit.GoodQuote))
	if r := a.WaitAudit(t, "failure"); strings.Contains(r.Title, "owner") {
		t.Fatalf("the first FAIL already went to the owner: %s", r.Title)
	}
	a.PR.Commit("correction", map[string]string{"export/export.go": appkit.AuditSource + "\n// corrected\n"})
	appkit.WaitFor(t, 10*time.Second, "the correction's audit run", func() bool { return a.Audit() != nil })
	second := `{"path": "export/export.go", "quote": "// corrected"}`
	body := strings.Replace(appkit.AuditBody(a.Unit.Number(), "FAIL", second), "errors are wrapped", "the correction is tested", 1)
	a.PR.SubmitReview("dave", "COMMENTED", body)
	r := a.WaitAudit(t, "action_required")
	if !strings.Contains(r.Title, "the owner decides instead of another attempt") || !strings.Contains(r.Summary, "failed at 2 commits") {
		t.Errorf("aepgate/audit = %q\n%s", r.Title, r.Summary)
	}
	gates := func() string { return appkit.ConclusionOf(a.Repo, a.PR.Head(), checks.NameGates) }
	appkit.WaitFor(t, 10*time.Second, "the owner gate", func() bool { return gates() == "action_required" })
}
