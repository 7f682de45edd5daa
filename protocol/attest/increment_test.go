package attest

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

const shaI = "cccccccccccccccccccccccccccccccccccccccc"

// sampleIncrement is a valid medium increment certificate integrated at
// shaI whose one story, unit 7, merged as shaM with the certificate cert
// signed as storyEnv.
func sampleIncrement(t testing.TB, cert, storyEnv []byte) []byte {
	t.Helper()
	d, err := EnvelopeDigest(storyEnv)
	if err != nil {
		t.Fatal(err)
	}
	c := incrementrules.Certificate{SchemaVersion: incrementrules.SchemaVersion, Kind: incrementrules.Kind, Repository: repo, Milestone: 3, Title: "M3",
		RiskTier: "medium", IntegratedSha: shaI, ReadbackRunIds: []string{"3001"}, ReadbackRuns: []certificate.Run{{ID: "3001", Workflow: "ci"}},
		Stories: []incrementrules.CertStory{{Unit: 7, Risk: "medium", MergeSha: shaM, CertificateSha256: sum(cert), EnvelopeSha256: d}}}
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// incrementFixture is a unit envelope and the increment envelope naming
// it, both signed by s.
func incrementFixture(t testing.TB, s *Signer) (inc, story, cert []byte) {
	t.Helper()
	cert = canonicalOf(t, sampleCert())
	story = envelopeJSON(t, s, cert)
	env, err := SignCertificate(s, Increment, repo, sampleIncrement(t, cert, story))
	if err != nil {
		t.Fatal(err)
	}
	return marshal(t, env), story, cert
}

func TestVerifyIncrementValid(t *testing.T) {
	for _, s := range []*Signer{edSigner(t, 1), p256Signer(t, 7)} {
		inc, story, cert := incrementFixture(t, s)
		got, err := VerifyIncrement(inc, ring(s), Want{SHA: shaI}, [][]byte{story})
		if err != nil {
			t.Fatalf("VerifyIncrement: %v", err)
		}
		d, _ := EnvelopeDigest(story)
		body := sampleIncrement(t, cert, story)
		want := &VerifiedIncrement{Verified: Verified{KeyID: s.KeyID(), Subject: CommitSubject(repo, shaI), Repository: repo, SHA: shaI, Certificate: body, Fingerprint: sum(body)},
			Stories: []VerifiedStory{{Unit: 7, MergeSha: shaM, EnvelopeSha256: d, KeyID: s.KeyID()}}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("VerifiedIncrement (-want +got):\n%s", diff)
		}
		// A bundle of the story envelope, pretty-printed, is the same envelope.
		if _, err := VerifyIncrement(inc, ring(s), Want{}, [][]byte{[]byte(" " + string(marshal(t, NewBundle(mustEnvelope(t, story)))) + "\n")}); err != nil {
			t.Errorf("story given as a bundle: %v", err)
		}
	}
}

// TestEnvelopeDigestIsOfPublishedBytes: the digest of an envelope as the
// App publishes it (json.Marshal of the envelope) is the SHA-256 of those
// very bytes.
func TestEnvelopeDigestIsOfPublishedBytes(t *testing.T) {
	raw := envelopeJSON(t, edSigner(t, 1), canonicalOf(t, sampleCert()))
	got, err := EnvelopeDigest(raw)
	if err != nil || got != sum(raw) {
		t.Errorf("EnvelopeDigest = %s, %v; want %s", got, err, sum(raw))
	}
}

func mustEnvelope(t testing.TB, raw []byte) *Envelope {
	t.Helper()
	var e Envelope
	if err := jsonUnmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return &e
}

// incrementAttack is an increment envelope VerifyIncrement must refuse
// with token; with rule drop removed (or, drop empty, with controlRing
// trusted) it passes: the negative control.
type incrementAttack struct {
	name        string
	raw         []byte
	stories     [][]byte
	ring        Keyring
	token       string
	drop        string
	controlRing Keyring
}

func incrementAttacks(t *testing.T) []incrementAttack {
	key, other := edSigner(t, 1), edSigner(t, 2)
	inc, story, cert := incrementFixture(t, key)
	otherInc, otherStory, _ := incrementFixture(t, other)
	mismatch := sampleCert()
	mismatch.WorkUnit = "8"
	wrongUnit := envelopeJSON(t, key, canonicalOf(t, mismatch))
	wrongInc, err := SignCertificate(key, Increment, repo, sampleIncrement(t, cert, wrongUnit))
	if err != nil {
		t.Fatal(err)
	}
	strangerStory := envelopeJSON(t, other, cert)
	strangerInc, err := SignCertificate(key, Increment, repo, sampleIncrement(t, cert, strangerStory))
	if err != nil {
		t.Fatal(err)
	}
	forkCert := sampleCert()
	forkCert.Repository = "mallory/demo"
	forkStory := signedFor(t, key, "mallory/demo", canonicalOf(t, forkCert))
	forkInc, err := SignCertificate(key, Increment, repo, sampleIncrement(t, canonicalOf(t, forkCert), forkStory))
	if err != nil {
		t.Fatal(err)
	}
	return []incrementAttack{
		{name: "a story envelope of another repository", raw: marshal(t, forkInc), stories: [][]byte{forkStory}, ring: ring(key), token: TokenStoryEnvelopeInvalid, drop: "ruleStories"},
		{name: "a changed byte in the increment payload", raw: editPayload(t, inc, func(p string) string { return strings.Replace(p, `"title":"M3"`, `"title":"M4"`, 1) }),
			stories: [][]byte{story}, ring: ring(key), token: TokenBadSignature, drop: "ruleSignature"},
		{name: "a story envelope missing", raw: inc, ring: ring(key), token: TokenStoryEnvelopeMissing, drop: "ruleStories"},
		{name: "a changed byte in the story envelope", raw: inc, stories: [][]byte{editPayload(t, story, func(p string) string { return strings.Replace(p, "auditor-bot", "auditor-bos", 1) })},
			ring: ring(key), token: TokenStoryEnvelopeMissing, drop: "ruleStories"},
		{name: "the increment signed by another key", raw: otherInc, stories: [][]byte{otherStory}, ring: ring(key), token: TokenUnknownKey, controlRing: ring(key, other)},
		{name: "a story envelope signed by another key", raw: marshal(t, strangerInc), stories: [][]byte{strangerStory}, ring: ring(key), token: TokenStoryEnvelopeInvalid, controlRing: ring(key, other)},
		{name: "a story envelope of another unit", raw: marshal(t, wrongInc), stories: [][]byte{wrongUnit}, ring: ring(key), token: TokenStoryEnvelopeMismatch, drop: "ruleStories"},
		{name: "an unreferenced story envelope", raw: inc, stories: [][]byte{story, wrongUnit}, ring: ring(key), token: TokenStoryEnvelopeUnreferenced, drop: "ruleStories"},
	}
}

func TestVerifyIncrementRefusesAttacks(t *testing.T) {
	for _, a := range incrementAttacks(t) {
		t.Run(a.name, func(t *testing.T) {
			_, err := VerifyIncrement(a.raw, a.ring, Want{}, a.stories)
			var r *Refused
			if !errors.As(err, &r) || r.Token != a.token {
				t.Fatalf("VerifyIncrement = %v, want a refusal %s", err, a.token)
			}
			if r.Expected == "" || r.Seen == "" {
				t.Errorf("refusal %+v does not say what was expected and seen", r)
			}
		})
	}
}

// TestVerifyIncrementAttacksNegativeControl runs each attack with its
// rule removed (or the attacker's key trusted): it then passes.
func TestVerifyIncrementAttacksNegativeControl(t *testing.T) {
	for _, a := range incrementAttacks(t) {
		t.Run(a.name, func(t *testing.T) {
			rules, r := incrementRules(), a.ring
			if a.drop != "" {
				rules = withoutIn(incrementRules(), a.drop)
			} else {
				r = a.controlRing
			}
			if _, err := verifyIncrement(a.raw, r, Want{}, a.stories, rules); err != nil {
				t.Errorf("with the rule off the attack is still refused: %v", err)
			}
		})
	}
}

// TestVerifyRefusesIncrementAsUnit: a unit verifier never reads an
// increment envelope as a unit certificate, nor the increment verifier a
// unit envelope as an increment's.
func TestVerifyRefusesIncrementAsUnit(t *testing.T) {
	key := edSigner(t, 1)
	inc, story, _ := incrementFixture(t, key)
	var r *Refused
	if _, err := VerifyIncrement(story, ring(key), Want{}, nil); !errors.As(err, &r) || r.Token != TokenPredicateType {
		t.Errorf("VerifyIncrement(unit) = %v, want %s", err, TokenPredicateType)
	}
	if _, err := Verify(inc, ring(key), Want{}); !errors.As(err, &r) || r.Token != TokenPredicateType {
		t.Errorf("Verify(increment) = %v, want %s", err, TokenPredicateType)
	}
	if got := StatementPredicateType(inc); got != IncrementPredicateType {
		t.Errorf("StatementPredicateType = %q", got)
	}
}

func TestIncrementEnvelopeGolden(t *testing.T) {
	inc, _, _ := incrementFixture(t, edSigner(t, 1))
	golden.Check(t, filepath.Join("testdata", "increment.envelope.golden.json"), append(inc, '\n'))
}

func withoutIn(all []rule, name string) []rule {
	var out []rule
	for _, r := range all {
		if !strings.HasSuffix(funcName(r), "."+name) {
			out = append(out, r)
		}
	}
	if len(out) != len(all)-1 {
		panic("no rule " + name)
	}
	return out
}
