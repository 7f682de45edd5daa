package app

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/attest"
)

func TestKeysHandler(t *testing.T) {
	cur, old := testSigner(t, 1), testSigner(t, 2)
	revoked := old.Public()
	revoked.Revoked = true
	tests := []struct {
		name   string
		o      Options
		status int
		ids    []string
	}{
		{"signer only", Options{Signer: cur}, http.StatusOK, []string{cur.KeyID()}},
		{"rotation: the published list", Options{Signer: cur, PublicKeys: attest.Keyring{cur.Public(), revoked}}, http.StatusOK, []string{cur.KeyID(), old.KeyID()}},
		{"no key", Options{}, http.StatusNotFound, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			keysHandler(tt.o).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, KeysPath, nil))
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
