package attest

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVerifyValid(t *testing.T) {
	cert := canonicalOf(t, sampleCert())
	old, cur := edSigner(t, 1), p256Signer(t, 7)
	tests := []struct {
		name string
		s    *Signer
		ring Keyring
		want Want
	}{
		{"ed25519", old, ring(old), Want{}},
		{"p-256", cur, ring(cur), Want{SHA: shaM}},
		{"rotation: an earlier key still valid", old, ring(cur, old), Want{SHA: shaM}},
		{"the right repository, in another case", cur, ring(cur), Want{SHA: shaM, Repository: "Octo/Demo"}},
		{"a revoked key beside does not matter", cur, Keyring{revoked(old), cur.Public()}, Want{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Verify(envelopeJSON(t, tt.s, cert), tt.ring, tt.want)
			if err != nil {
				t.Fatalf("Verify: %v", err)
			}
			want := &Verified{KeyID: tt.s.KeyID(), Subject: CommitSubject(repo, shaM), Repository: repo, SHA: shaM, Certificate: cert, Fingerprint: sum(cert)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Verified (-want +got):\n%s", diff)
			}
		})
	}
}

func sum(b []byte) string {
	d := digest(b)
	const hexd = "0123456789abcdef"
	var sb strings.Builder
	for _, c := range d {
		sb.WriteByte(hexd[c>>4])
		sb.WriteByte(hexd[c&15])
	}
	return sb.String()
}

// attack is an envelope Verify must refuse with token, and the negative
// control that shows the one rule (or trust decision) behind the refusal:
// verified without rule drop, or against controlRing, it passes.
type attack struct {
	name        string
	raw         []byte
	ring        Keyring
	want        Want
	token       string
	drop        string
	controlRing Keyring
}

func attacks(t *testing.T) []attack {
	key, other := edSigner(t, 1), edSigner(t, 2)
	cert := canonicalOf(t, sampleCert())
	good := envelopeJSON(t, key, cert)
	bad := sampleCert()
	bad.AuditVerdict = "FAIL"
	return []attack{
		{name: "a flipped byte in the payload", raw: editPayload(t, good, func(p string) string { return strings.Replace(p, "auditor-bot", "auditor-bos", 1) }),
			ring: ring(key), token: TokenBadSignature, drop: "ruleSignature"},
		{name: "another key's signature under the trusted key's ID", raw: retag(t, envelopeJSON(t, other, cert), key.KeyID()),
			ring: ring(key), token: TokenBadSignature, drop: "ruleSignature"},
		{name: "a signature by an unknown key", raw: envelopeJSON(t, other, cert),
			ring: ring(key), token: TokenUnknownKey, controlRing: ring(key, other)},
		{name: "a signature by a revoked key", raw: good,
			ring: Keyring{revoked(key)}, token: TokenRevokedKey, drop: "ruleNotRevoked"},
		{name: "a signature by a revoked key the verifier no longer holds (it left the JWKS)", raw: good,
			ring: ring(other).Revoke(Revocations{revocationOf(key)}), token: TokenRevokedKey, controlRing: ring(other, key)},
		{name: "a fork: the genuine certificate of another repository at the same commit", raw: good,
			ring: ring(key), want: Want{SHA: shaM, Repository: "mallory/demo"}, token: TokenRepository, drop: "ruleRepositoryWanted"},
		{name: "a subject naming another repository than the certificate", raw: signedFor(t, key, "mallory/demo", cert),
			ring: ring(key), want: Want{Repository: "mallory/demo"}, token: TokenSubjectRepository, drop: "ruleSubjectRepository"},
		{name: "a subject naming no repository", raw: signPayload(t, key, []byte(strings.Replace(string(statementPayload(t, StatementType, PredicateType, shaM, cert)), CommitSubject(repo, shaM).Name, "x", 1))),
			ring: ring(key), token: TokenSubjectRepository, drop: "ruleSubjectRepository"},
		{name: "a statement for another SHA", raw: good,
			ring: ring(key), want: Want{SHA: shaA}, token: TokenSubjectSHA, drop: "ruleSubjectWanted"},
		{name: "a statement whose subject is not the certificate's merge commit", raw: signPayload(t, key, statementPayload(t, StatementType, PredicateType, shaA, cert)),
			ring: ring(key), token: TokenSubjectCertificate, drop: "ruleSubjectIsCertificate"},
		{name: "a signed certificate that breaks the certificate rules", raw: envelopeJSON(t, key, canonicalOf(t, bad)),
			ring: ring(key), token: TokenCertificateInvalid, drop: "ruleCertificate"},
		{name: "another predicate type", raw: signPayload(t, key, statementPayload(t, StatementType, "https://slsa.dev/provenance/v1", shaM, cert)),
			ring: ring(key), token: TokenPredicateType, drop: "ruleTypes"},
		{name: "another statement type", raw: signPayload(t, key, statementPayload(t, "https://in-toto.io/Statement/v0.1", PredicateType, shaM, cert)),
			ring: ring(key), token: TokenStatementType, drop: "ruleTypes"},
		{name: "bytes signed as another payload type", raw: retype(t, key, cert),
			ring: ring(key), token: TokenPayloadType, drop: "rulePayloadType"},
	}
}

