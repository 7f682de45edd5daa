package cli

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/signkey"
	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/attest"
)

const validMergeSHA = "fedcba9876543210fedcba9876543210fedcba98"

// signedFixture writes, under a temporary folder: the testdata certificate
// (of octo/demo) signed by an old key, as an envelope and as a Sigstore
// bundle; the old key's PEM public key (key.pub); the JWKS the App
// publishes once it revoked the old key (current.jwks: the current key
// alone), a JWKS an earlier verifier kept holding both keys (both.jwks),
// one marking the old key "revoked" the way earlier aepgate versions did
// (revoked.jwks); the current key's signed revocation list revoking the old
// key (revocations.json), an empty one (none-revoked.json), and that list
// with its reason changed (tampered.json).
func signedFixture(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	old, cur := seededSigner(t, 11), seededSigner(t, 12)
	cert, err := os.ReadFile("testdata/evidence/certificate-valid.json")
	if err != nil {
		t.Fatal(err)
	}
	env, err := attest.SignCertificate(old, attest.Unit, "octo/demo", cert)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := signkey.PublicPEM(old.Public())
	if err != nil {
		t.Fatal(err)
	}
	current, _ := attest.Keyring{cur.Public()}.JWKS()
	both, _ := attest.Keyring{cur.Public(), old.Public()}.JWKS()
	legacy := both
	legacy.Keys = append([]attest.JWK(nil), both.Keys...)
	legacy.Keys[1].Revoked = true
	rev := attest.Revocations{{KeyID: old.KeyID(), RevokedAt: "2026-12-01T09:30:00Z", Reason: "the key file was copied to a stolen laptop"}}
	list, err := attest.SignRevocations(cur, rev)
	if err != nil {
		t.Fatal(err)
	}
	none, err := attest.SignRevocations(cur, attest.Revocations{})
	if err != nil {
		t.Fatal(err)
	}
	tampered := *list
	tampered.Payload = []byte(strings.Replace(string(list.Payload), "stolen", "found", 1))
	write(t, dir, "key.pub", pub)
	write(t, dir, "current.jwks", mustJSON(t, current))
	write(t, dir, "both.jwks", mustJSON(t, both))
	write(t, dir, "revoked.jwks", mustJSON(t, legacy))
	write(t, dir, "revocations.json", mustJSON(t, list))
	write(t, dir, "none-revoked.json", mustJSON(t, none))
	write(t, dir, "tampered.json", mustJSON(t, &tampered))
	write(t, dir, "cert.dsse.json", mustJSON(t, env))
	write(t, dir, "cert.bundle.json", mustJSON(t, attest.NewBundle(env)))
	return dir
}

