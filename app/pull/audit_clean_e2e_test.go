package pull_test

import (
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// TestAuditPassMustBeClean: a PASS carrying a new finding (here medium,
// which no severity rule blocks) or an open evidence request fails
// aepgate/audit as an invalid review, naming them; a clean PASS by the
// same auditor at the same head then passes it. The rule's negative
// control (the PASS accepted without it) is review's
// TestPassIsCleanInEvaluate.
func TestAuditPassMustBeClean(t *testing.T) {
	medium := `"findings": [{"id": "F3", "severity": "medium", "requirement": "errors are wrapped", "evidence": [` + appkit.GoodQuote + `], "remedy": "wrap the error"}]`
	tests := []struct {
		name, old, new, want string
	}{
		{"a new medium finding", `"findings": []`, medium,
			"$.verdict: a PASS carries 1 new finding F3 (medium): a clean verdict has none; make the verdict FAIL or NEEDS_EVIDENCE, or leave them out once settled"},
		{"an open evidence request", `"evidence_requests": []`, `"evidence_requests": ["the CI log of the run"]`,
			`$.verdict: a PASS carries 1 open evidence request $.evidence_requests[0] ("the CI log of the run"): a clean verdict has none`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := appkit.NewAuditWorld(t, "medium")
			a.WaitAudit(t, "failure")
			clean := appkit.AuditBody(a.Unit.Number(), "PASS", appkit.GoodQuote)
			body := strings.Replace(clean, tt.old, tt.new, 1)
			if body == clean {
				t.Fatalf("the review body does not hold %s", tt.old)
			}
			a.PR.SubmitReview("carol", "COMMENTED", body)
			r := a.WaitAuditMentions(t, "a PASS carries")
			if r.Conclusion != "failure" || !strings.Contains(r.Title, "Audit review is invalid") || !strings.Contains(r.Summary, tt.want) {
				t.Fatalf("aepgate/audit: %s %q, want failure, invalid, saying %q:\n%s", r.Conclusion, r.Title, tt.want, r.Summary)
			}
			a.PR.SubmitReview("carol", "COMMENTED", clean)
			appkit.WaitFor(t, 10*time.Second, "the clean PASS judged", func() bool { return a.Audit().Conclusion == "success" })
		})
	}
}
