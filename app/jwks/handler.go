// Package jwks serves the public keys that verify the App's signed
// certificates, as a JSON Web Key Set.
package jwks

import (
	"encoding/json"
	"net/http"

	"github.com/aepgate/aepgate/protocol/attest"
)

// Handler serves the JWKS of ring (signer's key alone when ring is empty)
// as application/jwk-set+json. Without any key it answers 404 saying
// certificates are not signed.
func Handler(ring attest.Keyring, signer *attest.Signer) http.Handler {
	if len(ring) == 0 && signer != nil {
		ring = attest.Keyring{signer.Public()}
	}
	set, err := ring.JWKS()
	body, merr := json.MarshalIndent(set, "", "  ")
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		switch {
		case len(ring) == 0:
			http.Error(w, "this aepgate App signs no certificates: it has no signing key", http.StatusNotFound)
		case err != nil || merr != nil:
			http.Error(w, "the App's public keys cannot be written as a JWKS", http.StatusInternalServerError)
		default:
			w.Header().Set("Content-Type", "application/jwk-set+json")
			w.Header().Set("Cache-Control", "public, max-age=300")
			_, _ = w.Write(append(body, '\n'))
		}
	})
}
