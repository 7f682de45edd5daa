package attest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/certificate"
)

const (
	shaA = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	shaM = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	repo = "octo/demo"
)

// sampleCert is a valid unit certificate for merge commit shaM.
func sampleCert() certificate.Certificate {
	return certificate.Certificate{
		SchemaVersion: certificate.SchemaVersion, Project: "demo", Repository: repo, PullRequest: 42,
		WorkUnit: "7", CandidateSha: shaA, AuditedSha: shaA, AuditorSessionID: "auditor-bot",
		AuditReviewID: 9001, AuditVerdict: "PASS",
		RequiredCiRunIds: []string{"1001"}, RequiredCiRuns: []certificate.Run{{ID: "1001", Workflow: "ci"}},
		RequiredCiAllSuccess: true, MergeSha: shaM,
		MergedMainRunIds: []string{"2001"}, MergedMainRuns: []certificate.Run{{ID: "2001", Workflow: "ci"}},
		MergedMainAllSuccess: true, HeadUnchanged: true, CreatedAt: 1767225600000,
	}
}

func canonicalOf(t testing.TB, c certificate.Certificate) []byte {
	t.Helper()
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// edSigner is a deterministic Ed25519 signer: seed byte b repeated.
func edSigner(t testing.TB, b byte) *Signer {
	t.Helper()
	s, err := NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{b}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// p256Signer is a deterministic ECDSA P-256 signer whose scalar is d.
func p256Signer(t testing.TB, d int64) *Signer {
	t.Helper()
	raw := make([]byte, 32)
	big.NewInt(d).FillBytes(raw)
	priv, err := ecdsa.ParseRawPrivateKey(elliptic.P256(), raw)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSigner(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// envelopeJSON signs the certificate with s and returns the envelope's JSON.
func envelopeJSON(t testing.TB, s *Signer, cert []byte) []byte {
	t.Helper()
	env, err := SignCertificate(s, Unit, repo, cert)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, env)
}

func marshal(t testing.TB, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// signPayload signs an arbitrary payload with s as an in-toto envelope.
func signPayload(t testing.TB, s *Signer, payload []byte) []byte {
	t.Helper()
	env, err := Sign(s, PayloadType, payload)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, env)
}

// editPayload decodes raw, applies edit to its payload and re-encodes it,
// keeping the signatures.
func editPayload(t testing.TB, raw []byte, edit func(string) string) []byte {
	t.Helper()
	var env Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	env.Payload = []byte(edit(string(env.Payload)))
	return marshal(t, &env)
}

// statementPayload returns a statement payload built by hand.
func statementPayload(t testing.TB, typ, ptype, subjectSHA string, cert []byte) []byte {
	t.Helper()
	return []byte(`{"_type":"` + typ + `","predicate":` + string(cert) + `,"predicateType":"` + ptype +
		`","subject":[{"digest":{"gitCommit":"` + subjectSHA + `"},"name":"` + CommitSubject(repo, subjectSHA).Name + `"}]}`)
}

func ring(ss ...*Signer) Keyring {
	var r Keyring
	for _, s := range ss {
		r = append(r, s.Public())
	}
	return r
}

// revocationOf is a revocation of s's key.
func revocationOf(s *Signer) Revocation {
	return Revocation{KeyID: s.KeyID(), RevokedAt: "2026-12-01T09:30:00Z", Reason: "the key file was copied to a laptop that was stolen"}
}

// revoked is s's public key, revoked.
func revoked(s *Signer) PublicKey {
	return Keyring{s.Public()}.Revoke(Revocations{revocationOf(s)})[0]
}

func funcName(f any) string { return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name() }

func without(name string) []rule {
	var out []rule
	for _, r := range allRules() {
		if !strings.HasSuffix(funcName(r), "."+name) {
			out = append(out, r)
		}
	}
	if len(out) != len(allRules())-1 {
		panic("no rule " + name)
	}
	return out
}

func digest(b []byte) [32]byte { return sha256.Sum256(b) }

func jsonUnmarshal(raw []byte, v any) error { return json.Unmarshal(raw, v) }

// The tests build the statement the slow way, as a reference for
// SignCertificate's spliced payload.

// NewStatement returns the statement of a certificate (its canonical JSON)
// of kind k in repository: one subject, the commit the certificate's
// k.SubjectKey field names.
func NewStatement(k Kind, repository string, cert []byte) (Statement, error) {
	m, err := canonical.ParseObject(cert, canonical.Options{RejectDuplicateKeys: true})
	if err != nil {
		return Statement{}, fmt.Errorf("statement: %w", err)
	}
	sha, ok := m[k.SubjectKey].(string)
	if !ok || sha == "" {
		return Statement{}, fmt.Errorf("statement: the %s certificate has no %s", k.Name, k.SubjectKey)
	}
	return Statement{Type: StatementType, Subject: []Subject{CommitSubject(repository, sha)}, PredicateType: k.PredicateType, Predicate: m}, nil
}

// Payload returns the statement's canonical JSON, the bytes a DSSE
// envelope carries and signs.
func (s Statement) Payload() ([]byte, error) {
	subjects := make([]any, 0, len(s.Subject))
	for _, sub := range s.Subject {
		digest := map[string]any{}
		for k, v := range sub.Digest {
			digest[k] = v
		}
		subjects = append(subjects, map[string]any{"name": sub.Name, "digest": digest})
	}
	var b bytes.Buffer
	err := canonical.Write(&b, map[string]any{"_type": s.Type, "subject": subjects, "predicateType": s.PredicateType, "predicate": s.Predicate})
	if err != nil {
		return nil, fmt.Errorf("statement: %w", err)
	}
	return b.Bytes(), nil
}
