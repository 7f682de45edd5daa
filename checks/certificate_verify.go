package checks

import (
	"bytes"
	"strings"

	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/refusal"
)

// The refusal tokens VerifyCertificateRun gives. The certificate's own
// content is judged by protocol/certificate, with craft-protocol's tokens.
const (
	// TokenCertificateSummary: the summary is not the layout CertificateRun
	// renders, so no certificate can be read from it.
	TokenCertificateSummary = "certificate-summary-invalid"
	// TokenCertificateSummarySum: the summary's header names another SHA-256
	// than its json block's.
	TokenCertificateSummarySum = "certificate-summary-hash-mismatch"
	// TokenCertificateNotCanonical: the json block is not canonical JSON.
	TokenCertificateNotCanonical = "certificate-not-canonical"
	// TokenCertificateTitle: the title does not carry the json block's SHA-256.
	TokenCertificateTitle = "certificate-title-mismatch"
	// TokenCertificateExternalID: the external_id does not carry the json
	// block's SHA-256.
	TokenCertificateExternalID = "certificate-external-id-mismatch"
	// TokenCertificateMergeSha: the certificate's mergeSha is not the commit
	// the run is attached to.
	TokenCertificateMergeSha = "certificate-merge-sha-mismatch"
	// TokenCertificateConclusion: the run is not completed with success.
	TokenCertificateConclusion = "certificate-run-not-success"
)

// certificateParts is what a certificate run's summary holds: its json
// block (nil when the summary is unreadable) and the SHA-256 its header
// names.
type certificateParts struct {
	body      []byte
	headerSum string
}

// certificateRule adds the refusals one aspect of a certificate run earns.
type certificateRule func(r Run, p certificateParts) []refusal.Refusal

// certificateRules returns every check VerifyCertificateRun makes. The
// negative-control test verifies with one removed to show that the
// tampering it stops then passes.
func certificateRules() []certificateRule {
	return []certificateRule{ruleCertificateConclusion, ruleCertificateCanonical, ruleCertificateSummarySum,
		ruleCertificateTitle, ruleCertificateExternalID, ruleCertificateMergeSha}
}

// VerifyCertificateRun reads a certificate check run as GitHub returned it
// and returns the canonical JSON it carries with every reason to refuse it:
// a summary that is not CertificateRun's layout, a json block that is not
// canonical JSON, a summary header, title or external_id not naming the
// block's SHA-256 as CertificateRun writes them, a mergeSha other than r.HeadSHA,
// or a run not completed with success. The bytes are returned only when
// the summary could be read. It does not validate the certificate itself
// (protocol/certificate does) nor who wrote the run (the caller must).
func VerifyCertificateRun(r Run) ([]byte, []refusal.Refusal) {
	return verifyCertificateRun(r, certificateRules())
}

// verifyCertificateRun is VerifyCertificateRun checking only rules.
func verifyCertificateRun(r Run, rules []certificateRule) ([]byte, []refusal.Refusal) {
	var out []refusal.Refusal
	var p certificateParts
	body, headerSum, err := parseCertificateSummary(r.Summary)
	if err != nil {
		out = append(out, refusal.Refusal{Token: TokenCertificateSummary,
			Expected: "the summary aepgate renders: its header, then one fenced json line closing it", Seen: err.Error()})
	} else {
		p = certificateParts{body: []byte(body), headerSum: headerSum}
	}
	for _, rule := range rules {
		out = append(out, rule(r, p)...)
	}
	return p.body, out
}

func ruleCertificateConclusion(r Run, _ certificateParts) []refusal.Refusal {
	if r.EffectiveStatus() == StatusCompleted && r.Conclusion == ConclusionSuccess {
		return nil
	}
	return []refusal.Refusal{{Token: TokenCertificateConclusion, Expected: "status completed, conclusion success",
		Seen: "status " + string(r.EffectiveStatus()) + ", conclusion " + orNone(string(r.Conclusion))}}
}

func ruleCertificateCanonical(_ Run, p certificateParts) []refusal.Refusal {
	body := p.body
	if body == nil {
		return nil
	}
	m, err := canonical.ParseObject(body, canonical.Options{RejectDuplicateKeys: true})
	if err == nil {
		again, merr := canonical.Marshal(m)
		if merr == nil && bytes.Equal(again, body) {
			return nil
		}
	}
	return []refusal.Refusal{{Token: TokenCertificateNotCanonical, Expected: "one JSON object in canonical form (sorted keys, no whitespace, ASCII only)",
		Seen: clip(string(body), 120)}}
}

func ruleCertificateSummarySum(_ Run, p certificateParts) []refusal.Refusal {
	if p.body == nil || p.headerSum == sha256Hex(string(p.body)) {
		return nil
	}
	return []refusal.Refusal{{Token: TokenCertificateSummarySum, Expected: "the summary's header naming SHA-256 " + sha256Hex(string(p.body)) + ", its json block's",
		Seen: clip(p.headerSum, 80)}}
}

func ruleCertificateTitle(r Run, p certificateParts) []refusal.Refusal {
	if p.body == nil || r.Title == CertificateTitle(sha256Hex(string(p.body))) {
		return nil
	}
	return []refusal.Refusal{{Token: TokenCertificateTitle, Expected: "title " + CertificateTitle(sha256Hex(string(p.body))), Seen: orNone(r.Title)}}
}

func ruleCertificateExternalID(r Run, p certificateParts) []refusal.Refusal {
	if p.body == nil || r.ExternalID == CertificateExternalID(sha256Hex(string(p.body))) {
		return nil
	}
	return []refusal.Refusal{{Token: TokenCertificateExternalID, Expected: "external_id " + CertificateExternalID(sha256Hex(string(p.body))), Seen: orNone(r.ExternalID)}}
}

func ruleCertificateMergeSha(r Run, p certificateParts) []refusal.Refusal {
	body := p.body
	m, err := canonical.ParseObject(body, canonical.Options{})
	if body == nil || err != nil {
		return nil
	}
	if s, ok := m["mergeSha"].(string); ok && s == r.HeadSHA {
		return nil
	}
	seen, _ := canonical.Marshal(m["mergeSha"])
	return []refusal.Refusal{{Token: TokenCertificateMergeSha, Expected: "mergeSha " + r.HeadSHA + ", the commit the check run is on", Seen: clip(string(seen), 120)}}
}

// orNone shows an empty value as "none".
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// clip cuts s to at most n bytes of valid UTF-8, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
