package readback_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/attest"
)

// TestSignedCertificate: with a signing key the certificate run carries a
// DSSE envelope that verifies offline against the JWKS the App serves, for
// the merge commit; its bundle is uploaded as an attestation; a key the
// verifier does not hold is refused (the negative control: the same
// envelope against another App's keys).
func TestSignedCertificate(t *testing.T) {
	signer := appkit.Signer(t, 1)
	w := appkit.NewReadbackWorldWith(t, appkit.ReadbackYAML, nil, func(o *app.Options) { o.Signer = signer })
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
	cr := w.Latest(merge, checks.NameCertificate)
	env, err := checks.AttestationFromText(cr.Text)
	if err != nil {
		t.Fatalf("certificate run text: %v\n%s", err, cr.Text)
	}
	keys := appkit.FetchJWKS(t, w.Base)
	v, err := attest.Verify(env, keys, attest.Want{SHA: merge})
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if "sha256:"+v.Fingerprint != cr.ExternalID || v.KeyID != signer.KeyID() {
		t.Errorf("verified fingerprint %s key %s; run external_id %s", v.Fingerprint, v.KeyID, cr.ExternalID)
	}
	var r *attest.Refused
	if _, err := attest.Verify(env, attest.Keyring{appkit.Signer(t, 2).Public()}, attest.Want{SHA: merge}); !errors.As(err, &r) || r.Token != attest.TokenUnknownKey {
		t.Errorf("another App's keys: %v, want %s", err, attest.TokenUnknownKey)
	}
	appkit.WaitFor(t, 5*time.Second, "attestation uploads", func() bool { return len(w.Repo.Attestations()) == 3 }) // the certificate's, then the statements' (statements_e2e_test.go)
	var b attest.Bundle
	if err := json.Unmarshal(w.Repo.Attestations()[0], &b); err != nil || b.MediaType != attest.BundleMediaType || b.VerificationMaterial.PublicKey.Hint != signer.KeyID() {
		t.Fatalf("uploaded bundle %s (%v)", w.Repo.Attestations()[0], err)
	}
	if _, err := attest.Verify(attest.Unbundle(w.Repo.Attestations()[0]), keys, attest.Want{SHA: merge}); err != nil {
		t.Errorf("uploaded bundle does not verify: %v", err)
	}
	ctx := context.Background()
	chain, err := w.App.Store().VerifyLedger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	heads, err := w.App.Store().VerifyHeads(ctx, chain, keys)
	if err != nil || heads.Problem != "" || heads.Head.Seq == 0 || heads.KeyID != signer.KeyID() {
		t.Errorf("the App's ledger against its signed head: %+v, %v", heads, err)
	}
}

// TestUnsignedCertificate: without a key the certificate has no envelope
// and the keys endpoint says certificates are not signed.
func TestUnsignedCertificate(t *testing.T) {
	w := appkit.NewReadbackWorld(t, appkit.ReadbackYAML, nil)
	merge := w.PR.Merge(ghfake.MergeCommit)
	w.MainCI(merge, "success")
	appkit.WaitFor(t, 10*time.Second, "certificate", func() bool { return w.Latest(merge, checks.NameCertificate) != nil })
	if cr := w.Latest(merge, checks.NameCertificate); cr.Text != "" {
		t.Errorf("unsigned certificate run has text:\n%s", cr.Text)
	}
	resp, err := http.Get(w.Base + app.KeysPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound || len(w.Repo.Attestations()) != 0 {
		t.Errorf("keys endpoint %d, %d attestations; want 404 and none", resp.StatusCode, len(w.Repo.Attestations()))
	}
}
