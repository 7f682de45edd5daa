package readback

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/coverage"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/sourceattest"
)

// ancestry answers ContainsCommit with contains (the rest of MergeReader
// is fakeGitHub's).
type ancestry struct {
	fakeGitHub
	contains bool
}

func (a *ancestry) ContainsCommit(context.Context, string, string, string, string) (bool, error) {
	return a.contains, nil
}

// trustingParents is the observation a rule reading only the merge
// commit's parents would make: it takes the second parent for the audited
// change and claims git's replay wrote the shipped tree, without asking
// whether the audited head contains the base. The negative control hands
// it in where j.observation's belongs.
func trustingParents(o coverage.Observation) coverage.Observation {
	o.Problem, o.AuditBase, o.ReplayBases, o.ReplayTree = "", o.Onto, []string{o.Onto}, o.ShippedTree
	return o
}

// TestStatementsNeedCoverage: the statements step signs a coverage
// statement and a VSA naming SLSA_SOURCE_TWO_PARTY_REVIEWED for a merge
// whose tree is the audited head's on a base it contains, and withholds
// them for a merge commit onto a base the audited head does not contain
// (its tree may carry edits nobody audited). Negative control: with the
// containment check removed (trustingParents), the same merge commit gets
// a VSA claiming two-party review.
func TestStatementsNeedCoverage(t *testing.T) {
	key, err := attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{5}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	head, merge := sha("b"), sha("c")
	squash := func(m *gh.MergedPull) { m.MergeParents, m.MergeTree = []string{sha("a")}, m.HeadTree }
	mergeCommit := func(m *gh.MergedPull) { m.MergeParents, m.MergeTree = []string{sha("a"), head}, sha("d") }
	tests := []struct {
		name     string
		edit     func(*gh.MergedPull)
		contains bool
		observe  func(coverage.Observation) coverage.Observation
		withheld string
	}{
		{"squash of the audited tree on a base it contains", squash, true, nil, ""},
		{"merge commit onto a base the audit did not contain", mergeCommit, false, nil, "coverage unverifiable"},
		{"negative control: the parents trusted", mergeCommit, false, trustingParents, ""},
		{"no config file", func(m *gh.MergedPull) { squash(m); m.Config.Found = false }, true, nil, "no .github/aepgate.yml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &gh.MergedPull{Number: 3, HeadSHA: head, HeadTree: sha("e"), DefaultBranch: "main", MergeSHA: merge,
				Config: snapshot.ConfigFile{Found: true, Text: "version: 1\n", CommitSHA: sha("f")}}
			tt.edit(m)
			j := &Judge{GitHub: GitHub{Read: &ancestry{contains: tt.contains}}, Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Cache: &Ancestry{},
				Now: func() time.Time { return time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC) }, After: After{Signer: key}}
			c := &issued{canonical: unitCertificate(t, head, merge)}
			env, err := attest.SignCertificate(key, attest.Unit, "acme/widgets", c.canonical)
			if err != nil {
				t.Fatal(err)
			}
			unit, _ := json.Marshal(env)
			o, err := j.observation(context.Background(), Input{Owner: "acme", Repo: "widgets"}, m, judgement{audit: Audit{SHA: head}})
			if err != nil {
				t.Fatal(err)
			}
			if tt.observe != nil {
				o = tt.observe(o)
			}
			got, why, err := j.statements(Input{Owner: "acme", Repo: "widgets"}, m, c, o, unit)
			if err != nil || !strings.Contains(why, tt.withheld) || (why == "") != (tt.withheld == "") {
				t.Fatalf("withheld %q (%v), want %q", why, err, tt.withheld)
			}
			if got == nil {
				return
			}
			if !slices.Contains(got.levels, sourceattest.TwoPartyReviewed) {
				t.Errorf("levels %v", got.levels)
			}
			want := sourceattest.Want{Repository: "acme/widgets", SHA: merge, Levels: []string{sourceattest.TwoPartyReviewed}}
			if _, _, err := sourceattest.VerifyVSA(got.vsa, attest.Keyring{key.Public()}, want); err != nil {
				t.Errorf("VSA: %v", err)
			}
		})
	}
}

// unitCertificate is a valid certificate of acme/widgets for the audited
// head merged as merge.
func unitCertificate(t *testing.T, head, merge string) []byte {
	t.Helper()
	c := certificate.Certificate{SchemaVersion: certificate.SchemaVersion, Project: "widgets", Repository: "acme/widgets", PullRequest: 3,
		WorkUnit: "5", CandidateSha: head, AuditedSha: head, AuditorSessionID: "carol", AuditReviewID: 7, AuditVerdict: "PASS",
		RequiredCiRunIds: []string{"1"}, RequiredCiRuns: []certificate.Run{{ID: "1", Workflow: "ci"}}, RequiredCiAllSuccess: true,
		MergeSha: merge, MergedMainRunIds: []string{"2"}, MergedMainRuns: []certificate.Run{{ID: "2", Workflow: "ci"}},
		MergedMainAllSuccess: true, HeadUnchanged: true, CreatedAt: 1767225600000}
	raw, err := c.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
