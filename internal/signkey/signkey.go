// Package signkey reads aepgate's signing key and the public keys that
// verify its attestations: PEM in (PKCS #8 or SEC 1 private keys, PKIX
// public keys) or a JWKS document, protocol/attest values out. It reads no
// file itself: callers pass the bytes (from a file or an environment
// variable, read at the composition root).
package signkey

import (
	"bytes"
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"

	"github.com/aepgate/aepgate/protocol/attest"
)

// ParseSigner reads one PEM private key: PKCS #8 ("PRIVATE KEY", Ed25519
// or ECDSA P-256) or SEC 1 ("EC PRIVATE KEY", P-256).
func ParseSigner(raw []byte) (*attest.Signer, error) {
	block, _ := pem.Decode(raw)
	if block == nil {
		return nil, errors.New("signing key: no PEM block")
	}
	var key any
	var err error
	switch block.Type {
	case "PRIVATE KEY":
		key, err = x509.ParsePKCS8PrivateKey(block.Bytes)
	case "EC PRIVATE KEY":
		key, err = x509.ParseECPrivateKey(block.Bytes)
	default:
		return nil, fmt.Errorf("signing key: PEM block %q: want PRIVATE KEY (PKCS #8) or EC PRIVATE KEY", block.Type)
	}
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	s, ok := key.(crypto.Signer)
	if !ok {
		return nil, fmt.Errorf("signing key: %T cannot sign", key)
	}
	signer, err := attest.NewSigner(s)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	return signer, nil
}

// ParseKeyring reads public keys: a JWKS document (a key marked "revoked",
// as earlier aepgate versions wrote, is read as revoked), or one or more
// PEM "PUBLIC KEY" blocks (each trusted).
func ParseKeyring(raw []byte) (attest.Keyring, error) {
	trimmed := bytes.TrimSpace(raw)
	if bytes.HasPrefix(trimmed, []byte("{")) {
		return attest.ParseJWKS(trimmed)
	}
	var ring attest.Keyring
	for rest := trimmed; len(rest) > 0; {
		var block *pem.Block
		block, rest = pem.Decode(rest)
		if block == nil {
			break
		}
		if block.Type != "PUBLIC KEY" {
			return nil, fmt.Errorf("public keys: PEM block %q: want PUBLIC KEY", block.Type)
		}
		pub, err := x509.ParsePKIXPublicKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("public keys: %w", err)
		}
		k, err := attest.NewPublicKey(pub)
		if err != nil {
			return nil, fmt.Errorf("public keys: %w", err)
		}
		ring = append(ring, k)
	}
	if len(ring) == 0 {
		return nil, errors.New("public keys: neither a JWKS document nor PEM PUBLIC KEY blocks")
	}
	return ring, nil
}

// PublicPEM writes k as a PEM "PUBLIC KEY" block.
func PublicPEM(k attest.PublicKey) ([]byte, error) {
	der, err := x509.MarshalPKIXPublicKey(k.Key)
	if err != nil {
		return nil, fmt.Errorf("public key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), nil
}

// Generate makes a new Ed25519 signing key and returns it as PKCS #8 PEM.
func Generate() ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate key: %w", err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("generate key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}), nil
}

// Merge returns the keyring the App publishes and trusts: the signer's
// public key followed by the others, without repeating a key ID, and
// without the keys revs revokes, which leave the JWKS (the signed
// revocation list names them instead). It refuses a signer whose own key
// revs revokes, and a key the others mark "revoked" (the JWKS member of
// earlier aepgate versions), which must move to the revocation list with
// its date and reason so that verifiers holding that key learn of it.
func Merge(signer *attest.Signer, others attest.Keyring, revs attest.Revocations) (attest.Keyring, error) {
	if signer != nil {
		if r := revs.Find(signer.KeyID()); r != nil {
			return nil, fmt.Errorf("the signing key is revoked (%s): sign with a new key ('aepgate keys generate')", r)
		}
	}
	for _, k := range others {
		if k.Revocation != nil && revs.Find(k.ID) == nil {
			return nil, fmt.Errorf(`public keys: key %s is marked "revoked": list it in the revocations file with the date and reason of its revocation, and drop the "revoked" member`, k.ID)
		}
	}
	out := attest.Keyring{}
	seen := map[string]bool{}
	add := func(k attest.PublicKey) {
		if seen[k.ID] || revs.Find(k.ID) != nil {
			return
		}
		seen[k.ID] = true
		k.Revocation = nil
		out = append(out, k)
	}
	if signer != nil {
		add(signer.Public())
	}
	for _, k := range others {
		add(k)
	}
	return out, nil
}
