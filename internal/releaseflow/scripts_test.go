package releaseflow

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/skipline"
	"github.com/aepgate/aepgate/protocol/releaserules"
)

// root is the repository root, from this package's folder.
const root = "../.."

// script runs .github/release/<name> with args and env added to a clean
// environment, and returns its standard output.
func script(t *testing.T, name string, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command("bash", append([]string{filepath.Join(root, ".github/release", name)}, args...)...)
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir()}, env...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("%s: %v\n%s%s", name, err, out, stderr.String())
	}
	return string(out), err
}

// TestManifestIsCurrent: the committed manifest.sha256 is what manifest.sh
// prints for the files as they are, and release closure can read it. When
// it fails, regenerate it: bash .github/release/manifest.sh > manifest.sha256
func TestManifestIsCurrent(t *testing.T) {
	got, err := script(t, "manifest.sh", nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(root, "manifest.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("manifest.sha256 is stale; run: bash .github/release/manifest.sh > manifest.sha256\ncommitted:\n%s\nnow:\n%s", want, got)
	}
	m, err := releaserules.ParseManifest([]byte(got))
	if err != nil {
		t.Fatalf("release closure cannot read the manifest: %v", err)
	}
	for _, p := range m.Paths() {
		b, err := os.ReadFile(filepath.Join(root, p))
		if err != nil || releaserules.Sum(b) != m[p] {
			t.Errorf("%s does not hash to its entry (%v)", p, err)
		}
	}
}

// TestReceiptPassesClosure: the receipt receipt.sh writes for a final tag
// is one release closure accepts for that tag and commit, and not for
// another commit.
func TestReceiptPassesClosure(t *testing.T) {
	commit := strings.Repeat("c", 40)
	body, err := script(t, "receipt.sh", nil, "v1.2.3", commit, "aepgate/aepgate", "42", "https://github.com/aepgate/aepgate/actions/runs/42")
	if err != nil {
		t.Fatal(err)
	}
	body = "Changelog\n\n### Adoption receipt\n\n" + body
	if rs := releaserules.CheckReceipt(body, "1.2.3", "v1.2.3", commit); len(rs) != 0 {
		t.Errorf("closure refuses the receipt: %+v\n%s", rs, body)
	}
	if rs := releaserules.CheckReceipt(body, "1.2.3", "v1.2.3", strings.Repeat("d", 40)); len(rs) == 0 {
		t.Error("closure accepts the receipt for another commit")
	}
	for _, args := range [][]string{{"v1.2", commit}, {"v1.2.3-rc.1", commit}, {"v1.2.3", "abc"}} {
		if _, err := script(t, "receipt.sh", nil, args[0], args[1], "o/r", "1", "u"); err == nil {
			t.Errorf("receipt.sh %v: no error", args)
		}
	}
}

// keyPair writes an ECDSA P-256 key pair as the release workflow holds it:
// the private half in PEM (the secret's value), the public half in a file.
func keyPair(t *testing.T) (private string, pubPath string, pub *ecdsa.PublicKey) {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		t.Fatal(err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	pubPath = filepath.Join(t.TempDir(), "release-signing.pub")
	if err := os.WriteFile(pubPath, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}), 0o644); err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})), pubPath, &k.PublicKey
}

// TestSignWritesWhatFetchVerifies: sign.sh's checksums.txt.sig is an
// ECDSA signature over the file's SHA-256 by the secret key, the format
// fetch.sh verifies; a secret that is not the committed key's private half,
// and a missing secret, fail the release instead.
func TestSignWritesWhatFetchVerifies(t *testing.T) {
	priv, pubPath, pub := keyPair(t)
	otherPriv, _, _ := keyPair(t)
	sums := filepath.Join(t.TempDir(), "checksums.txt")
	content := []byte(strings.Repeat("a", 64) + "  aepgate_1.2.3_linux_amd64.tar.gz\n")
	if err := os.WriteFile(sums, content, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := script(t, "sign.sh", []string{"AEPGATE_RELEASE_SIGNING_KEY=" + priv, "RELEASE_SIGNING_PUB=" + pubPath}, sums); err != nil {
		t.Fatal(err)
	}
	sig, err := os.ReadFile(sums + ".sig")
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.Sum256(content)
	if !ecdsa.VerifyASN1(pub, h[:], sig) {
		t.Error("checksums.txt.sig does not verify as ECDSA over SHA-256")
	}
	for name, env := range map[string][]string{
		"a secret that is another key": {"AEPGATE_RELEASE_SIGNING_KEY=" + otherPriv, "RELEASE_SIGNING_PUB=" + pubPath},
		"no secret":                    {"RELEASE_SIGNING_PUB=" + pubPath},
		"no public key":                {"AEPGATE_RELEASE_SIGNING_KEY=" + priv, "RELEASE_SIGNING_PUB=" + filepath.Join(t.TempDir(), "absent.pub")},
	} {
		if _, err := script(t, "sign.sh", env, sums); err == nil {
			t.Errorf("%s: sign.sh succeeded", name)
		}
	}
}

// TestReleasingDocCreatesTheKey: the commands docs/releasing.md gives
// under "Create the release key (once)", run as written in a copy of the
// repository's layout, make a key pair whose private half sign.sh signs
// with and whose public half, where fetch.sh reads it, verifies the
// signature ("Verified OK").
func TestReleasingDocCreatesTheKey(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		const msg = "openssl not found (docs/releasing.md's key commands need it)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		skipline.Skip(t, skipline.Need{What: "openssl", Install: "sudo apt-get install openssl"}, msg)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "releasing.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Create the release key (once)\n")
	if !ok {
		t.Fatal(`docs/releasing.md has no section "Create the release key (once)"`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	var commands []string
	for _, block := range strings.Split(section, "```sh\n")[1:] {
		code, _, _ := strings.Cut(block, "```")
		commands = append(commands, code)
	}
	if len(commands) != 2 {
		t.Fatalf("%d sh blocks in the section, want 2 (create, check)", len(commands))
	}
	work, home := t.TempDir(), t.TempDir()
	for _, d := range []string{"internal/actionfetch", ".github/release"} {
		if err := os.MkdirAll(filepath.Join(work, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	sign, err := os.ReadFile(filepath.Join(root, ".github/release/sign.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(work, ".github/release/sign.sh"), sign, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-euo", "pipefail", "-c", strings.Join(commands, ""))
	cmd.Dir = work
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TMPDIR=" + t.TempDir()}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Verified OK") {
		t.Fatalf("the doc's commands: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(home, "release-signing.pem")); err != nil {
		t.Errorf("the private half is not outside the clone: %v", err)
	}
}
