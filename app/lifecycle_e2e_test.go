package app_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/certificate"
)

// TestUnitFromPullRequestToCertificate walks one medium-risk unit through
// the whole App with no seam: aepgate/merge blocks until the worker report,
// the audit and CI hold at the head; an owner's HOLD blocks it again; then
// the merge, the readback on main and the completion certificate, whose
// audited SHA and auditor come from the real audit review.
func TestUnitFromPullRequestToCertificate(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.LifecycleYAML, func(o *app.ReadbackSeams) { o.Audited = nil })
	w.Repo.Grant("carol", "write")
	w.Unit.Edit("alice", appkit.Contract("medium", "product"))
	head := w.PR.Commit("export", map[string]string{"export/export.go": appkit.AuditSource})
	merge := func() *ghfake.CheckRun { return w.Latest(w.PR.Head(), checks.NameMerge) }
	appkit.WaitFor(t, 10*time.Second, "aepgate/merge on the head", func() bool { return merge() != nil })
	if r := merge(); r.Conclusion != "failure" || !strings.Contains(r.Summary, "worker report") || !strings.Contains(r.Summary, `no run of workflow "ci"`) {
		t.Fatalf("merge before anything holds: %s\n%s", r.Conclusion, r.Summary)
	}
	// The worker report, CI at the head and an independent PASS.
	w.PR.Edit("bob", "Work-unit: #"+strconv.Itoa(w.Unit.Number())+"\n\n"+appkit.WorkerReport(w.Unit.Number(), w.PR.Number(), head))
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "ci", SHA: head, Branch: "work", Event: "pull_request"})
	w.PR.SubmitReview("carol", "COMMENTED", appkit.AuditBody(w.Unit.Number(), "PASS", appkit.GoodQuote))
	appkit.WaitFor(t, 10*time.Second, "ready to merge", func() bool { r := merge(); return r != nil && r.Conclusion == "success" })
	// A HOLD blocks the merge again until the owner resumes.
	w.Unit.Comment("olivia", "/aep hold one more look")
	appkit.WaitFor(t, 10*time.Second, "held", func() bool { return merge().Conclusion == "failure" })
	w.Unit.Comment("olivia", "/aep resume")
	appkit.WaitFor(t, 10*time.Second, "ready again", func() bool { return merge().Conclusion == "success" })

	sha := w.PR.Merge(ghfake.MergeCommit)
	w.WaitReadback(t, sha, "")
	w.MainCI(sha, "success")
	w.WaitReadback(t, sha, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(sha, checks.NameCertificate) != nil })
	cr := w.Latest(sha, checks.NameCertificate)
	raw, refused := checks.VerifyCertificateRun(checks.Run{Name: cr.Name, HeadSHA: cr.HeadSHA, ExternalID: cr.ExternalID,
		Status: checks.Status(cr.Status), Conclusion: checks.Conclusion(cr.Conclusion), Title: cr.Title, Summary: cr.Summary})
	if len(refused) > 0 {
		t.Fatalf("certificate run refused: %v", refused)
	}
	v := certificate.Validate(raw)
	if !v.Valid {
		t.Fatalf("certificate invalid: %v", v.Errors)
	}
	if c := v.Certificate; c["auditedSha"] != head || c["auditorSessionId"] != "carol" || c["mergeSha"] != sha {
		t.Errorf("certificate %s", raw)
	}
}
