package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/jwks"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/signkey"
	"github.com/aepgate/aepgate/protocol/attest"
)

// Attestation is the merge's signed certificate and its offline
// verification, as the report shows them.
type Attestation struct {
	// Envelope is the DSSE envelope on the certificate run, as saved to
	// certificate.dsse.json beside the report.
	Envelope string `json:"envelope"`
	// Command is the offline verification command line, Output what it
	// printed (stdout and stderr).
	Command  string `json:"command"`
	Output   string `json:"output"`
	Verified bool   `json:"verified"`
}

// demoSigner is a fresh Ed25519 signing key for one demo run.
func demoSigner() (*attest.Signer, error) {
	pem, err := signkey.Generate()
	if err != nil {
		return nil, fmt.Errorf("demo: signing key: %w", err)
	}
	return signkey.ParseSigner(pem)
}

// attestation saves the signed certificate on the merge commit and the
// App's published keys (GET /.well-known/aepgate/keys) beside the report,
// then verifies them offline: with `aepgate certificate verify` when the
// binary's CLI is given, else with protocol/attest. nil when the merge has
// no certificate run. It needs the App still serving.
func (w *world) attestation(ctx context.Context, merge string) (*Attestation, error) {
	r := w.newest(merge, checks.NameCertificate)
	if r == nil {
		return nil, nil
	}
	env, err := checks.AttestationFromText(r.Text)
	if err != nil {
		return nil, fmt.Errorf("demo: the certificate run is not signed: %w", err)
	}
	saved, err := w.saveEvidence(ctx, "certificate.dsse.json", env)
	if err != nil {
		return nil, err
	}
	w.keysFile = saved.keysFile
	a := &Attestation{Envelope: string(env), Command: "aepgate certificate verify certificate.dsse.json --jwks keys.jwks --revocations revocations.json --repo " + repoName + " --sha " + merge}
	if w.o.CLI != nil {
		out, errOut, code := w.o.CLI(ctx, []string{"certificate", "verify", saved.envFile, "--jwks", saved.keysFile, "--revocations", saved.revFile, "--repo", repoName, "--sha", merge})
		a.Output, a.Verified = out+errOut, code == 0
		return a, nil
	}
	ring, err := trusted(saved.keys, saved.revs)
	if err != nil {
		return nil, err
	}
	v, err := attest.Verify(env, ring, attest.Want{SHA: merge, Repository: repoName})
	if err != nil {
		a.Output = err.Error()
		return a, nil
	}
	a.Output = fmt.Sprintf("verified: key %s, subject %s, sha256 %s\n", v.KeyID, v.SHA, v.Fingerprint)
	a.Verified = true
	return a, nil
}

// publishedKeys reads the JWKS the App serves.
func (w *world) publishedKeys(ctx context.Context) ([]byte, error) {
	return w.published(ctx, app.KeysPath)
}

// savedEvidence is a signed envelope saved beside the report with what
// verifies it: the App's JWKS and its signed revocation list.
type savedEvidence struct {
	envFile, keysFile, revFile string
	keys, revs                 []byte
}

// saveEvidence saves env as name, and the JWKS and the signed revocation
// list the App serves as keys.jwks and revocations.json, beside the
// report.
func (w *world) saveEvidence(ctx context.Context, name string, env []byte) (savedEvidence, error) {
	var s savedEvidence
	var err error
	if s.keys, err = w.publishedKeys(ctx); err != nil {
		return s, err
	}
	if s.revs, err = w.published(ctx, jwks.RevocationsPath); err != nil {
		return s, err
	}
	s.envFile, s.keysFile, s.revFile = filepath.Join(w.o.Out, name), filepath.Join(w.o.Out, "keys.jwks"), filepath.Join(w.o.Out, "revocations.json")
	if err := writeBoth(s.envFile, append(env, '\n'), s.keysFile, s.keys); err != nil {
		return s, err
	}
	if err := os.WriteFile(s.revFile, s.revs, 0o644); err != nil {
		return s, fmt.Errorf("demo: %w", err)
	}
	return s, nil
}

// trusted is the keyring of the App's JWKS knowing its signed revocations.
func trusted(keys, revocations []byte) (attest.Keyring, error) {
	ring, err := attest.ParseJWKS(keys)
	if err != nil {
		return nil, fmt.Errorf("demo: the App's keys: %w", err)
	}
	revs, _, err := attest.VerifyRevocations(revocations, ring)
	if err != nil {
		return nil, fmt.Errorf("demo: the App's revocation list: %w", err)
	}
	return ring.Revoke(revs), nil
}

// published reads what the App serves at path.
func (w *world) published(ctx context.Context, path string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, w.base+path, nil)
	if err != nil {
		return nil, fmt.Errorf("demo: %s: %w", path, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("demo: %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("demo: GET %s: %d %s %v", path, resp.StatusCode, strings.TrimSpace(string(body)), err)
	}
	return body, nil
}

func writeBoth(p1 string, b1 []byte, p2 string, b2 []byte) error {
	for _, f := range []struct {
		path string
		b    []byte
	}{{p1, b1}, {p2, b2}} {
		if err := os.WriteFile(f.path, f.b, 0o644); err != nil {
			return fmt.Errorf("demo: %w", err)
		}
	}
	return nil
}

// attestationOutcome is the terminal's line for the offline verification:
// its verdict and the signing key, the full output being in the report.
func attestationOutcome(a *Attestation) string {
	if !a.Verified {
		return "refused: " + strings.TrimSpace(a.Output)
	}
	var v struct {
		KeyID  string `json:"keyId"`
		SHA256 string `json:"sha256"`
	}
	if json.Unmarshal([]byte(a.Output), &v) != nil || v.KeyID == "" {
		return strings.TrimSpace(a.Output)
	}
	return fmt.Sprintf("verified offline: signed by key %s, certificate sha256 %s (the full output is in the report)", v.KeyID, v.SHA256)
}
