// Package sigstorekit runs Sigstore's own verifier (@sigstore/verify,
// through protocol/attest/testdata/interop/verify.js) on the App's signed
// envelopes, for the interoperability tests outside protocol/attest (whose
// own test, inside the package, keeps its copy). .ci/run installs the
// verifier with `npm ci --prefix protocol/attest/testdata/interop`.
package sigstorekit

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/attest"
)

// Dir is the verifier's folder in this checkout.
func Dir(t *testing.T) string {
	t.Helper()
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		t.Fatal("sigstorekit: no source path to find the verifier from")
	}
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "protocol", "attest", "testdata", "interop")
}

// Verify runs the verifier on a Sigstore bundle of env against ring, for
// sha, and returns its output. It skips the test, saying why, when Node.js
// or the package is not installed.
func Verify(t *testing.T, env []byte, ring attest.Keyring, sha string) (string, error) {
	t.Helper()
	dir := Dir(t)
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("interoperability not checked: node is not installed")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@sigstore", "verify")); err != nil {
		t.Skip("interoperability not checked: run `npm ci --prefix protocol/attest/testdata/interop` to install @sigstore/verify")
	}
	var e attest.Envelope
	if err := json.Unmarshal(env, &e); err != nil {
		t.Fatal(err)
	}
	set, err := ring.JWKS()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	bundle, jwks := filepath.Join(tmp, "bundle.json"), filepath.Join(tmp, "keys.jwks")
	for path, v := range map[string]any{bundle: attest.NewBundle(&e), jwks: set} {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, raw, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	out, err := exec.Command(node, filepath.Join(dir, "verify.js"), bundle, jwks, sha).CombinedOutput()
	return strings.TrimSpace(string(out)), err
}
