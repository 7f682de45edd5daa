package attest

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/json"
	"fmt"
)

// JWK is one public key as RFC 7517 writes it: Ed25519 as kty OKP
// (RFC 8037), P-256 as kty EC. Revoked is the member earlier aepgate
// versions wrote on revoked keys: it is read (such a key is revoked, at an
// unknown date) and never written, as revoked keys leave the JWKS and are
// published in the signed revocation list instead (SignRevocations).
type JWK struct {
	Kty     string `json:"kty"`
	Crv     string `json:"crv"`
	X       string `json:"x"`
	Y       string `json:"y,omitempty"`
	Kid     string `json:"kid,omitempty"`
	Alg     string `json:"alg,omitempty"`
	Use     string `json:"use,omitempty"`
	Revoked bool   `json:"revoked,omitempty"`
}

// JWKS is a JSON Web Key Set: what GET /.well-known/aepgate/keys serves and
// `aepgate keys` prints.
type JWKS struct {
	Keys []JWK `json:"keys"`
}

// thumbprint is the RFC 7638 thumbprint of j: the SHA-256 of the required
// members in lexicographic order without whitespace, base64url.
func (j JWK) thumbprint() string {
	var b bytes.Buffer
	switch j.Kty {
	case "EC":
		fmt.Fprintf(&b, `{"crv":%q,"kty":"EC","x":%q,"y":%q}`, j.Crv, j.X, j.Y)
	default:
		fmt.Fprintf(&b, `{"crv":%q,"kty":%q,"x":%q}`, j.Crv, j.Kty, j.X)
	}
	sum := sha256.Sum256(b.Bytes())
	return b64url.EncodeToString(sum[:])
}

// JWKS returns the key set of the ring's trusted keys, in its order: a
// revoked key is left out, so that a JWKS consumer that knows nothing of
// aepgate's revocation list no longer finds it.
func (r Keyring) JWKS() (JWKS, error) {
	out := JWKS{Keys: []JWK{}}
	for _, k := range r.Trusted() {
		j, err := jwkOf(k.Key)
		if err != nil {
			return JWKS{}, err
		}
		j.Kid = k.ID
		out.Keys = append(out.Keys, j)
	}
	return out, nil
}

// legacyRevoked is the revocation of a key marked "revoked": true in a
// JWKS written by an earlier aepgate version.
func legacyRevoked(id string) *Revocation {
	return &Revocation{KeyID: id, Reason: `marked "revoked" in the JWKS`}
}

// ParseJWKS reads a JWKS document into a Keyring. Every key must be an
// Ed25519 or P-256 signing key whose kid, when present, is its RFC 7638
// thumbprint: a kid naming another key is refused, never trusted. A key
// listed twice is one key, revoked if either entry says so (the
// "revoked" member of earlier aepgate versions).
func ParseJWKS(raw []byte) (Keyring, error) {
	var set JWKS
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&set); err != nil {
		return nil, fmt.Errorf("jwks: %w", err)
	}
	if len(set.Keys) == 0 {
		return nil, fmt.Errorf("jwks: no keys")
	}
	var ring Keyring
	for i, j := range set.Keys {
		k, err := j.PublicKey()
		if err != nil {
			return nil, fmt.Errorf("jwks: key %d: %w", i, err)
		}
		if prev := ring.find(k.ID); prev != nil {
			if prev.Revocation == nil {
				prev.Revocation = k.Revocation // listed twice: revoked if either says so
			}
			continue
		}
		ring = append(ring, k)
	}
	return ring, nil
}

// PublicKey returns the key j describes, with its thumbprint as ID.
func (j JWK) PublicKey() (PublicKey, error) {
	if j.Use != "" && j.Use != "sig" {
		return PublicKey{}, fmt.Errorf("use %q is not sig", j.Use)
	}
	pub, err := j.key()
	if err != nil {
		return PublicKey{}, err
	}
	id := j.thumbprint()
	if j.Kid != "" && j.Kid != id {
		return PublicKey{}, fmt.Errorf("kid %q is not the key's thumbprint %s", j.Kid, id)
	}
	k := PublicKey{ID: id, Key: pub}
	if j.Revoked {
		k.Revocation = legacyRevoked(id)
	}
	return k, nil
}

func (j JWK) key() (crypto.PublicKey, error) {
	x, err := b64url.DecodeString(j.X)
	if err != nil {
		return nil, fmt.Errorf("x: %w", err)
	}
	switch {
	case j.Kty == "OKP" && j.Crv == "Ed25519" && len(x) == ed25519.PublicKeySize:
		return ed25519.PublicKey(x), nil
	case j.Kty == "EC" && j.Crv == "P-256":
		y, err := b64url.DecodeString(j.Y)
		if err != nil || len(x) != 32 || len(y) != 32 {
			return nil, fmt.Errorf("P-256 coordinates must be 32 bytes each")
		}
		return ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
	default:
		return nil, fmt.Errorf("kty %q crv %q: %w", j.Kty, j.Crv, ErrKeyType)
	}
}
