package attest

import "encoding/json"

// BundleMediaType is the media type of a Sigstore bundle v0.3.
const BundleMediaType = "application/vnd.dev.sigstore.bundle.v0.3+json"

// Bundle is a Sigstore bundle (v0.3) holding a DSSE envelope whose key is
// named by a public-key hint (the key ID) rather than a certificate: the
// body GitHub's attestations API stores, and what Sigstore's verifiers read
// given the public key. It carries no transparency-log entry: aepgate's
// keys are its own, published as a JWKS.
type Bundle struct {
	MediaType            string               `json:"mediaType"`
	VerificationMaterial VerificationMaterial `json:"verificationMaterial"`
	DSSEEnvelope         *Envelope            `json:"dsseEnvelope"`
}

// VerificationMaterial names the signing key by its hint.
type VerificationMaterial struct {
	PublicKey   PublicKeyHint `json:"publicKey"`
	TlogEntries []struct{}    `json:"tlogEntries"`
}

// PublicKeyHint is a bundle's reference to a key the verifier holds.
type PublicKeyHint struct {
	Hint string `json:"hint"`
}

// NewBundle wraps env, whose first signature names its key.
func NewBundle(env *Envelope) Bundle {
	hint := ""
	if len(env.Signatures) > 0 {
		hint = env.Signatures[0].KeyID
	}
	return Bundle{MediaType: BundleMediaType, VerificationMaterial: VerificationMaterial{PublicKey: PublicKeyHint{Hint: hint}, TlogEntries: []struct{}{}}, DSSEEnvelope: env}
}

// Unbundle returns the DSSE envelope JSON that raw holds: raw itself, or
// the dsseEnvelope of a Sigstore bundle, so a verifier reads either.
func Unbundle(raw []byte) []byte {
	var b struct {
		DSSEEnvelope json.RawMessage `json:"dsseEnvelope"`
	}
	if json.Unmarshal(raw, &b) == nil && len(b.DSSEEnvelope) > 0 {
		return b.DSSEEnvelope
	}
	return raw
}