func TestVerifyRefusesAttacks(t *testing.T) {
	for _, a := range attacks(t) {
		t.Run(a.name, func(t *testing.T) {
			_, err := Verify(a.raw, a.ring, a.want)
			var r *Refused
			if !errors.As(err, &r) {
				t.Fatalf("Verify = %v, want a refusal %s", err, a.token)
			}
			if r.Token != a.token {
				t.Errorf("token = %s (%v), want %s", r.Token, r, a.token)
			}
		})
	}
}

// TestVerifyAttacksNegativeControl runs each attack with its one rule
// removed (or the attacker's key trusted): it then passes, so each
// refusal above is that rule's doing.
func TestVerifyAttacksNegativeControl(t *testing.T) {
	for _, a := range attacks(t) {
		t.Run(a.name, func(t *testing.T) {
			rules, r := allRules(), a.ring
			if a.drop != "" {
				rules = without(a.drop)
			} else {
				r = a.controlRing
			}
			if _, err := verify(a.raw, r, a.want, rules); err != nil {
				t.Errorf("with the rule off the attack is still refused: %v", err)
			}
		})
	}
}

// TestVerifyMessagesDiffer: each kind of refusal has its own message.
func TestVerifyMessagesDiffer(t *testing.T) {
	seen, tokens := map[string]string{}, map[string]bool{}
	for _, a := range attacks(t) {
		_, err := Verify(a.raw, a.ring, a.want)
		if err == nil {
			t.Fatalf("%s: accepted", a.name)
		}
		if tokens[a.token] {
			continue
		}
		tokens[a.token] = true
		msg := err.Error()
		if prev, ok := seen[msg]; ok {
			t.Errorf("%q and %q are refused with the same message %q", prev, a.name, msg)
		}
		seen[msg] = a.name
	}
}

func TestVerifyMalformed(t *testing.T) {
	key := edSigner(t, 1)
	cert := canonicalOf(t, sampleCert())
	tests := []struct {
		name  string
		raw   []byte
		token string
	}{
		{"not json", []byte("{"), TokenEnvelopeMalformed},
		{"bad base64", []byte(`{"payloadType":"` + PayloadType + `","payload":"%%","signatures":[]}`), TokenEnvelopeMalformed},
		{"no signatures", []byte(`{"payloadType":"` + PayloadType + `","payload":"e30=","signatures":[]}`), TokenSignatureMissing},
		{"payload not json", signPayload(t, key, []byte("not json")), TokenStatementMalformed},
		{"duplicate key", signPayload(t, key, []byte(strings.Replace(string(statementPayload(t, StatementType, PredicateType, shaM, cert)), `{"_type"`, `{"_type":"x","_type"`, 1))), TokenStatementMalformed},
		{"two subjects", signPayload(t, key, []byte(strings.Replace(string(statementPayload(t, StatementType, PredicateType, shaM, cert)), `"subject":[`, `"subject":[{"digest":{"gitCommit":"`+shaM+`"}},`, 1))), TokenStatementMalformed},
		{"subject not a sha", signPayload(t, key, statementPayload(t, StatementType, PredicateType, "main", cert)), TokenStatementMalformed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Verify(tt.raw, ring(key), Want{})
			var r *Refused
			if !errors.As(err, &r) || r.Token != tt.token {
				t.Errorf("Verify = %v, want token %s", err, tt.token)
			}
		})
	}
}

