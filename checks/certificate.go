package checks

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// CertificateExternalIDPrefix starts a certificate run's external_id; the
// lowercase hex SHA-256 of the canonical JSON follows it.
const CertificateExternalIDPrefix = "sha256:"

// certificateHeading opens every certificate summary.
const certificateHeading = "## aepgate completion certificate\n\n"

// CertificateTitle is the title of the certificate run whose canonical JSON
// has the lowercase hex SHA-256 sum.
func CertificateTitle(sum string) string { return "completion certificate sha256:" + sum }

// CertificateExternalID is the external_id of the certificate run whose
// canonical JSON has the lowercase hex SHA-256 sum.
func CertificateExternalID(sum string) string { return CertificateExternalIDPrefix + sum }

// CertificateRun renders the aepgate/certificate check run on head (the
// merge SHA): conclusion success, title CertificateTitle(sum), external_id
// CertificateExternalID(sum), and a summary of a short header followed by
// canonical in one fenced json block, the summary's last line being the
// closing fence. canonical is the certificate's canonical JSON
// (certificate.Certificate.Canonical) and sum its lowercase hex SHA-256
// (Certificate.Fingerprint); VerifyCertificateRun reads the summary back.
// Canonical JSON is one ASCII line; a certificate too long for
// MaxSummaryBytes would be cut by Fit, and a cut summary is refused.
func CertificateRun(head string, canonical []byte, sum string) Run {
	return Run{
		Name:       NameCertificate,
		HeadSHA:    head,
		ExternalID: CertificateExternalID(sum),
		Conclusion: ConclusionSuccess,
		Title:      CertificateTitle(sum),
		Summary:    certificateSummary(string(canonical), sum),
	}
}

// certificateSummary is the summary holding body, whose SHA-256 is sum.
func certificateSummary(body, sum string) string {
	return canonicalSummary(certificateHeading, "completion certificate", "--sha <this commit>", body, sum)
}

// canonicalSummary is a certificate check run's summary: heading, then
// what the certificate is, how to re-check it with certificate fetch
// (args after --repo), and body fenced; sum is body's SHA-256.
func canonicalSummary(heading, what, args, body, sum string) string {
	var b strings.Builder
	b.WriteString(heading)
	b.WriteString("The " + what + " below is canonical JSON (sorted keys, no whitespace). ")
	b.WriteString("Its SHA-256 is " + code(sum) + ", also this check run's title and external ID. ")
	b.WriteString("Only the aepgate App writes this check; re-check it with ")
	b.WriteString("`aepgate certificate fetch --repo OWNER/REPO " + args + " --app-slug <the App's slug>`.\n\n")
	fenced(&b, "json", body)
	return b.String()
}

// parseCertificateSummary returns the json block of a summary laid out as
// CertificateRun renders it and the SHA-256 its header names, which it does
// not compare with the block's.
func parseCertificateSummary(summary string) (body, headerSum string, err error) {
	rest, ok := strings.CutPrefix(summary, certificateHeading)
	if !ok {
		return "", "", errors.New("certificate summary: does not start with the aepgate certificate heading")
	}
	_, afterSum, _ := strings.Cut(rest, "Its SHA-256 is `")
	headerSum, _, _ = strings.Cut(afterSum, "`")
	i := strings.Index(rest, "\n```")
	if i < 0 {
		return "", "", errors.New("certificate summary: no fenced json block")
	}
	fence, body, ok := strings.Cut(rest[i+1:], "json\n")
	if !ok || strings.Trim(fence, "`") != "" {
		return "", "", errors.New("certificate summary: the fenced block is not opened with a json info string")
	}
	body, ok = strings.CutSuffix(body, "\n"+fence+"\n")
	if !ok || body == "" || strings.Contains(body, "\n") {
		return "", "", errors.New("certificate summary: the json block is not one line closing the summary")
	}
	if want := certificateSummary(body, headerSum); summary != want {
		return "", "", fmt.Errorf("certificate summary: differs from the rendering of its json block (first difference at byte %d)", firstDiff(summary, want))
	}
	return body, headerSum, nil
}

// sha256Hex is the lowercase hex SHA-256 of s.
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// firstDiff is the index of the first byte where a and b differ.
func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
