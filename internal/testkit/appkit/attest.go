package appkit

import (
	"bytes"
	"crypto/ed25519"
	"io"
	"net/http"
	"testing"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/protocol/attest"
)

// Signer is a signer whose Ed25519 key is derived from seed (one key per
// seed, the same in every run).
func Signer(t *testing.T, seed byte) *attest.Signer {
	t.Helper()
	s, err := attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// FetchJWKS reads the signing keys the App at base serves (app.KeysPath).
func FetchJWKS(t *testing.T, base string) attest.Keyring {
	t.Helper()
	resp, err := http.Get(base + app.KeysPath)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/jwk-set+json" {
		t.Fatalf("GET %s: %d %s %s", app.KeysPath, resp.StatusCode, resp.Header.Get("Content-Type"), raw)
	}
	ring, err := attest.ParseJWKS(raw)
	if err != nil {
		t.Fatal(err)
	}
	return ring
}
