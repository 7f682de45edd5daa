package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/signkey"
	"github.com/aepgate/aepgate/protocol/attest"
)

const validMergeSHA = "fedcba9876543210fedcba9876543210fedcba98"

// signedFixture writes a signing key, its PEM public key, a JWKS marking
// it revoked and the signed testdata certificate (as an envelope and as a
// Sigstore bundle) under a temporary folder.
func signedFixture(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	key := filepath.Join(dir, "key.pem")
	if code, _, errOut := runCLI(t, "keys", "generate", "--out", key); code != 0 {
		t.Fatalf("keys generate: %d %s", code, errOut)
	}
	code, pub, errOut := runCLI(t, "keys", "--signing-key-file", key, "--pem")
	if code != 0 {
		t.Fatalf("keys --pem: %d %s", code, errOut)
	}
	pem, _ := os.ReadFile(key)
	signer, err := signkey.ParseSigner(pem)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := os.ReadFile("testdata/evidence/certificate-valid.json")
	if err != nil {
		t.Fatal(err)
	}
	env, err := attest.SignCertificate(signer, attest.Unit, "octo/demo", cert)
	if err != nil {
		t.Fatal(err)
	}
	revoked := signer.Public()
	revoked.Revoked = true
	set, _ := attest.Keyring{revoked}.JWKS()
	write(t, dir, "key.pub", []byte(pub))
	write(t, dir, "revoked.jwks", mustJSON(t, set))
	write(t, dir, "cert.dsse.json", mustJSON(t, env))
	write(t, dir, "cert.bundle.json", mustJSON(t, attest.NewBundle(env)))
	return dir
}

func write(t *testing.T, dir, name string, b []byte) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestCertificateVerify(t *testing.T) {
	dir := signedFixture(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"envelope, PEM key", []string{p("cert.dsse.json"), "--key", p("key.pub")}, 0, ""},
		{"bundle, PEM key, right SHA", []string{p("cert.bundle.json"), "--key", p("key.pub"), "--sha", validMergeSHA}, 0, ""},
		{"another SHA", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--sha", strings.Repeat("1", 40)}, 1, attest.TokenSubjectSHA},
		{"revoked key", []string{p("cert.dsse.json"), "--jwks", p("revoked.jwks")}, 1, attest.TokenRevokedKey},
		{"no key", []string{p("cert.dsse.json")}, 2, "at least one of the flags"},
		{"bad --sha", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--sha", "main"}, 2, "not 40 lowercase hex"},
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
			var got verifyReport
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out)
			}
			if !got.Verified || got.Subject.Digest["gitCommit"] != validMergeSHA || len(got.Fingerprint) != 64 {
				t.Errorf("report = %+v", got)
			}
		})
	}
}
