package cli

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/signkey"
	"github.com/aepgate/aepgate/protocol/attest"
)

func TestServeSigningKeyErrors(t *testing.T) {
	dir := t.TempDir()
	key := writeKey(t, dir)
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("s3cret\n"), 0o600)
	rsaAsSigning := writeKey(t, t.TempDir())
	base := []string{"serve", "--app-id", "1", "--private-key-file", key, "--webhook-secret-file", secret}
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		wantErr string
	}{
		{"the App's RSA key as signing key", nil, append(base, "--signing-key-file", rsaAsSigning), "aepgate's signing key: signing key: PEM block \"RSA PRIVATE KEY\""},
		{"missing signing key", nil, append(base, "--signing-key-file", filepath.Join(dir, "nope")), "--signing-key-file: " + filepath.Join(dir, "nope")},
		{"signing key in the environment, not PEM", map[string]string{signingEnv: "hello"}, base, "aepgate's signing key: signing key: no PEM block"},
		{"bad public keys", nil, append(base, "--public-keys-file", secret), "--public-keys-file " + secret},
		{"bad revocations", nil, append(base, "--revocations-file", secret), "--revocations-file " + secret},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			code, _, errs := runCLI(t, tt.args...)
			if code != 2 || !strings.Contains(errs, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tt.wantErr)
			}
		})
	}
}

// TestSigningLoad: the file wins over the environment; the published ring
// is the signer's key, then the earlier ones, the revoked ones left out.
func TestSigningLoad(t *testing.T) {
	dir := t.TempDir()
	fileKey, envKey, oldKey, prevKey := mustGenerate(t), mustGenerate(t), mustGenerate(t), mustGenerate(t)
	write(t, dir, "key.pem", fileKey)
	old, _ := signkey.ParseSigner(oldKey)
	prev, _ := signkey.ParseSigner(prevKey)
	set, _ := attest.Keyring{old.Public(), prev.Public()}.JWKS()
	write(t, dir, "old.jwks", mustJSON(t, set))
	revs := attest.Revocations{{KeyID: old.KeyID(), RevokedAt: "2026-12-01T00:00:00Z", Reason: "lost"}}
	write(t, dir, "revocations.json", mustJSON(t, map[string]any{"revocations": revs}))
	lookup := func(string) (string, bool) { return string(envKey), true }
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	f := SigningFlags{keyFile: filepath.Join(dir, "key.pem"), publicKeysFile: filepath.Join(dir, "old.jwks"), revocationsFile: filepath.Join(dir, "revocations.json")}
	s, ring, gotRevs, err := f.Load(context.Background(), log, lookup)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := signkey.ParseSigner(fileKey)
	if s.KeyID() != want.KeyID() || len(ring) != 2 || ring[0].ID != want.KeyID() || ring[1].ID != prev.KeyID() || len(gotRevs) != 1 {
		t.Errorf("signer %s ring %+v revocations %+v", s.KeyID(), ring, gotRevs)
	}
	s, _, _, err = SigningFlags{}.Load(context.Background(), log, lookup)
	fromEnv, _ := signkey.ParseSigner(envKey)
	if err != nil || s.KeyID() != fromEnv.KeyID() {
		t.Errorf("from %s: %v, %v", signingEnv, s, err)
	}
	s, ring, _, err = SigningFlags{}.Load(context.Background(), log, func(string) (string, bool) { return "", false })
	if err != nil || s != nil || len(ring) != 0 {
		t.Errorf("no key: %v %v %v", s, ring, err)
	}
	f.keyFile = ""
	write(t, dir, "own.json", mustJSON(t, map[string]any{"revocations": attest.Revocations{{KeyID: fromEnv.KeyID(), RevokedAt: "2026-12-01T00:00:00Z", Reason: "lost"}}}))
	f.revocationsFile = filepath.Join(dir, "own.json")
	if _, _, _, err := f.Load(context.Background(), log, lookup); err == nil || !strings.Contains(err.Error(), "the signing key is revoked") {
		t.Errorf("a revoked signing key: %v", err)
	}
}

func mustGenerate(t *testing.T) []byte {
	t.Helper()
	b, err := signkey.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestKeysCommand(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "key.pem")
	if code, out, errOut := runCLI(t, "keys", "generate", "--out", key); code != 0 || !strings.HasPrefix(out, "signing key ") {
		t.Fatalf("generate: %d %q %s", code, out, errOut)
	}
	if fi, err := os.Stat(key); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if code, _, errOut := runCLI(t, "keys", "generate", "--out", key); code != 2 || !strings.Contains(errOut, "exists") {
		t.Errorf("overwrite: exit %d, %s", code, errOut)
	}
	code, out, _ := runCLI(t, "keys", "--signing-key-file", key)
	ring, err := attest.ParseJWKS([]byte(out))
	if code != 0 || err != nil || len(ring) != 1 {
		t.Errorf("keys: exit %d, %v\n%s", code, err, out)
	}
	_, pem, _ := runCLI(t, "keys", "--signing-key-file", key, "--pem")
	if code, text, errOut := runCLI(t, "keys", "--signing-key-file", key, "--format", "text"); code != 0 || text != pem || !strings.HasPrefix(text, "-----BEGIN PUBLIC KEY-----") {
		t.Errorf("keys --format text: exit %d, %s\n%s\nwant the --pem output:\n%s", code, errOut, text, pem)
	}
	if code, json, _ := runCLI(t, "keys", "--signing-key-file", key, "--format", "json"); code != 0 || json != out {
		t.Errorf("keys --format json: exit %d\n%s\nwant the default JWKS:\n%s", code, json, out)
	}
	if code, _, errOut := runCLI(t, "keys", "--signing-key-file", key, "--pem", "--format", "json"); code != 2 || !strings.Contains(errOut, "none of the others can be") {
		t.Errorf("keys --pem --format json: exit %d, %s; want a usage error", code, errOut)
	}
	t.Setenv(signingEnv, "")
	if code, _, errOut := runCLI(t, "keys"); code != 2 || !strings.Contains(errOut, "no key") {
		t.Errorf("keys without a key: exit %d, %s", code, errOut)
	}
}
