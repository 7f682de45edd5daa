package sourceattest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/sigstorekit"
	"github.com/aepgate/aepgate/protocol/attest"
)

// TestInteropSigstoreVerify checks the coverage statement and the VSA
// with Sigstore's verifier, independently of this package's Go: both
// verify; the negative controls (a flipped payload byte, a key not in the
// JWKS, another commit, a subject naming a fork, the level or the class
// that makes the statement worth having taken away, each re-signed so the
// signature is good) show that it really checks.
func TestInteropSigstoreVerify(t *testing.T) {
	s := signer(t)
	ring := attest.Keyring{s.Public()}
	envs := signed(t, s)
	tests := []struct {
		name string
		kind string
		env  func() []byte
		ring attest.Keyring
		sha  string
		ok   bool
	}{
		{"vsa", "vsa", func() []byte { return envs["vsa"] }, ring, merged, true},
		{"coverage", "coverage", func() []byte { return envs["coverage"] }, ring, merged, true},
		{"negative control: a flipped payload byte", "vsa", func() []byte { return flipped(t, envs["vsa"]) }, ring, merged, false},
		{"negative control: a key not in the JWKS", "coverage", func() []byte { return envs["coverage"] }, attest.Keyring{signer2(t).Public()}, merged, false},
		{"negative control: another commit", "vsa", func() []byte { return envs["vsa"] }, ring, other, false},
		{"negative control: a vsa whose subject names a fork", "vsa", func() []byte {
			return resign(t, s, envs["vsa"], func(m map[string]any) { subject(m)["uri"] = "https://github.com/" + fork + "/commit/" + merged })
		}, ring, merged, false},
		{"negative control: a coverage statement about a fork", "coverage", func() []byte {
			return resign(t, s, envs["coverage"], func(m map[string]any) { pred(m)["repository"] = "https://github.com/" + fork })
		}, ring, merged, false},
		{"negative control: a vsa without two-party review", "vsa", func() []byte {
			return resign(t, s, envs["vsa"], func(m map[string]any) { pred(m)["verifiedLevels"] = []any{SourceLevel2} })
		}, ring, merged, false},
		{"negative control: a vsa that failed", "vsa", func() []byte {
			return resign(t, s, envs["vsa"], func(m map[string]any) { pred(m)["verificationResult"] = "FAILED" })
		}, ring, merged, false},
		{"negative control: residual coverage", "coverage", func() []byte {
			return resign(t, s, envs["coverage"], func(m map[string]any) { pred(m)["class"] = "residual" })
		}, ring, merged, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := sigstorekit.Verify(t, tt.env(), tt.ring, tt.sha)
			if (err == nil) != tt.ok {
				t.Fatalf("@sigstore/verify ok = %v, want %v: %s", err == nil, tt.ok, out)
			}
			if tt.ok && !strings.Contains(out, "subject "+merged+" in "+repo) {
				t.Errorf("verify.js did not say the repository: %s", out)
			}
			t.Log(out)
		})
	}
}

// flipped is env with one byte of its payload changed after signing.
func flipped(t *testing.T, env []byte) []byte {
	t.Helper()
	var e attest.Envelope
	if err := json.Unmarshal(env, &e); err != nil {
		t.Fatal(err)
	}
	e.Payload = []byte(strings.Replace(string(e.Payload), "PASSED", "PASSEd", 1))
	return envelopeJSON(t, &e)
}
