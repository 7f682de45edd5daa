package attest

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
)

func TestJWKSGolden(t *testing.T) {
	r := Keyring{edSigner(t, 1).Public(), p256Signer(t, 7).Public(), revoked(edSigner(t, 2))}
	set, err := r.JWKS()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.MarshalIndent(set, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "keys.golden.json"), append(raw, '\n'))
	back, err := ParseJWKS(raw)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ids(r[:2]), ids(back)); diff != "" {
		t.Errorf("round trip key IDs (-want +got):\n%s", diff)
	}
}

// TestJWKSLeavesRevokedKeysOut: a JWKS consumer that knows nothing of
// aepgate's revocation list, reading the JWKS with a plain JSON decoder,
// does not find a revoked key. Negative control: the same ring without
// the revocation publishes the key.
func TestJWKSLeavesRevokedKeysOut(t *testing.T) {
	cur, old := edSigner(t, 1), edSigner(t, 2)
	for _, tt := range []struct {
		name      string
		ring      Keyring
		wantFound bool
	}{
		{"revoked", Keyring{cur.Public(), old.Public()}.Revoke(Revocations{revocationOf(old)}), false},
		{"control: not revoked", Keyring{cur.Public(), old.Public()}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			set, err := tt.ring.JWKS()
			if err != nil {
				t.Fatal(err)
			}
			raw := marshal(t, set)
			var plain struct {
				Keys []map[string]any `json:"keys"`
			}
			if err := json.Unmarshal(raw, &plain); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, k := range plain.Keys {
				found = found || k["kid"] == old.KeyID()
				if _, ok := k["revoked"]; ok {
					t.Errorf("key %v carries a revoked member", k["kid"])
				}
			}
			if found != tt.wantFound {
				t.Errorf("revoked key in the JWKS = %v, want %v:\n%s", found, tt.wantFound, raw)
			}
		})
	}
}

// TestParseJWKSReadsTheEarlierRevokedMember: a JWKS written by an earlier
// aepgate version, marking a key "revoked": true, still gets that key's
// signatures refused as revoked.
func TestParseJWKSReadsTheEarlierRevokedMember(t *testing.T) {
	s := edSigner(t, 1)
	j, err := jwkOf(s.Public().Key)
	if err != nil {
		t.Fatal(err)
	}
	j.Kid, j.Revoked = s.KeyID(), true
	r, err := ParseJWKS(marshal(t, JWKS{Keys: []JWK{j}}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Verify(envelopeJSON(t, s, canonicalOf(t, sampleCert())), r, Want{})
	var ref *Refused
	if !errors.As(err, &ref) || ref.Token != TokenRevokedKey {
		t.Errorf("Verify = %v, want %s", err, TokenRevokedKey)
	}
}

// TestThumbprintRFC7638 checks the key ID against RFC 8037 appendix A.3:
// the thumbprint of its Ed25519 example key.
func TestThumbprintRFC7638(t *testing.T) {
	j := JWK{Kty: "OKP", Crv: "Ed25519", X: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
	if got, want := j.thumbprint(), "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k"; got != want {
		t.Errorf("thumbprint = %s, want %s", got, want)
	}
}

func TestParseJWKSRefuses(t *testing.T) {
	good := JWK{Kty: "OKP", Crv: "Ed25519", X: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}
	tests := []struct {
		name string
		key  JWK
		want string
	}{
		{"kid naming another key", func() JWK { j := good; j.Kid = "someone-else"; return j }(), "not the key's thumbprint"},
		{"an encryption key", func() JWK { j := good; j.Use = "enc"; return j }(), "is not sig"},
		{"RSA", JWK{Kty: "RSA", X: "AQAB"}, "only Ed25519 and ECDSA P-256"},
		{"short ed25519", JWK{Kty: "OKP", Crv: "Ed25519", X: "AAAA"}, "only Ed25519 and ECDSA P-256"},
		{"P-256 point off the curve", JWK{Kty: "EC", Crv: "P-256", X: strings.Repeat("A", 43), Y: strings.Repeat("A", 43)}, "not on curve"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, _ := json.Marshal(JWKS{Keys: []JWK{tt.key}})
			_, err := ParseJWKS(raw)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ParseJWKS = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	twice, _ := json.Marshal(JWKS{Keys: []JWK{good, func() JWK { j := good; j.Revoked = true; return j }()}})
	if r, err := ParseJWKS(twice); err != nil || len(r) != 1 || r[0].Revocation == nil {
		t.Errorf("a key listed twice, once revoked: %+v, %v; want one revoked key", r, err)
	}
	if _, err := ParseJWKS([]byte(`{"keys":[]}`)); err == nil {
		t.Error("an empty key set was accepted")
	}
}

func TestEnvelopeGolden(t *testing.T) {
	raw := envelopeJSON(t, edSigner(t, 1), canonicalOf(t, sampleCert()))
	golden.Check(t, filepath.Join("testdata", "unit.envelope.golden.json"), append(raw, '\n'))
}

func TestPAE(t *testing.T) {
	// The DSSE protocol's worked example.
	got := string(PAE("http://example.com/HelloWorld", []byte("hello world")))
	if want := "DSSEv1 29 http://example.com/HelloWorld 11 hello world"; got != want {
		t.Errorf("PAE = %q, want %q", got, want)
	}
}
