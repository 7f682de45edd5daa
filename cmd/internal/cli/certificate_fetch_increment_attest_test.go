package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// TestCertificateFetchIncrementAttestation: --increment --attestation
// reads the signed increment envelope and the story envelope it names
// (from the App's certificate run on the story's merge commit), verifies
// them and prints the increment envelope; a story certificate run missing
// and an increment signed by a key not trusted are refused with exit 1.
func TestCertificateFetchIncrementAttestation(t *testing.T) {
	ours, stranger := fetchSigner(t, 1), fetchSigner(t, 2)
	dir := t.TempDir()
	set, _ := attest.Keyring{ours.Public()}.JWKS()
	write(t, dir, "keys.jwks", mustJSON(t, set))
	jwks := filepath.Join(dir, "keys.jwks")
	tests := []struct {
		name      string
		signer    *attest.Signer
		postStory bool
		code      int
		wantErr   string
	}{
		{"signed, with its story", ours, true, exitOK, "1 story envelopes verified"},
		{"the story's certificate run missing", ours, false, exitFindings, "certificate-missing"},
		{"signed by a stranger's key", stranger, true, exitFindings, attest.TokenUnknownKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newCertWorld(t)
			merge := w.repo.Commit("main", "Merge pull request #43", map[string]string{"b.go": "package a\n"})
			raw, sum := cert(t, merge, nil)
			story := signedRun(t, ours, merge, raw, sum)
			if tt.postStory {
				w.post(t, w.ours, story)
			}
			storyEnv, err := checks.AttestationFromText(story.Text)
			if err != nil {
				t.Fatal(err)
			}
			d, _ := attest.EnvelopeDigest(storyEnv)
			c := incrementrules.Certificate{SchemaVersion: incrementrules.SchemaVersion, Kind: incrementrules.Kind, Repository: "acme/widgets", Milestone: 3, Title: "M3",
				RiskTier: "medium", IntegratedSha: w.sha, ReadbackRunIds: []string{"900"}, ReadbackRuns: []certificate.Run{{ID: "900", Workflow: "ci"}},
				Stories: []incrementrules.CertStory{{Unit: 7, Risk: "medium", MergeSha: merge, CertificateSha256: sum, EnvelopeSha256: d}}}
			body, err := c.Canonical()
			if err != nil {
				t.Fatal(err)
			}
			env, err := attest.SignCertificate(tt.signer, attest.Increment, "acme/widgets", body)
			if err != nil {
				t.Fatal(err)
			}
			envRaw, _ := json.Marshal(env)
			w.post(t, w.ours, checks.SignedIncrementCertificateRun(w.sha, body, certificate.FileFingerprint(body), envRaw, tt.signer.KeyID()))
			code, out, errOut := runCLI(t, w.args("--app-id", "777", "--increment", "3", "--attestation", "--jwks", jwks)...)
			if code != tt.code || !strings.Contains(errOut, tt.wantErr) {
				t.Fatalf("exit %d, want %d; stderr lacks %q:\n%s", code, tt.code, tt.wantErr, errOut)
			}
			if code == exitOK && strings.TrimSpace(out) != string(envRaw) {
				t.Errorf("stdout %q, want the increment envelope", out)
			}
		})
	}
}
