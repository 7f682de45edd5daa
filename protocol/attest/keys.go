package attest

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
)

// PublicKey is one key a verifier trusts (or knows to be revoked), named by
// its key ID: the RFC 7638 JWK thumbprint (SHA-256, base64url).
type PublicKey struct {
	ID string
	// Key is the public key; nil for a revoked key known by its ID alone
	// (Keyring.Revoke).
	Key crypto.PublicKey
	// Revocation, when set, marks a key that once signed but must no
	// longer be trusted: a signature by it is refused with the
	// revocation's date and reason.
	Revocation *Revocation
}

// Keyring is the set of public keys a verifier knows. Several may be valid
// at once (rotation); each is found by its ID.
type Keyring []PublicKey

// find returns the key whose ID is id, or nil.
func (r Keyring) find(id string) *PublicKey {
	for i := range r {
		if r[i].ID == id {
			return &r[i]
		}
	}
	return nil
}

// Signer signs with one private key: Ed25519 or ECDSA P-256.
type Signer struct {
	priv crypto.Signer
	pub  PublicKey
}

// ErrKeyType is returned for a key that is neither Ed25519 nor ECDSA P-256.
var ErrKeyType = errors.New("attest: only Ed25519 and ECDSA P-256 keys are supported")

// NewSigner returns the Signer of priv, an ed25519.PrivateKey or an
// *ecdsa.PrivateKey on P-256.
func NewSigner(priv crypto.Signer) (*Signer, error) {
	pub, err := NewPublicKey(priv.Public())
	if err != nil {
		return nil, err
	}
	return &Signer{priv: priv, pub: pub}, nil
}

// NewPublicKey returns pub with its key ID; pub must be an
// ed25519.PublicKey or an *ecdsa.PublicKey on P-256.
func NewPublicKey(pub crypto.PublicKey) (PublicKey, error) {
	j, err := jwkOf(pub)
	if err != nil {
		return PublicKey{}, err
	}
	return PublicKey{ID: j.thumbprint(), Key: pub}, nil
}

// Public returns the signer's public key.
func (s *Signer) Public() PublicKey { return s.pub }

// KeyID returns the signer's key ID.
func (s *Signer) KeyID() string { return s.pub.ID }

// sign signs msg: Ed25519 over msg itself, ECDSA over its SHA-256 with an
// ASN.1 DER signature (what DSSE implementations expect).
func (s *Signer) sign(msg []byte) ([]byte, error) {
	switch k := s.priv.(type) {
	case ed25519.PrivateKey:
		return ed25519.Sign(k, msg), nil
	case *ecdsa.PrivateKey:
		sum := sha256.Sum256(msg)
		return ecdsa.SignASN1(rand.Reader, k, sum[:])
	default:
		return nil, ErrKeyType
	}
}

// verifySig reports whether sig is pub's signature of msg.
func verifySig(pub crypto.PublicKey, msg, sig []byte) bool {
	switch k := pub.(type) {
	case ed25519.PublicKey:
		return len(k) == ed25519.PublicKeySize && ed25519.Verify(k, msg, sig)
	case *ecdsa.PublicKey:
		sum := sha256.Sum256(msg)
		return ecdsa.VerifyASN1(k, sum[:], sig)
	default:
		return false
	}
}

// b64url is unpadded base64url, as JWKs write key material.
var b64url = base64.RawURLEncoding

// jwkOf returns the public JWK of pub.
func jwkOf(pub crypto.PublicKey) (JWK, error) {
	switch k := pub.(type) {
	case ed25519.PublicKey:
		if len(k) != ed25519.PublicKeySize {
			return JWK{}, fmt.Errorf("attest: ed25519 public key of %d bytes", len(k))
		}
		return JWK{Kty: "OKP", Crv: "Ed25519", X: b64url.EncodeToString(k), Alg: "EdDSA", Use: "sig"}, nil
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return JWK{}, ErrKeyType
		}
		raw, err := k.Bytes()
		if err != nil {
			return JWK{}, fmt.Errorf("attest: %w", err)
		}
		return JWK{Kty: "EC", Crv: "P-256", X: b64url.EncodeToString(raw[1:33]), Y: b64url.EncodeToString(raw[33:]), Alg: "ES256", Use: "sig"}, nil
	default:
		return JWK{}, ErrKeyType
	}
}
