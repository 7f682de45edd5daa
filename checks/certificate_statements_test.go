package checks

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// TestWithStatementsGolden: the statements follow the certificate's
// envelope, which AttestationFromText still reads; each statement reads
// back by its kind.
func TestWithStatementsGolden(t *testing.T) {
	raw, sum := sampleCertificate(t, certSHA, "demo")
	env := `{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[{"keyid":"KID","sig":"AA=="}]}`
	cov := `{"payload":"Y292","payloadType":"application/vnd.in-toto+json","signatures":[{"keyid":"KID","sig":"AQ=="}]}`
	vsa := `{"payload":"dnNh","payloadType":"application/vnd.in-toto+json","signatures":[{"keyid":"KID","sig":"Ag=="}]}`
	run := WithStatements(SignedCertificateRun(certSHA, raw, sum, []byte(env), "KID"), []byte(cov), []byte(vsa), "KID")
	golden.CheckString(t, filepath.Join("testdata", "certificate_statements.golden"), dump(run))
	if err := Validate(Fit(run)); err != nil {
		t.Errorf("rendered run is invalid: %v", err)
	}
	for want, read := range map[string]func() ([]byte, error){
		env: func() ([]byte, error) { return AttestationFromText(run.Text) },
		cov: func() ([]byte, error) { return StatementFromText(run.Text, StatementCoverage) },
		vsa: func() ([]byte, error) { return StatementFromText(run.Text, StatementVSA) },
	} {
		got, err := read()
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, string(got)); diff != "" {
			t.Errorf("round trip (-want +got):\n%s", diff)
		}
	}
}

func TestStatementFromTextRefuses(t *testing.T) {
	raw, sum := sampleCertificate(t, certSHA, "demo")
	signed := SignedCertificateRun(certSHA, raw, sum, []byte(`{"a":1}`), "KID")
	text := WithStatements(signed, []byte(`{"c":1}`), []byte(`{"v":1}`), "KID").Text
	for name, tt := range map[string]struct{ text, kind string }{
		"no statements":     {signed.Text, StatementVSA},
		"unknown kind":      {text, "slsa"},
		"two-line block":    {strings.Replace(text, `{"v":1}`, "{\n}", 1), StatementVSA},
		"empty block":       {strings.Replace(text, `{"c":1}`, "", 1), StatementCoverage},
		"a repeated block":  {text + "\n" + statementHeading(StatementVSA) + "{}\n```\n", StatementVSA},
		"an unclosed block": {strings.TrimSuffix(text, "\n```\n"), StatementVSA},
	} {
		if _, err := StatementFromText(tt.text, tt.kind); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