// seededSigner is a deterministic Ed25519 signer: seed byte b repeated.
func seededSigner(t *testing.T, b byte) *attest.Signer {
	t.Helper()
	s, err := attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
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
		name          string
		args          []string
		wantCode      int
		wantErr       string
		wantUnchecked []string
	}{
		{"envelope, PEM key: the repository unchecked, and says so", []string{p("cert.dsse.json"), "--key", p("key.pub")}, 0, "the repository was not checked", []string{"repository", "revocations"}},
		{"bundle, PEM key, right SHA", []string{p("cert.bundle.json"), "--key", p("key.pub"), "--sha", validMergeSHA}, 0, "", []string{"repository", "revocations"}},
		{"the right repository", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--repo", "octo/demo"}, 0, "", []string{"revocations"}},
		{"the right repository, with a list revoking nothing", []string{p("cert.dsse.json"), "--jwks", p("both.jwks"), "--repo", "octo/demo", "--revocations", p("none-revoked.json")}, 0, "", []string{}},
		{"a fork at the same commit", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--repo", "mallory/demo", "--sha", validMergeSHA}, 1, attest.TokenRepository + ": expected a certificate about repository mallory/demo, saw a certificate about repository octo/demo", nil},
		{"another SHA", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--sha", strings.Repeat("1", 40)}, 1, attest.TokenSubjectSHA, nil},
		{"revoked: the key left the JWKS, the list says why", []string{p("cert.dsse.json"), "--jwks", p("current.jwks"), "--revocations", p("revocations.json")}, 1, attest.TokenRevokedKey + ": expected a signature by a key that is not revoked, saw a signature by key", nil},
		{"revoked: a verifier still holding the key", []string{p("cert.dsse.json"), "--jwks", p("both.jwks"), "--revocations", p("revocations.json")}, 1, "revoked on 2026-12-01T09:30:00Z: the key file was copied to a stolen laptop", nil},
		{"the key left the JWKS, no list", []string{p("cert.dsse.json"), "--jwks", p("current.jwks")}, 1, attest.TokenUnknownKey, nil},
		{"a tampered revocation list", []string{p("cert.dsse.json"), "--jwks", p("both.jwks"), "--revocations", p("tampered.json")}, 1, "the revocation list is refused: " + attest.TokenBadSignature, nil},
		{"a revocation list the keys cannot verify", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--revocations", p("revocations.json")}, 1, "the revocation list is refused: " + attest.TokenUnknownKey, nil},
		{"a JWKS marking the key revoked the earlier way", []string{p("cert.dsse.json"), "--jwks", p("revoked.jwks")}, 1, attest.TokenRevokedKey, nil},
		{"no key", []string{p("cert.dsse.json")}, 2, "at least one of the flags", nil},
		{"bad --sha", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--sha", "main"}, 2, "not 40 lowercase hex", nil},
		{"bad --repo", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--repo", "demo"}, 2, "not a repository as owner/name", nil},
		{"no revocation list there", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--revocations", p("none.json")}, 2, "--revocations", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"certificate", "verify"}, tt.args...)...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr %s", code, tt.wantCode, errOut)
			}
			if !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("stderr lacks %q:\n%s", tt.wantErr, errOut)
			}
			if tt.wantCode != 0 {
				return
			}
			var got verifyReport
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out)
			}
			if !got.Verified || got.Subject.Digest["gitCommit"] != validMergeSHA || len(got.Fingerprint) != 64 || got.Repository != "octo/demo" {
				t.Errorf("report = %+v", got)
			}
			if diff := cmp.Diff(tt.wantUnchecked, got.Unchecked); diff != "" {
				t.Errorf("unchecked (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCertificateVerifyGolden pins what certificate verify prints, stdout
// and stderr, verified without --repo (saying so), with it, for a fork and
// for a revoked key.
func TestCertificateVerifyGolden(t *testing.T) {
	dir := signedFixture(t)
	p := func(name string) string { return filepath.Join(dir, name) }
	tests := []struct {
		name string
		args []string
	}{
		{"verify-unchecked", []string{p("cert.dsse.json"), "--key", p("key.pub")}},
		{"verify-repo-revocations", []string{p("cert.bundle.json"), "--jwks", p("both.jwks"), "--repo", "octo/demo", "--sha", validMergeSHA, "--revocations", p("none-revoked.json")}},
		{"verify-fork", []string{p("cert.dsse.json"), "--key", p("key.pub"), "--repo", "mallory/demo"}},
		{"verify-revoked", []string{p("cert.dsse.json"), "--jwks", p("current.jwks"), "--revocations", p("revocations.json"), "--repo", "octo/demo"}},
		{"verify-revocations-tampered", []string{p("cert.dsse.json"), "--jwks", p("both.jwks"), "--revocations", p("tampered.json")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"certificate", "verify"}, tt.args...)...)
			got := fmt.Sprintf("== exit %d\n== stdout\n%s== stderr\n%s", code, out, errOut)
			golden.CheckString(t, filepath.Join("testdata", "evidence", tt.name+".golden"), strings.ReplaceAll(got, dir, "DIR"))
		})
	}
}

// TestCertificateVerifyIndependence: a signed certificate of an agent's
// pull request, with who did what (independence), verifies; one naming
// the agent's instructor among the counted approvals is refused though
// its signature is good.
func TestCertificateVerifyIndependence(t *testing.T) {
	dir := t.TempDir()
	s := seededSigner(t, 13)
	pub, err := signkey.PublicPEM(s.Public())
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "key.pub", pub)
	for _, tt := range []struct {
		file     string
		wantCode int
		wantErr  string
	}{
		{"certificate-independence.json", 0, ""},
		{"certificate-independence-instructor.json", 1, "invalid:independence"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			cert, err := os.ReadFile("testdata/evidence/" + tt.file)
			if err != nil {
				t.Fatal(err)
			}
			env, err := attest.SignCertificate(s, attest.Unit, "octo/demo", cert)
			if err != nil {
				t.Fatal(err)
			}
			write(t, dir, "cert.dsse.json", mustJSON(t, env))
			code, _, errOut := runCLI(t, "certificate", "verify", filepath.Join(dir, "cert.dsse.json"), "--key", filepath.Join(dir, "key.pub"), "--repo", "octo/demo")
			if code != tt.wantCode || !strings.Contains(errOut, tt.wantErr) {
				t.Errorf("exit %d, want %d; stderr lacks %q:\n%s", code, tt.wantCode, tt.wantErr, errOut)
			}
		})
	}
}
