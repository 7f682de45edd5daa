package checks

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/golden"
	"github.com/aepgate/aepgate/protocol/gatelog"
)

// TestRenderGatesPaths: a head changing contract paths of two owners and
// the repository's shows, per path, who may approve, and each gate its own
// answerers; bob's approval answered his gate.
func TestRenderGatesPaths(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	files := []string{"api/a.go", "docs/contract/c.md", ".github/aepgate.yml"}
	owners := map[string][]string{"api/a.go": {"bob", "@acme/api"}, "docs/contract/c.md": {"dana"}}
	bob := gatelog.Item{ID: 1, URL: "https://github.com/acme/w/pull/21#pullrequestreview-1", Source: gatelog.Source{Kind: gatelog.PullRequest, Number: 21},
		Author: "bob", AuthorType: "User", Created: t0.Add(time.Minute), Updated: t0.Add(time.Minute), Event: gatelog.EventReview,
		Review: &gatelog.Review{State: gatelog.ReviewApproved, CommitSHA: sha}}
	res := gatelog.Build(gatelog.Input{Project: "demo", Unit: 13, PR: 21, Items: []gatelog.Item{bob},
		Policy:       gatelog.Policy{Owners: []string{"alice"}},
		Permissions:  gatelog.Permissions{"alice": "admin", "bob": "write"},
		PullRequests: []gatelog.PullRequestState{{Number: 21, Head: sha, HeadAt: t0, ContractFiles: files, ContractOwners: owners}}})
	ctx := GatesContext{Unit: 13, PR: 21, Owners: []string{"alice"}, Deciders: res.Deciders, PRURL: "https://github.com/acme/w/pull/21"}
	id := gatelog.ContractGateID(21, sha)
	ctx.ContractPaths = []ContractPath{{"api/a.go", owners["api/a.go"], id + "-1"}, {"docs/contract/c.md", owners["docs/contract/c.md"], id + "-2"}, {".github/aepgate.yml", []string{"alice"}, id + "-3"}}
	if len(res.Blockers) != 2 {
		t.Fatalf("fixture: %d blockers, want 2", len(res.Blockers))
	}
	run := Gates(sha, ctx, res.State, res.Blockers)
	if err := Validate(Fit(run)); err != nil {
		t.Errorf("rendered run is invalid: %v", err)
	}
	text := dumpApp(run) + "--- status comment\n" + StatusComment(ctx, res.State, res.Blockers)
	golden.CheckString(t, filepath.Join("testdata", "gates-paths.golden"), text)
}
