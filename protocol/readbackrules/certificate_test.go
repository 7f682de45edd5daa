package readbackrules

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/certificate"
)

func TestFillCertificate(t *testing.T) {
	c := certificate.Certificate{SchemaVersion: 1, Project: "demo", Repository: "octo/demo", PullRequest: 4, WorkUnit: "7",
		CandidateSha: audited, AuditedSha: audited, AuditorSessionID: "auditor", AuditReviewID: 5, AuditVerdict: "PASS"}
	Decide(good()).Fill(&c, merged)
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	if got := certificate.Validate(raw); !got.Valid {
		t.Errorf("certificate from a verified readback is invalid: %v", got.Errors)
	}
	if diff := cmp.Diff([]string{"21", "22"}, c.MergedMainRunIds); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	in := good()
	in.MainRuns[0].Conclusion = "failure"
	bad := c
	Decide(in).Fill(&bad, merged)
	raw, _ = bad.Canonical()
	if diff := cmp.Diff([]string{"merged-main-not-green"}, certificate.Validate(raw).Errors); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
