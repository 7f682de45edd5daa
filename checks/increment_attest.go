package checks

import "strings"

// SignedIncrementCertificateRun is IncrementCertificateRun with the
// increment certificate's signed attestation in the run's output text, as
// SignedCertificateRun writes a unit's: envelope is the DSSE envelope's
// JSON (one line; its payload the in-toto statement whose predicate is
// the increment certificate), signed by key keyID. Title, summary and
// external_id are IncrementCertificateRun's. AttestationFromText reads the
// envelope back.
func SignedIncrementCertificateRun(head string, canonical []byte, sum string, envelope []byte, keyID string) Run {
	r := IncrementCertificateRun(head, canonical, sum)
	var b strings.Builder
	b.WriteString(attestationHeading)
	b.WriteString("This increment certificate is also an in-toto statement about commit " + code(head) + ", ")
	b.WriteString("in the DSSE envelope below, signed by aepgate's key " + code(keyID) + "; ")
	b.WriteString("each story's signed unit certificate is named by the SHA-256 of its envelope (`envelopeSha256`). ")
	b.WriteString("Save the block as a file and verify it offline with ")
	b.WriteString("`aepgate certificate verify FILE --jwks KEYS.json --sha " + head + " --story UNIT.json …`, ")
	b.WriteString("one `--story` per story envelope (`aepgate certificate fetch --sha <the story's mergeSha> --attestation` prints it), ")
	b.WriteString("KEYS.json being what the App serves at `/.well-known/aepgate/keys` (or `aepgate keys` prints); ")
	b.WriteString("`aepgate certificate fetch --increment <milestone> --attestation` fetches and verifies them all in one step.\n\n")
	fenced(&b, "json", string(envelope))
	r.Text = b.String()
	return r
}
