package readback

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/merge"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// CertifiedLabel marks a work unit's issue once its completion certificate
// is on the merge SHA. The App never closes the issue: that is the owner's.
const CertifiedLabel = gh.CertifiedLabel

// act shows a readback decision: the certificate first decides its note,
// then aepgate/readback is written unless it already says the same, each
// decision with its ledger row before it is acted on. A success already
// shown is never taken back, only its note brought up to date (a
// certificate withheld for want of merge authority, then issued); the
// certificate is still completed.
func (j *Judge) act(ctx context.Context, in Input, m *gh.MergedPull, d judgement) error {
	existing := gh.Latest(m.MergeRuns, checks.NameReadback)
	shown := existing != nil && existing.Conclusion == string(checks.ConclusionSuccess)
	var cert *issued
	if d.view.State == checks.ReadbackVerified {
		cert = j.draft(in, m, d)
		d.view.Notes = append(d.view.Notes, cert.note())
	}
	run := checks.Readback(d.view)
	if !shown || (cert != nil && !checks.Unchanged(*existing, run)) {
		write := existing == nil || !checks.Unchanged(*existing, run)
		body := map[string]any{"conclusion": run.Conclusion, "status": run.EffectiveStatus(), "title": run.Title, "write": write,
			"audited_sha": d.audit.SHA, "reasons": d.result.Reasons, "awaited": d.view.Awaited,
			"pr_ci_runs": runIDs(d.result.RequiredCiRuns), "readback_runs": runIDs(d.result.MergedMainRuns)}
		if err := j.record(ctx, in, m, checks.NameReadback, body); err != nil {
			return err
		}
		if err := j.publish(ctx, in, run, existing); err != nil {
			return err
		}
	}
	if cert == nil {
		return nil
	}
	return j.certify(ctx, in, m, d, cert)
}

// issued is a certificate drawn from a verified readback: its canonical
// JSON and fingerprint when it validates, else the refusal tokens.
type issued struct {
	unit      int
	canonical []byte
	sum       string
	refused   []string
	// why explains a refusal beyond its tokens (who merged without merge
	// authority and how an owner accepts it).
	why string
	// authority is what the certificate records of who merged.
	authority *certificate.MergeAuthority
	// coverage is the verified readback's coverage (judgement.Coverage;
	// nil when it observed none).
	coverage *ObservedCoverage
}

func (c *issued) note() string {
	if len(c.refused) > 0 {
		return "No completion certificate: " + strings.Join(c.refused, ", ") + "." + c.why
	}
	return "Completion certificate: `" + checks.NameCertificate + "` on this commit, sha256 `" + c.sum + "`."
}

