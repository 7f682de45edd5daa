package jwks

import (
	"bytes"
	"crypto/ed25519"
	"net/http"
	"net/http/httptest"
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

// TestHandler: the JWKS is the published list, else the signer's key; no
// key answers 404.
func TestHandler(t *testing.T) {
	cur, old := testSigner(t, 1), testSigner(t, 2)
	revoked := old.Public()
	revoked.Revoked = true
	tests := []struct {
		name   string
		ring   attest.Keyring
		signer *attest.Signer
		status int
		ids    []string
	}{
		{"signer only", nil, cur, http.StatusOK, []string{cur.KeyID()}},
		{"rotation: the published list", attest.Keyring{cur.Public(), revoked}, cur, http.StatusOK, []string{cur.KeyID(), old.KeyID()}},
		{"no key", nil, nil, http.StatusNotFound, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			Handler(tt.ring, tt.signer).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/.well-known/aepgate/keys", nil))
			if rec.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			if tt.status != http.StatusOK {
				return
			}
			ring, err := attest.ParseJWKS(rec.Body.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, k := range ring {
				got = append(got, k.ID)
			}
			if diff := cmp.Diff(tt.ids, got); diff != "" {
				t.Errorf("key IDs (-want +got):\n%s", diff)
			}
			if len(ring) == 2 && !ring[1].Revoked {
				t.Error("the revoked key is not marked revoked")
			}
		})
	}
}
