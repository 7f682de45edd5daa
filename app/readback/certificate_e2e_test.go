package readback_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/certificate"
)

// TestReadbackCertificateLifecycle: merged → readback waits for ci on main
// → the main run completes → readback succeeds → the certificate is posted
// and valid, and the unit's issue is labelled, not closed.
func TestReadbackCertificateLifecycle(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, nil)
	merge := w.PR.Merge(ghfake.MergeCommit)
	waiting := w.WaitReadback(t, merge, "")
	if !strings.Contains(waiting.Title, "Waiting for ci on main") {
		t.Errorf("waiting title %q", waiting.Title)
	}
	main := w.MainCI(merge, "success")
	done := w.WaitReadback(t, merge, "success")
	if !strings.Contains(done.Summary, "ci "+strconv.FormatInt(main.ID(), 10)) || !strings.Contains(done.Summary, "ci "+strconv.FormatInt(w.CIID, 10)) {
		t.Errorf("readback summary lacks the run IDs:\n%s", done.Summary)
	}
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
	cr := w.Latest(merge, checks.NameCertificate)
	run := checks.Run{Name: cr.Name, HeadSHA: cr.HeadSHA, ExternalID: cr.ExternalID, Status: checks.Status(cr.Status),
		Conclusion: checks.Conclusion(cr.Conclusion), Title: cr.Title, Summary: cr.Summary}
	raw, refused := checks.VerifyCertificateRun(run)
	if len(refused) > 0 {
		t.Fatalf("certificate run refused: %v", refused)
	}
	v := certificate.Validate(raw)
	if !v.Valid {
		t.Fatalf("certificate invalid: %v", v.Errors)
	}
	c := v.Certificate
	if c["mergeSha"] != merge || c["auditedSha"] != w.PR.Head() || c["workUnit"] != strconv.Itoa(w.Unit.Number()) || c["auditorSessionId"] != "carol" {
		t.Errorf("certificate %s", raw)
	}
	if !strings.Contains(done.Summary, certificate.FileFingerprint(raw)) {
		t.Errorf("readback summary does not name the certificate:\n%s", done.Summary)
	}
	appkit.WaitFor(t, 5*time.Second, "label", func() bool { return slices.Contains(w.Labels(t), readback.CertifiedLabel) })
	var rows int
	if err := w.App.Store().SQL.QueryRowContext(context.Background(), `SELECT COUNT(*) FROM aepgate_ledger WHERE kind = 'check_run:aepgate/readback'`).Scan(&rows); err != nil || rows < 2 {
		t.Errorf("%d readback ledger rows (%v), want one per decision (≥ 2)", rows, err)
	}
}

// TestReadbackNoAuditNoCertificate: a low-risk unit needs no audit, so
// readback succeeds and no certificate is issued: protocol/certificate
// requires a PASS.
func TestReadbackNoAuditNoCertificate(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, func(o *app.ReadbackSeams) { o.Audited = nil })
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(merge, "success")
	done := w.WaitReadback(t, merge, "success")
	if !strings.Contains(done.Summary, "No completion certificate: ") || !strings.Contains(done.Summary, "audit-not-pass") {
		t.Errorf("summary does not say why no certificate:\n%s", done.Summary)
	}
	w.Quiet(t)
	if n := w.Count(merge, checks.NameCertificate); n != 0 || slices.Contains(w.Labels(t), readback.CertifiedLabel) {
		t.Errorf("%d certificates without an audit", n)
	}
}

// TestReadbackSquashOfUpToDateHead: a squash merge of a head that
// contains its base has the head's tree, so readback verifies it.
func TestReadbackSquashOfUpToDateHead(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, nil)
	merge := w.PR.Merge(ghfake.Squash)
	w.MainCI(merge, "success")
	w.WaitReadback(t, merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
}

// TestReadbackEventsTwiceAndOutOfOrder: every delivery of the story,
// delivered in reverse order and then again, leaves one readback and one
// certificate, and the second pass writes nothing.
func TestReadbackEventsTwiceAndOutOfOrder(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, nil)
	w.Quiet(t)
	w.F.CollectWebhooks(appkit.Secret, w.GHApp)
	before := len(w.F.Deliveries())
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(merge, "success")
	ds := w.F.Deliveries()[before:]
	pass := func(round string) {
		for i := len(ds) - 1; i >= 0; i-- {
			if got := appkit.Deliver(t, w.Base, ds[i].Event, round+"-"+ds[i].GUID, ds[i].Payload); got != 202 && got != 200 {
				t.Fatalf("delivery %s: %d", ds[i].Event, got)
			}
		}
	}
	pass("first")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
	w.Quiet(t) // the first pass's jobs are done before the log is reset
	first := w.Repo.CheckRuns(merge)
	w.F.ResetLog()
	pass("second")
	w.Quiet(t)
	for _, wr := range w.F.Writes() {
		if strings.Contains(wr.Pattern, "check-runs") || strings.Contains(wr.Pattern, "labels") {
			t.Errorf("second pass wrote: %s %s", wr.Method, wr.Path)
		}
	}
	if n, m := w.Count(merge, checks.NameReadback), w.Count(merge, checks.NameCertificate); n != 1 || m != 1 {
		t.Errorf("%d readback and %d certificate runs, want 1 each", n, m)
	}
	if got := w.Repo.CheckRuns(merge); len(got) != len(first) {
		t.Errorf("check runs on the merge went from %d to %d", len(first), len(got))
	}
}

// TestReadbackAPICallsPerWorkflowRun reports what one workflow_run
// delivery costs: while waiting, when nothing changed, and once final.
func TestReadbackAPICallsPerWorkflowRun(t *testing.T) {
	w := appkit.NewReadbackWorld(t, "version: 1\nowners: [olivia]\nrequired_workflows:\n  readback: [ci, lint]\n", nil)
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "lint", SHA: w.PR.Head(), Branch: "work", Event: "pull_request"})
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.WaitReadback(t, merge, "")
	time.Sleep(300 * time.Millisecond)
	cost := func(what string, maxReads, wantWrites int) {
		t.Helper()
		time.Sleep(500 * time.Millisecond)
		w.Quiet(t)
		reads, writes := appkit.APICalls(w.F.Stats())
		t.Logf("%s: %d reads, %d writes %v", what, reads, writes, w.F.Stats().ByRoute)
		if reads > maxReads || (wantWrites >= 0 && writes != wantWrites) {
			t.Errorf("%s cost %d reads and %d writes (want ≤ %d and %d)", what, reads, writes, maxReads, wantWrites)
		}
	}
	w.Quiet(t) // coalesced judgements of the step before are done
	w.F.ResetLog()
	w.Repo.CompleteWorkflowRun(ghfake.RunOptions{Name: "lint", SHA: merge, Branch: "main", Event: "push"})
	appkit.WaitFor(t, 10*time.Second, "waiting for ci only", func() bool { return strings.HasPrefix(w.Latest(merge, checks.NameReadback).Title, "Waiting for ci ") })
	cost("a workflow_run that changes what is awaited", 3, 1)
	w.Quiet(t) // coalesced judgements of the step before are done
	w.F.ResetLog()
	w.Redeliver(t, "workflow_run", "completed")
	cost("the same workflow_run again", 2, 0)
	w.MainCI(merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
	time.Sleep(300 * time.Millisecond)
	w.Quiet(t) // coalesced judgements of the step before are done
	w.F.ResetLog()
	w.Redeliver(t, "workflow_run", "completed")
	cost("a workflow_run once readback is final", 1, 0)
}
