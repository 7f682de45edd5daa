package attest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// interopDir holds Sigstore's verifier; .ci/run installs it with
// `npm ci --prefix protocol/attest/testdata/interop`.
const interopDir = "testdata/interop"

// sigstoreVerify runs Sigstore's own verifier (@sigstore/verify, through
// testdata/interop/verify.js) on a bundle of env against keys, for sha. It
// skips, saying why, when Node.js or the package is not installed.
// Story envelopes, for an increment, are passed as bundles after sha.
func sigstoreVerify(t *testing.T, env []byte, keys Keyring, sha string, stories ...[]byte) (string, error) {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("interoperability not checked: node is not installed")
	}
	if _, err := os.Stat(filepath.Join(interopDir, "node_modules", "@sigstore", "verify")); err != nil {
		t.Skip("interoperability not checked: run `npm ci --prefix protocol/attest/testdata/interop` to install @sigstore/verify")
	}
	var e Envelope
	if err := jsonUnmarshal(env, &e); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	set, err := keys.JWKS()
	if err != nil {
		t.Fatal(err)
	}
	bundle, jwks := filepath.Join(dir, "bundle.json"), filepath.Join(dir, "keys.jwks")
	for path, v := range map[string]any{bundle: NewBundle(&e), jwks: set} {
		if err := os.WriteFile(path, marshal(t, v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{filepath.Join(interopDir, "verify.js"), bundle, jwks, sha}
	for i, raw := range stories {
		path := filepath.Join(dir, "story-"+strconv.Itoa(i)+".json")
		if err := os.WriteFile(path, marshal(t, NewBundle(mustEnvelope(t, raw))), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, path)
	}
	out, err := exec.Command(node, args...).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}

// TestInteropSigstoreVerify checks aepgate's envelopes with Sigstore's
// verifier: both key types verify; the negative controls (a flipped
// payload byte, a revoked key, another SHA, another repository) show that
// it really checks.
func TestInteropSigstoreVerify(t *testing.T) {
	ed, p := edSigner(t, 1), p256Signer(t, 7)
	cert := canonicalOf(t, sampleCert())
	good := envelopeJSON(t, ed, cert)
	flipped := editPayload(t, good, func(s string) string { return strings.Replace(s, "auditor-bot", "auditor-bos", 1) })
	tests := []struct {
		name string
		env  []byte
		keys Keyring
		sha  string
		ok   bool
	}{
		{"ed25519", good, ring(ed), shaM, true},
		{"p-256", envelopeJSON(t, p, cert), ring(p), shaM, true},
		{"negative control: a flipped byte in the payload", flipped, ring(ed), shaM, false},
		{"negative control: a revoked key, which has left the JWKS", good, Keyring{revoked(ed)}, shaM, false},
		{"negative control: a subject naming another repository than the certificate", signedFor(t, ed, "mallory/demo", cert), ring(ed), shaM, false},
		{"negative control: another SHA", good, ring(ed), shaA, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := sigstoreVerify(t, tt.env, tt.keys, tt.sha)
			if (err == nil) != tt.ok {
				t.Fatalf("@sigstore/verify ok = %v, want %v: %s", err == nil, tt.ok, out)
			}
			t.Log(out)
		})
	}
}

// TestInteropSigstoreVerifyIncrement checks a signed increment with its
// story envelope with Sigstore's verifier (and verify.js's digest of each
// story envelope, computed in JavaScript); the negative controls: a
// changed byte, a missing story envelope, another key.
func TestInteropSigstoreVerifyIncrement(t *testing.T) {
	key, other := edSigner(t, 1), edSigner(t, 2)
	inc, story, _ := incrementFixture(t, key)
	otherInc, otherStory, _ := incrementFixture(t, other)
	p := p256Signer(t, 7)
	pInc, pStory, _ := incrementFixture(t, p)
	flipped := editPayload(t, inc, func(p string) string { return strings.Replace(p, `"title":"M3"`, `"title":"M4"`, 1) })
	tests := []struct {
		name    string
		env     []byte
		stories [][]byte
		keys    Keyring
		ok      bool
	}{
		{"ed25519 with its story", inc, [][]byte{story}, ring(key), true},
		{"p-256 with its story", pInc, [][]byte{pStory}, ring(p), true},
		{"negative control: a changed byte", flipped, [][]byte{story}, ring(key), false},
		{"negative control: a missing story envelope", inc, nil, ring(key), false},
		{"negative control: another key", otherInc, [][]byte{otherStory}, ring(key), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := sigstoreVerify(t, tt.env, tt.keys, shaI, tt.stories...)
			if (err == nil) != tt.ok {
				t.Fatalf("@sigstore/verify ok = %v, want %v: %s", err == nil, tt.ok, out)
			}
			t.Log(out)
		})
	}
}
