package checks

import (
	"errors"
	"strings"
)

// attestationHeading opens the output text of a signed certificate run.
const attestationHeading = "## Signed attestation\n\n"

// SignedCertificateRun is CertificateRun with the certificate's signed
// attestation in the run's output text: envelope is the DSSE envelope's
// JSON (one line; its payload the in-toto statement whose predicate is the
// certificate), signed by key keyID. Title, summary and external_id are
// CertificateRun's: the fingerprint stays the certificate's SHA-256.
// AttestationFromText reads the envelope back.
func SignedCertificateRun(head string, canonical []byte, sum string, envelope []byte, keyID string) Run {
	r := CertificateRun(head, canonical, sum)
	var b strings.Builder
	b.WriteString(attestationHeading)
	b.WriteString("This certificate is also an in-toto statement about commit " + code(head) + ", ")
	b.WriteString("in the DSSE envelope below, signed by aepgate's key " + code(keyID) + ". ")
	b.WriteString("Save the block as a file and verify it offline with ")
	b.WriteString("`aepgate certificate verify FILE --jwks KEYS.json --sha " + head + "`, ")
	b.WriteString("KEYS.json being what the App serves at `/.well-known/aepgate/keys` (or `aepgate keys` prints); ")
	b.WriteString("`aepgate certificate fetch --attestation` fetches and verifies it in one step.\n\n")
	fenced(&b, "json", string(envelope))
	r.Text = b.String()
	return r
}

// AttestationFromText returns the DSSE envelope JSON of a signed
// certificate run's output text: the one fenced json block after the
// heading SignedCertificateRun writes (the standard statements
// WithStatements adds after it are not part of it). It does not verify it.
func AttestationFromText(text string) ([]byte, error) {
	text, _, _ = strings.Cut(text, statementsHeading)
	rest, ok := strings.CutPrefix(text, attestationHeading)
	if !ok {
		return nil, errors.New("certificate run: no signed attestation in its output text")
	}
	i := strings.Index(rest, "\n```json\n")
	if i < 0 {
		return nil, errors.New("certificate run: the signed attestation has no fenced json block")
	}
	body, ok := strings.CutSuffix(rest[i+len("\n```json\n"):], "\n```\n")
	if !ok || body == "" || strings.Contains(body, "\n") {
		return nil, errors.New("certificate run: the signed attestation is not one json line closing the text")
	}
	return []byte(body), nil
}
