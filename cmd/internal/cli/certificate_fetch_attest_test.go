package cli

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/certificate"
)

func fetchSigner(t *testing.T, seed byte) *attest.Signer {
	t.Helper()
	s, err := attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// signedRun is the certificate run of raw signed by s, as the App posts it.
func signedRun(t *testing.T, s *attest.Signer, head string, raw []byte, sum string) checks.Run {
	t.Helper()
	env, err := attest.SignCertificate(s, attest.Unit, "acme/widgets", raw)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(env)
	return checks.SignedCertificateRun(head, raw, sum, b, s.KeyID())
}

// TestCertificateFetchAttestation: --attestation verifies the run's
// envelope with the given keys and prints it; an unsigned run, another
// App's key and an envelope of another certificate are refused.
func TestCertificateFetchAttestation(t *testing.T) {
	ours, stranger := fetchSigner(t, 1), fetchSigner(t, 2)
	dir := t.TempDir()
	jwks := filepath.Join(dir, "keys.jwks")
	set, _ := attest.Keyring{ours.Public()}.JWKS()
	write(t, dir, "keys.jwks", mustJSON(t, set))
	cur := fetchSigner(t, 3)
	bothSet, _ := attest.Keyring{cur.Public(), ours.Public()}.JWKS()
	write(t, dir, "both.jwks", mustJSON(t, bothSet))
	list, err := attest.SignRevocations(cur, attest.Revocations{{KeyID: ours.KeyID(), RevokedAt: "2026-12-01T09:30:00Z", Reason: "lost"}})
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "revoking.json", mustJSON(t, list))
	tamperedList := *list
	tamperedList.Payload = []byte(strings.Replace(string(list.Payload), "lost", "fine", 1))
	write(t, dir, "tampered.json", mustJSON(t, &tamperedList))
	both, revoking, tampered := filepath.Join(dir, "both.jwks"), filepath.Join(dir, "revoking.json"), filepath.Join(dir, "tampered.json")
	tests := []struct {
		name    string
		run     func(w certWorld, raw []byte, sum string) checks.Run
		args    []string
		code    int
		wantErr string
	}{
		{"signed by our key", func(w certWorld, raw []byte, sum string) checks.Run { return signedRun(t, ours, w.sha, raw, sum) }, []string{"--jwks", jwks}, 0, "attestation: signed by key " + ours.KeyID()},
		{"unsigned run", func(w certWorld, raw []byte, sum string) checks.Run { return checks.CertificateRun(w.sha, raw, sum) }, []string{"--jwks", jwks}, 1, attest.TokenEnvelopeMalformed},
		{"signed by a stranger's key", func(w certWorld, raw []byte, sum string) checks.Run { return signedRun(t, stranger, w.sha, raw, sum) }, []string{"--jwks", jwks}, 1, attest.TokenUnknownKey},
		{"envelope of another certificate", func(w certWorld, raw []byte, sum string) checks.Run {
			other, _ := cert(t, w.sha, func(c *certificate.Certificate) { c.AuditorSessionID = "someone" })
			r := signedRun(t, ours, w.sha, other, sum)
			plain := checks.CertificateRun(w.sha, raw, sum)
			r.Summary, r.Title, r.ExternalID = plain.Summary, plain.Title, plain.ExternalID
			return r
		}, []string{"--jwks", jwks}, 1, "is not the summary's"},
		{"no keys", func(w certWorld, raw []byte, sum string) checks.Run { return signedRun(t, ours, w.sha, raw, sum) }, nil, 2, "needs the trusted keys"},
		{"a tampered revocation list", func(w certWorld, raw []byte, sum string) checks.Run { return signedRun(t, ours, w.sha, raw, sum) }, []string{"--jwks", both, "--revocations", tampered}, 1, "the revocation list is refused: " + attest.TokenBadSignature},
		{"a list revoking the signing key", func(w certWorld, raw []byte, sum string) checks.Run { return signedRun(t, ours, w.sha, raw, sum) }, []string{"--jwks", both, "--revocations", revoking}, 1, attest.TokenRevokedKey + ": expected a signature by a key that is not revoked, saw a signature by key " + ours.KeyID() + ", revoked on 2026-12-01T09:30:00Z: lost"},
		{"a genuine envelope of another repository at the same commit", func(w certWorld, raw []byte, sum string) checks.Run {
			fork, _ := cert(t, w.sha, func(c *certificate.Certificate) { c.Repository = "mallory/widgets" })
			env, err := attest.SignCertificate(ours, attest.Unit, "mallory/widgets", fork)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := json.Marshal(env)
			return checks.SignedCertificateRun(w.sha, raw, sum, b, ours.KeyID())
		}, []string{"--jwks", jwks}, 1, attest.TokenRepository + ": expected a certificate about repository acme/widgets"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newCertWorld(t)
			raw, sum := cert(t, w.sha, nil)
			w.post(t, w.ours, tt.run(w, raw, sum))
			code, out, errOut := runCLI(t, w.args(append([]string{"--app-id", "777", "--attestation"}, tt.args...)...)...)
			if code != tt.code || !strings.Contains(errOut, tt.wantErr) {
				t.Fatalf("exit %d, want %d; stderr lacks %q:\n%s", code, tt.code, tt.wantErr, errOut)
			}
			if code == 0 {
				if _, err := attest.Verify([]byte(strings.TrimSpace(out)), attest.Keyring{ours.Public()}, attest.Want{SHA: w.sha}); err != nil {
					t.Errorf("printed envelope does not verify: %v\n%s", err, out)
				}
			}
		})
	}
}
