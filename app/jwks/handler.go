// Package jwks serves the public keys that verify the App's signed
// certificates, as a JSON Web Key Set, and the signed list of the keys it
// revoked.
package jwks

import (
	"encoding/json"
	"net/http"

	"github.com/aepgate/aepgate/protocol/attest"
)

// RevocationsPath is where the App publishes its signed revocation list
// (RevocationsHandler), beside the JWKS.
const RevocationsPath = "/.well-known/aepgate/revocations"

// Handler serves the JWKS of ring (signer's key alone when ring is empty)
// as application/jwk-set+json. A revoked key is never served: it has left
// the JWKS and is named in the revocation list instead. Without any key it
// answers 404 saying certificates are not signed.
func Handler(ring attest.Keyring, signer *attest.Signer) http.Handler {
	ring = ring.Trusted()
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

// RevocationsHandler serves revs signed by signer (attest.SignRevocations:
// a DSSE envelope, one JSON line) as application/json; an empty list is
// served too, so that a verifier can see that nothing was revoked. It is
// signed once, here. Without a signer it answers 404; a list that cannot be
// signed (it revokes the signer's own key) answers 500 saying so.
func RevocationsHandler(revs attest.Revocations, signer *attest.Signer) http.Handler {
	var body []byte
	var err error
	if signer != nil {
		var env *attest.Envelope
		if env, err = attest.SignRevocations(signer, revs); err == nil {
			body, err = json.Marshal(env)
		}
	}
	return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		switch {
		case signer == nil:
			http.Error(w, "this aepgate App signs no certificates: it has no signing key, so no revocation list", http.StatusNotFound)
		case err != nil:
			http.Error(w, "the App's revocation list cannot be signed: "+err.Error(), http.StatusInternalServerError)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "public, max-age=300")
			_, _ = w.Write(append(body, '\n'))
		}
	})
}