// draft builds the completion certificate from what readback observed and
// the audit record, and validates it with protocol/certificate.
func (j *Judge) draft(in Input, m *gh.MergedPull, d judgement) *issued {
	unit, ok := workunit.SoleUnit(m.Body, in.Owner+"/"+in.Repo)
	if !ok {
		return &issued{refused: []string{"work-unit-not-single"}}
	}
	c := certificate.Certificate{SchemaVersion: certificate.SchemaVersion, Project: in.Repo, Repository: in.Owner + "/" + in.Repo,
		PullRequest: m.Number, WorkUnit: strconv.Itoa(unit), CandidateSha: m.HeadSHA, AuditedSha: d.audit.SHA,
		AuditorSessionID: d.audit.Auditor, AuditReviewID: d.audit.ReviewID, AuditVerdict: d.audit.Verdict,
		UnresolvedGates: unresolvedGates(m), MergeAuthority: recorded(d.auth), Independence: d.audit.Independence}
	if !d.auth.Held && d.auth.Refusal != nil {
		return &issued{unit: unit, refused: []string{d.auth.Refusal.Token}, why: " Merged by " + mergerOf(d.auth) + ", who holds no merge authority: expected " + d.auth.Refusal.Expected + "."}
	}
	if d.retro.Owed {
		return &issued{unit: unit, refused: []string{merge.TokenRetroAuditOwed}, why: " The head merged under an override (" + strings.Join(d.retro.Overridden, "; ") +
			"), so the merge owes a retro-audit: expected an independent audit PASS at the merged commit " + m.HeadSHA + ", or an owner's `/aep waive <reason>` on #" + strconv.Itoa(m.Number) + "."}
	}
	d.result.Fill(&c, m.MergeSHA)
	raw, err := c.Canonical()
	if err != nil {
		return &issued{refused: []string{"certificate-unencodable"}}
	}
	if v := certificate.Validate(raw); !v.Valid {
		return &issued{unit: unit, refused: v.Errors}
	}
	return &issued{unit: unit, canonical: raw, sum: certificate.FileFingerprint(raw), authority: c.MergeAuthority, coverage: d.Coverage}
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

// certify labels the unit's issue (and answers the owner's accept-merge
// that released it) and posts aepgate/certificate, once, signed with the
// standard statements beside it when a key is set (statements.go): a certificate
// already on the merge SHA is never replaced. The label comes first, so a crash between the two leaves the certificate to the next
// evaluation (adding a label twice changes nothing).
func (j *Judge) certify(ctx context.Context, in Input, m *gh.MergedPull, d judgement, c *issued) error {
	existing := gh.Latest(m.MergeRuns, checks.NameCertificate)
	body := map[string]any{"issued": len(c.refused) == 0, "reasons": c.refused, "unit": c.unit, "sha256": c.sum, "write": existing == nil && len(c.refused) == 0}
	if j.After.Signer != nil {
		body["signed_by"] = j.After.Signer.KeyID()
	}
	if existing != nil {
		body["existing_external_id"] = existing.ExternalID
	}
	if c.authority != nil {
		body["merge_authority"] = c.authority
	}
	issue := existing == nil && len(c.refused) == 0
	var run checks.Run
	var bundles [][]byte
	if issue {
		var err error
		if run, bundles, err = j.withStatements(ctx, in, m, d, c, body); err != nil {
			return err
		}
	}
	if err := j.record(ctx, in, m, checks.NameCertificate, body); err != nil {
		return err
	}
	if issue {
		if err := j.GitHub.Label.AddLabel(ctx, in.Owner, in.Repo, c.unit, CertifiedLabel); err != nil {
			return err
		}
		if err := j.answerAcceptance(ctx, in, c); err != nil {
			return err
		}
		if err := j.publish(ctx, in, run, nil); err != nil {
			return err
		}
		for _, b := range bundles {
			j.upload(ctx, in, m, b)
		}
	}
	return j.evidence(ctx, in, m, c, d)
}

// evidence hands what the App wrote for the merged attempt to Evidence
// (the unit's closure is judged on it): its verified readback, whether its
// head passed aepgate/merge, and the certificate's fingerprint when one is
// on the merge SHA.
func (j *Judge) evidence(ctx context.Context, in Input, m *gh.MergedPull, c *issued, d judgement) error {
	if j.After.Evidence == nil || c.unit <= 0 {
		return nil
	}
	merge := gh.Latest(m.HeadRuns, checks.NameMerge)
	a := closurerules.Attempt{PR: m.Number, MergeSHA: m.MergeSHA, ReadbackPassed: true,
		MergePassed: merge != nil && merge.Conclusion == string(checks.ConclusionSuccess), Overridden: d.retro.Overridden, RetroAudit: d.retro.Evidence}
	if len(c.refused) == 0 {
		a.CertificateSHA256 = c.sum
	}
	return j.After.Evidence(ctx, in.Owner, in.Repo, c.unit, a)
}

// signed renders the certificate run: with Signer set, the certificate is
// also signed as an in-toto statement about the merge commit and the DSSE
// envelope goes into the run's text; bundle is its Sigstore bundle for
// GitHub's attestations API (nil when unsigned). A signing failure is an
// error: a configured key that cannot sign is never skipped silently.
func (j *Judge) signed(in Input, m *gh.MergedPull, c *issued) (checks.Run, []byte, error) {
	if j.After.Signer == nil {
		return checks.CertificateRun(m.MergeSHA, c.canonical, c.sum), nil, nil
	}
	env, err := attest.SignCertificate(j.After.Signer, attest.Unit, in.Owner+"/"+in.Repo, c.canonical)
	if err != nil {
		return checks.Run{}, nil, fmt.Errorf("sign certificate of %s/%s@%s: %w", in.Owner, in.Repo, m.MergeSHA, err)
	}
	raw, err := json.Marshal(env)
	if err != nil {
		return checks.Run{}, nil, fmt.Errorf("sign certificate: %w", err)
	}
	bundle, err := json.Marshal(attest.NewBundle(env))
	if err != nil {
		return checks.Run{}, nil, fmt.Errorf("sign certificate: %w", err)
	}
	return checks.SignedCertificateRun(m.MergeSHA, c.canonical, c.sum, raw, j.After.Signer.KeyID()), bundle, nil
}

// upload stores a signed bundle (the certificate's, a statement's) through GitHub's
// attestations API where the repository allows it. It is best effort: the
// envelope is already on the check run, so a refusal (no attestations:write
// permission, a plan without attestations) or an error is logged and the
// certificate stands.
func (j *Judge) upload(ctx context.Context, in Input, m *gh.MergedPull, bundle []byte) {
	if bundle == nil || j.GitHub.Attest == nil {
		return
	}
	id, err := j.GitHub.Attest.CreateAttestation(ctx, in.Owner, in.Repo, bundle)
	if err != nil {
		j.Log.Warn("attestation not uploaded; the signed envelope is on the certificate check run", "merge_sha", m.MergeSHA, "err", err)
		return
	}
	j.Log.Info("attestation uploaded", "merge_sha", m.MergeSHA, "attestation_id", id)
}

func runIDs(runs []readbackrules.Run) []int64 {
	out := []int64{}
	for _, r := range runs {
		out = append(out, r.ID)
	}
	return out
}
