package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

const integratedSHA = "0123456789abcdef0123456789abcdef01234567"

// incrementFixture writes, under a temporary folder, the testdata unit
// certificate signed by our key (unit-7.dsse.json), the increment
// certificate naming it signed by our key (inc.dsse.json) and by a
// stranger's (stranger.dsse.json), the increment with one payload byte
// changed (flipped.dsse.json), and our keys as a JWKS (keys.jwks).
func incrementFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	ours, stranger := fetchSigner(t, 1), fetchSigner(t, 2)
	cert, err := os.ReadFile("testdata/evidence/certificate-valid.json")
	if err != nil {
		t.Fatal(err)
	}
	story, err := attest.SignCertificate(ours, attest.Unit, "octo/demo", cert)
	if err != nil {
		t.Fatal(err)
	}
	storyRaw := mustJSON(t, story)
	d, err := attest.EnvelopeDigest(storyRaw)
	if err != nil {
		t.Fatal(err)
	}
	c := incrementrules.Certificate{SchemaVersion: incrementrules.SchemaVersion, Kind: incrementrules.Kind, Repository: "octo/demo", Milestone: 3, Title: "M3",
		RiskTier: "medium", IntegratedSha: integratedSHA, ReadbackRunIds: []string{"900"}, ReadbackRuns: []certificate.Run{{ID: "900", Workflow: "ci"}},
		Stories: []incrementrules.CertStory{{Unit: 7, Risk: "medium", MergeSha: validMergeSHA, CertificateSha256: certificate.FileFingerprint(cert), EnvelopeSha256: d}}}
	body, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	for name, s := range map[string]*attest.Signer{"inc.dsse.json": ours, "stranger.dsse.json": stranger} {
		env, err := attest.SignCertificate(s, attest.Increment, "octo/demo", body)
		if err != nil {
			t.Fatal(err)
		}
		write(t, dir, name, mustJSON(t, env))
		if name == "inc.dsse.json" {
			env.Payload = []byte(strings.Replace(string(env.Payload), `"title":"M3"`, `"title":"M4"`, 1))
			write(t, dir, "flipped.dsse.json", mustJSON(t, env))
		}
	}
	set, _ := attest.Keyring{ours.Public()}.JWKS()
	write(t, dir, "keys.jwks", mustJSON(t, set))
	write(t, dir, "unit-7.dsse.json", append(storyRaw, '\n'))
	return dir
}

// TestCertificateVerifyIncrement: a signed increment verifies offline with
// its story's envelope; a changed byte, a missing story envelope and
// another key are refused with exit 1 and a message saying what was
// expected.
func TestCertificateVerifyIncrement(t *testing.T) {
	dir := incrementFixture(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"with its story envelope", []string{p("inc.dsse.json"), "--jwks", p("keys.jwks"), "--sha", integratedSHA, "--story", p("unit-7.dsse.json")}, 0, ""},
		{"a changed byte", []string{p("flipped.dsse.json"), "--jwks", p("keys.jwks"), "--story", p("unit-7.dsse.json")}, 1, attest.TokenBadSignature + ": expected a signature over this exact payload"},
		{"a missing story envelope", []string{p("inc.dsse.json"), "--jwks", p("keys.jwks")}, 1, attest.TokenStoryEnvelopeMissing + ": expected the signed certificate envelope of unit #7"},
		{"another key", []string{p("stranger.dsse.json"), "--jwks", p("keys.jwks"), "--story", p("unit-7.dsse.json")}, 1, attest.TokenUnknownKey + ": expected a signature by one of the trusted keys"},
		{"another SHA", []string{p("inc.dsse.json"), "--jwks", p("keys.jwks"), "--sha", validMergeSHA, "--story", p("unit-7.dsse.json")}, 1, attest.TokenSubjectSHA},
		{"the right repository", []string{p("inc.dsse.json"), "--jwks", p("keys.jwks"), "--repo", "octo/demo", "--story", p("unit-7.dsse.json")}, 0, ""},
		{"a fork at the same commit", []string{p("inc.dsse.json"), "--jwks", p("keys.jwks"), "--repo", "mallory/demo", "--story", p("unit-7.dsse.json")}, 1, attest.TokenRepository + ": expected a certificate about repository mallory/demo"},
		{"the story given as the increment", []string{p("unit-7.dsse.json"), "--jwks", p("keys.jwks"), "--story", p("inc.dsse.json")}, 2, "--story applies to an increment certificate"},
		{"an unreadable story file", []string{p("inc.dsse.json"), "--jwks", p("keys.jwks"), "--story", p("nope.json")}, 2, "--story"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"certificate", "verify"}, tt.args...)...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.wantCode, errOut)
			}
			if tt.wantCode != 0 {
				if !strings.Contains(errOut, tt.wantErr) {
					t.Errorf("stderr lacks %q:\n%s", tt.wantErr, errOut)
				}
				return
			}
			var got incrementVerifyReport
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out)
			}
			if !got.Verified || got.PredicateType != attest.IncrementPredicateType || got.Subject.Digest["gitCommit"] != integratedSHA ||
				len(got.Stories) != 1 || got.Stories[0].Unit != 7 || got.Stories[0].MergeSha != validMergeSHA {
				t.Errorf("report = %+v", got)
			}
		})
	}
}
