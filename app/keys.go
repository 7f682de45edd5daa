package app

import (
	"encoding/json"
	"net/http"

	"github.com/aepgate/aepgate/protocol/attest"
)

// KeysPath is where the App publishes, as a JWKS, the public keys that
// verify its signed certificates.
const KeysPath = "/.well-known/aepgate/keys"

// keysHandler serves the JWKS of o.PublicKeys (o.Signer's key alone when
// no list is given) as application/jwk-set+json. Without any key it
// answers 404 saying certificates are not signed.
func keysHandler(o Options) http.Handler {
	ring := o.PublicKeys
	if len(ring) == 0 && o.Signer != nil {
		ring = attest.Keyring{o.Signer.Public()}
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
