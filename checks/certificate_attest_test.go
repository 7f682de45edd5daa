package checks

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

func TestSignedCertificateRunGolden(t *testing.T) {
	raw, sum := sampleCertificate(t, certSHA, "demo")
	env := `{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[{"keyid":"KID","sig":"AA=="}]}`
	run := SignedCertificateRun(certSHA, raw, sum, []byte(env), "KID")
	golden.CheckString(t, filepath.Join("testdata", "certificate_signed.golden"), dump(run))
	plain := CertificateRun(certSHA, raw, sum)
	if run.Summary != plain.Summary || run.ExternalID != plain.ExternalID || run.Title != plain.Title {
		t.Errorf("signing changed the summary, title or external_id")
	}
	if err := Validate(Fit(run)); err != nil {
		t.Errorf("rendered run is invalid: %v", err)
	}
	got, err := AttestationFromText(run.Text)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(env, string(got)); diff != "" {
		t.Errorf("envelope round trip (-want +got):\n%s", diff)
	}
}

func TestAttestationFromTextRefuses(t *testing.T) {
	raw, sum := sampleCertificate(t, certSHA, "demo")
	text := SignedCertificateRun(certSHA, raw, sum, []byte(`{"a":1}`), "KID").Text
	for name, s := range map[string]string{
		"empty":           "",
		"no block":        attestationHeading + "text\n",
		"text after":      text + "more\n",
		"two-line block":  strings.Replace(text, `{"a":1}`, "{\n}", 1),
		"another heading": strings.Replace(text, "## Signed", "## Unsigned", 1),
	} {
		if _, err := AttestationFromText(s); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
