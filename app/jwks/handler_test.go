package jwks

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/attest"
)

func testSigner(t *testing.T, seed byte) *attest.Signer {
	t.Helper()
	s, err := attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func get(h http.Handler, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	return rec
}

// TestHandler: the JWKS is the published list, else the signer's key,
// revoked keys left out; no key answers 404.
func TestHandler(t *testing.T) {
	cur, old, prev := testSigner(t, 1), testSigner(t, 2), testSigner(t, 3)
	rev := attest.Revocations{{KeyID: old.KeyID(), RevokedAt: "2026-12-01T00:00:00Z", Reason: "lost"}}
	tests := []struct {
		name   string
		ring   attest.Keyring
		signer *attest.Signer
		status int
		ids    []string
	}{
		{"signer only", nil, cur, http.StatusOK, []string{cur.KeyID()}},
		{"rotation: the published list", attest.Keyring{cur.Public(), prev.Public()}, cur, http.StatusOK, []string{cur.KeyID(), prev.KeyID()}},
		{"a revoked key is not served", attest.Keyring{cur.Public(), old.Public()}.Revoke(rev), cur, http.StatusOK, []string{cur.KeyID()}},
		{"no key", nil, nil, http.StatusNotFound, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := get(Handler(tt.ring, tt.signer), "/.well-known/aepgate/keys")
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if tt.status != http.StatusOK {
				return
			}
			// A plain JWKS consumer: kid of each key, nothing else read.
			var plain struct {
				Keys []struct {
					Kid string `json:"kid"`
				} `json:"keys"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &plain); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, k := range plain.Keys {
				got = append(got, k.Kid)
			}
			if diff := cmp.Diff(tt.ids, got); diff != "" {
				t.Errorf("key IDs (-want +got):\n%s", diff)
			}
			if strings.Contains(rec.Body.String(), "revoked") {
				t.Errorf("the JWKS says revoked:\n%s", rec.Body)
			}
		})
	}
}

// TestRevocationsHandler: the list is served signed by the current key and
// verifies with the served JWKS; a certificate by the revoked key is then
// refused with the revocation's reason.
func TestRevocationsHandler(t *testing.T) {
	cur, old := testSigner(t, 1), testSigner(t, 2)
	rev := attest.Revocations{{KeyID: old.KeyID(), RevokedAt: "2026-12-01T00:00:00Z", Reason: "the key leaked"}}
	rec := get(RevocationsHandler(rev, cur), RevocationsPath)
	if rec.Code != http.StatusOK || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("status %d, type %q: %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	keys := get(Handler(attest.Keyring{cur.Public(), old.Public()}.Revoke(rev), cur), "/.well-known/aepgate/keys")
	ring, err := attest.ParseJWKS(keys.Body.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	got, kid, err := attest.VerifyRevocations(rec.Body.Bytes(), ring)
	if err != nil || kid != cur.KeyID() {
		t.Fatalf("VerifyRevocations = %v, key %s, %v", got, kid, err)
	}
	if diff := cmp.Diff(rev, got); diff != "" {
		t.Errorf("revocations (-want +got):\n%s", diff)
	}
	env, err := attest.Sign(old, attest.PayloadType, []byte("{}"))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(env)
	_, err = attest.Verify(raw, ring.Revoke(got), attest.Want{})
	var r *attest.Refused
	if !errors.As(err, &r) || r.Token != attest.TokenRevokedKey || !strings.Contains(r.Error(), "the key leaked") {
		t.Errorf("an envelope by the revoked key: %v, want %s with the reason", err, attest.TokenRevokedKey)
	}
}

func TestRevocationsHandlerRefuses(t *testing.T) {
	cur := testSigner(t, 1)
	tests := []struct {
		name   string
		revs   attest.Revocations
		signer *attest.Signer
		status int
	}{
		{"no signer", nil, nil, http.StatusNotFound},
		{"a list revoking the signer", attest.Revocations{{KeyID: cur.KeyID(), RevokedAt: "2026-12-01T00:00:00Z", Reason: "x"}}, cur, http.StatusInternalServerError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if rec := get(RevocationsHandler(tt.revs, tt.signer), RevocationsPath); rec.Code != tt.status {
				t.Errorf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
		})
	}
	rec := get(RevocationsHandler(attest.Revocations{}, cur), RevocationsPath)
	if got, _, err := attest.VerifyRevocations(rec.Body.Bytes(), attest.Keyring{cur.Public()}); rec.Code != http.StatusOK || err != nil || len(got) != 0 {
		t.Errorf("an empty list: %d %v %v", rec.Code, got, err)
	}
}