func retag(t *testing.T, raw []byte, kid string) []byte {
	t.Helper()
	var env Envelope
	if err := jsonUnmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	env.Signatures[0].KeyID = kid
	return marshal(t, &env)
}

// retype signs the statement of cert under another payload type (bytes
// the key signed for another purpose): a verifier that skipped the type
// check would read them as a statement.
func retype(t *testing.T, s *Signer, cert []byte) []byte {
	t.Helper()
	st, err := NewStatement(Unit, repo, cert)
	if err != nil {
		t.Fatal(err)
	}
	payload, err := st.Payload()
	if err != nil {
		t.Fatal(err)
	}
	env, err := Sign(s, "application/json", payload)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, env)
}

// TestSplicedPayloadIsCanonical: SignCertificate's spliced payload is
// byte for byte the statement's canonical JSON, also for a repository name
// and fields that need escaping.
func TestSplicedPayloadIsCanonical(t *testing.T) {
	c := sampleCert()
	c.Project = "dé\"mo<&>"
	cert := canonicalOf(t, c)
	for _, r := range []string{repo, "o/r\"é"} {
		st, err := NewStatement(Unit, r, cert)
		if err != nil {
			t.Fatal(err)
		}
		want, err := st.Payload()
		if err != nil {
			t.Fatal(err)
		}
		got, err := unitPayload(Unit, r, cert)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("%s: spliced payload (-canonical +spliced):\n%s", r, diff)
		}
	}
}

// signedFor signs cert's statement with a subject in repository r.
func signedFor(t *testing.T, s *Signer, r string, cert []byte) []byte {
	t.Helper()
	env, err := SignCertificate(s, Unit, r, cert)
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, env)
}

// TestRevokedRefusalSaysWhenAndWhy: the refusal of a revoked key's
// signature names the revocation's date and reason.
func TestRevokedRefusalSaysWhenAndWhy(t *testing.T) {
	key, other := edSigner(t, 1), edSigner(t, 2)
	raw := envelopeJSON(t, key, canonicalOf(t, sampleCert()))
	for name, r := range map[string]Keyring{"held": {revoked(key)}, "not held": ring(other).Revoke(Revocations{revocationOf(key)})} {
		_, err := Verify(raw, r, Want{})
		rev := revocationOf(key)
		if err == nil || !strings.Contains(err.Error(), rev.RevokedAt) || !strings.Contains(err.Error(), rev.Reason) {
			t.Errorf("%s: Verify = %v, want the revocation's date and reason", name, err)
		}
	}
}

func TestSubjectRepository(t *testing.T) {
	tests := []struct {
		name string
		s    Subject
		want string
	}{
		{"github", CommitSubject("octo/demo", shaM), "octo/demo"},
		{"another host", Subject{Name: "https://ghe.example/octo/demo/commit/" + shaM, Digest: map[string]string{"gitCommit": shaM}}, "octo/demo"},
		{"another commit than the digest", Subject{Name: "https://github.com/octo/demo/commit/" + shaA, Digest: map[string]string{"gitCommit": shaM}}, ""},
		{"not a commit", Subject{Name: "https://github.com/octo/demo/tree/" + shaM, Digest: map[string]string{"gitCommit": shaM}}, ""},
		{"a path too deep", Subject{Name: "https://github.com/octo/demo/x/commit/" + shaM, Digest: map[string]string{"gitCommit": shaM}}, ""},
		{"not https", Subject{Name: "http://github.com/octo/demo/commit/" + shaM, Digest: map[string]string{"gitCommit": shaM}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := SubjectRepository(tt.s); got != tt.want {
				t.Errorf("SubjectRepository = %q, want %q", got, tt.want)
			}
		})
	}
}
