package checks

import (
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

// TestSignedIncrementCertificateRunGolden: the signed increment run is the
// unsigned one with the envelope in its text, read back by
// AttestationFromText; it still verifies as an increment run.
func TestSignedIncrementCertificateRunGolden(t *testing.T) {
	raw := incrementCert()
	sum := sha256Hex(string(raw))
	env := `{"payloadType":"application/vnd.in-toto+json","payload":"e30=","signatures":[{"keyid":"KID","sig":"AA=="}]}`
	run := SignedIncrementCertificateRun(incSHA, raw, sum, []byte(env), "KID")
	golden.CheckString(t, filepath.Join("testdata", "increment-signed.golden"), dump(run))
	plain := IncrementCertificateRun(incSHA, raw, sum)
	if run.Summary != plain.Summary || run.ExternalID != plain.ExternalID || run.Title != plain.Title {
		t.Errorf("signing changed the summary, title or external_id")
	}
	if _, rs := VerifyIncrementRun(run); len(rs) != 0 {
		t.Errorf("the signed run is refused: %+v", rs)
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
