package app

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/readback"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// CertifiedLabel marks a work unit's issue once its completion certificate
// is on the merge SHA. The App never closes the issue: that is the owner's.
const CertifiedLabel = gh.CertifiedLabel

// act shows a readback decision: the certificate first decides its note,
// then aepgate/readback is written unless it already says the same, each
// decision with its ledger row before it is acted on. A success already
// shown is never taken back; the certificate is still completed.
func (rb *readbacker) act(ctx context.Context, in readbackInput, m *gh.MergedPull, j judgement) error {
	existing := gh.Latest(m.MergeRuns, checks.NameReadback)
	shown := existing != nil && existing.Conclusion == string(checks.ConclusionSuccess)
	var cert *issued
	if j.view.State == checks.ReadbackVerified {
		cert = rb.draft(in, m, j)
		j.view.Notes = []string{cert.note()}
	}
	if !shown {
		run := checks.Readback(j.view)
		write := existing == nil || !checks.Unchanged(*existing, run)
		body := map[string]any{"conclusion": run.Conclusion, "status": run.EffectiveStatus(), "title": run.Title, "write": write,
			"audited_sha": j.audit.SHA, "reasons": j.result.Reasons, "awaited": j.view.Awaited,
			"pr_ci_runs": runIDs(j.result.RequiredCiRuns), "readback_runs": runIDs(j.result.MergedMainRuns)}
		if err := rb.record(ctx, in, m, checks.NameReadback, body); err != nil {
			return err
		}
		if err := rb.publish(ctx, in, run, existing); err != nil {
			return err
		}
	}
	if cert == nil {
		return nil
	}
	return rb.certify(ctx, in, m, cert)
}

// issued is a certificate drawn from a verified readback: its canonical
// JSON and fingerprint when it validates, else the refusal tokens.
type issued struct {
	unit      int
	canonical []byte
	sum       string
	refused   []string
}

func (c *issued) note() string {
	if len(c.refused) > 0 {
		return "No completion certificate: " + strings.Join(c.refused, ", ") + "."
	}
	return "Completion certificate: `" + checks.NameCertificate + "` on this commit, sha256 `" + c.sum + "`."
}

// draft builds the completion certificate from what readback observed and
// the audit record, and validates it with protocol/certificate.
func (rb *readbacker) draft(in readbackInput, m *gh.MergedPull, j judgement) *issued {
	refs := workunit.ParseRefs(m.Body, in.owner+"/"+in.repo)
	if len(refs) != 1 || refs[0].Repo != "" {
		return &issued{refused: []string{"work-unit-not-single"}}
	}
	c := certificate.Certificate{SchemaVersion: certificate.SchemaVersion, Project: in.repo, Repository: in.owner + "/" + in.repo,
		PullRequest: m.Number, WorkUnit: strconv.Itoa(refs[0].Number), CandidateSha: m.HeadSHA, AuditedSha: j.audit.SHA,
		AuditorSessionID: j.audit.Auditor, AuditReviewID: j.audit.ReviewID, AuditVerdict: j.audit.Verdict,
		UnresolvedGates: unresolvedGates(m)}
	j.result.Fill(&c, m.MergeSHA)
	raw, err := c.Canonical()
	if err != nil {
		return &issued{refused: []string{"certificate-unencodable"}}
	}
	if v := certificate.Validate(raw); !v.Valid {
		return &issued{unit: refs[0].Number, refused: v.Errors}
	}
	return &issued{unit: refs[0].Number, canonical: raw, sum: certificate.FileFingerprint(raw)}
}

// unresolvedGates is what the App's own aepgate/gates said at the merged
// head: nothing when it concluded success, else the check itself.
func unresolvedGates(m *gh.MergedPull) []string {
	g := gh.Latest(m.HeadRuns, checks.NameGates)
	if g != nil && g.Conclusion == string(checks.ConclusionSuccess) {
		return nil
	}
	seen := "no run"
	if g != nil {
		seen = g.Conclusion + ": " + g.Title
	}
	return []string{fmt.Sprintf("%s at %s (%s)", checks.NameGates, m.HeadSHA, seen)}
}

// certify labels the unit's issue and posts aepgate/certificate, once: a
// certificate already on the merge SHA is never replaced. The label comes
// first, so a crash between the two leaves the certificate to the next
// evaluation (adding a label twice changes nothing).
func (rb *readbacker) certify(ctx context.Context, in readbackInput, m *gh.MergedPull, c *issued) error {
	existing := gh.Latest(m.MergeRuns, checks.NameCertificate)
	body := map[string]any{"issued": len(c.refused) == 0, "reasons": c.refused, "unit": c.unit, "sha256": c.sum, "write": existing == nil && len(c.refused) == 0}
	if existing != nil {
		body["existing_external_id"] = existing.ExternalID
	}
	if err := rb.record(ctx, in, m, checks.NameCertificate, body); err != nil {
		return err
	}
	if existing != nil || len(c.refused) > 0 {
		return nil
	}
	if err := rb.label.AddLabel(ctx, in.owner, in.repo, c.unit, CertifiedLabel); err != nil {
		return err
	}
	return rb.publish(ctx, in, checks.CertificateRun(m.MergeSHA, c.canonical, c.sum), nil)
}

func runIDs(runs []readback.Run) []int64 {
	out := []int64{}
	for _, r := range runs {
		out = append(out, r.ID)
	}
	return out
}
