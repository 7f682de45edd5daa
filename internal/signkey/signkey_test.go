package signkey

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/protocol/attest"
)

func TestParseSignerAndKeyring(t *testing.T) {
	edPEM, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	sec1, _ := x509.MarshalECPrivateKey(ec)
	ecPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: sec1})
	for name, raw := range map[string][]byte{"ed25519 pkcs8": edPEM, "p-256 sec1": ecPEM} {
		t.Run(name, func(t *testing.T) {
			s, err := ParseSigner(raw)
			if err != nil {
				t.Fatal(err)
			}
			pub, err := PublicPEM(s.Public())
			if err != nil {
				t.Fatal(err)
			}
			ring, err := ParseKeyring(pub)
			if err != nil {
				t.Fatal(err)
			}
			set, _ := ring.JWKS()
			doc, _ := json.Marshal(set)
			fromJWKS, err := ParseKeyring(doc)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{s.KeyID(), s.KeyID()}, []string{ring[0].ID, fromJWKS[0].ID}); diff != "" {
				t.Errorf("key IDs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseRefuses(t *testing.T) {
	rsa := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: []byte{1}})
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"not pem", second(ParseSigner([]byte("hello"))), "no PEM block"},
		{"rsa", second(ParseSigner(rsa)), "want PRIVATE KEY"},
		{"private key as public keys", second(ParseKeyring(rsa)), "want PUBLIC KEY"},
		{"nothing", second(ParseKeyring([]byte("x"))), "neither a JWKS"},
	}
	for _, tt := range tests {
		if tt.err == nil || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, tt.err, tt.want)
		}
	}
}

func second[T any](_ T, err error) error { return err }

// TestMergeLeavesRevokedKeysOut: a revoked key leaves the published
// keyring; a revoked signing key, or a key marked "revoked" the old way
// and absent from the revocation list, is refused.
func TestMergeLeavesRevokedKeysOut(t *testing.T) {
	s, _ := ParseSigner(must(Generate()))
	old, _ := ParseSigner(must(Generate()))
	prev, _ := ParseSigner(must(Generate()))
	rev := attest.Revocation{KeyID: old.KeyID(), RevokedAt: "2026-12-01T00:00:00Z", Reason: "lost"}
	got, err := Merge(s, attest.Keyring{old.Public(), prev.Public(), s.Public()}, attest.Revocations{rev})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{s.KeyID(), prev.KeyID()}, []string{got[0].ID, got[1].ID}); diff != "" || len(got) != 2 {
		t.Errorf("Merge key IDs (-want +got):\n%s (%d keys)", diff, len(got))
	}
	if _, err := Merge(old, nil, attest.Revocations{rev}); err == nil || !strings.Contains(err.Error(), "the signing key is revoked") {
		t.Errorf("a revoked signing key: %v", err)
	}
	marked := attest.Keyring{old.Public()}.Revoke(attest.Revocations{{KeyID: old.KeyID()}})
	if _, err := Merge(s, marked, nil); err == nil || !strings.Contains(err.Error(), "revocations file") {
		t.Errorf(`a key marked "revoked" outside the list: %v`, err)
	}
	if got, err := Merge(s, marked, attest.Revocations{rev}); err != nil || len(got) != 1 {
		t.Errorf(`a key marked "revoked" and listed: %v, %v`, got, err)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
