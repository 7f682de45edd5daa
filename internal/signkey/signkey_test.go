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

func TestMergeKeepsRevocation(t *testing.T) {
	s, _ := ParseSigner(must(Generate()))
	other, _ := ParseSigner(must(Generate()))
	own := s.Public()
	own.Revoked = true
	got := Merge(s, attest.Keyring{own, other.Public()})
	if len(got) != 2 || got[0].ID != s.KeyID() || !got[0].Revoked || got[1].Revoked {
		t.Errorf("Merge = %+v", got)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
