package actionfetch

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeBinary is a script standing in for aepgate that prints its version.
func fakeBinary(version string) []byte {
	return []byte("#!/bin/sh\necho \"aepgate " + version + "\"\n")
}

func tarGz(t *testing.T, name string, body []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o755, Size: int64(len(body))}); err != nil {
		t.Fatal(err)
	}
	tw.Write(body)
	tw.Close()
	gz.Close()
	return buf.Bytes()
}

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// sign is what the release workflow's openssl dgst -sha256 -sign writes:
// an ECDSA signature over the SHA-256 of b, ASN.1 DER.
func sign(t *testing.T, key *ecdsa.PrivateKey, b []byte) []byte {
	t.Helper()
	h := sha256.Sum256(b)
	sig, err := ecdsa.SignASN1(rand.Reader, key, h[:])
	if err != nil {
		t.Fatal(err)
	}
	return sig
}

// fake is a local release host: releases served over HTTP, the action's
// tags in a local git repository, and the release key.
type fake struct {
	t     *testing.T
	key   *ecdsa.PrivateKey
	url   string
	hits  atomic.Int32
	mu    sync.Mutex
	files map[string][]byte // URL path → body
}

func newFake(t *testing.T) *fake {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	f := &fake{t: t, key: key, files: map[string][]byte{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		f.mu.Lock()
		b, ok := f.files[r.URL.Path]
		f.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

// publish adds release tag (vX.Y.Z): a linux/amd64 archive whose binary
// prints the tag, its checksums.txt and that file's signature.
func (f *fake) publish(tag string) {
	archive := tarGz(f.t, "aepgate", fakeBinary(tag))
	name := "aepgate_" + strings.TrimPrefix(tag, "v") + "_linux_amd64.tar.gz"
	sums := []byte(sum(archive) + "  " + name + "\n" + strings.Repeat("a", 64) + "  aepgate_" + strings.TrimPrefix(tag, "v") + "_darwin_arm64.tar.gz\n")
	f.set(tag, name, archive)
	f.set(tag, "checksums.txt", sums)
	f.set(tag, "checksums.txt.sig", sign(f.t, f.key, sums))
}

func (f *fake) set(tag, name string, b []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if b == nil {
		delete(f.files, "/"+tag+"/"+name)
		return
	}
	f.files["/"+tag+"/"+name] = b
}

func (f *fake) get(tag, name string) []byte {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.files["/"+tag+"/"+name]
}

// script copies fetch.sh into a folder of its own with key's public half
// as release-signing.pub (nil: no key file) and returns its path.
func script(t *testing.T, key *ecdsa.PrivateKey) string {
	t.Helper()
	dir := t.TempDir()
	b, err := os.ReadFile("fetch.sh")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fetch.sh"), b, 0o755); err != nil {
		t.Fatal(err)
	}
	if key != nil {
		der, err := x509.MarshalPKIXPublicKey(&key.PublicKey)
		if err != nil {
			t.Fatal(err)
		}
		pub := pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})
		if err := os.WriteFile(filepath.Join(dir, "release-signing.pub"), pub, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "fetch.sh")
}
