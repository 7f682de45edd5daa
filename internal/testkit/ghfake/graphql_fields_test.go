package ghfake_test

import (
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

// TestCommitUserByEmail links a commit to a user by its e-mail, as GitHub
// does, in REST's author and GraphQL's GitActor.user (a User only).
func TestCommitUserByEmail(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, _, tok := installedToken(t)
	c := client(t, f, tok)
	alice, bot := itoa(f.UserID("alice")), itoa(f.UserID("ci[bot]"))
	base, _, err := c.Git.GetCommit(ctx, "acme", "widgets", repo.Head("main"))
	must(t, "GetCommit", err)
	tests := []struct {
		email     string
		rest, gql any
	}{
		{alice + "+alice@users.noreply.github.com", "alice", m{"login": "alice"}},
		{"alice@users.noreply.github.com", "alice", m{"login": "alice"}},
		{"1+alice@users.noreply.github.com", "", nil}, // another account's ID
		{"alice@example.com", "", nil},
		{"nobody@users.noreply.github.com", "", nil},
		{bot + "+ci[bot]@users.noreply.github.com", "ci[bot]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.email, func(t *testing.T) {
			who := &github.CommitAuthor{Name: github.String("alice"), Email: github.String(tt.email)}
			cm, _, err := c.Git.CreateCommit(ctx, "acme", "widgets", &github.Commit{Message: github.String("m"), Tree: base.Tree,
				Parents: []*github.Commit{{SHA: base.SHA}}, Author: who, Committer: who}, nil)
			must(t, "CreateCommit", err)
			rc, _, err := c.Repositories.GetCommit(ctx, "acme", "widgets", cm.GetSHA(), nil)
			must(t, "Repositories.GetCommit", err)
			if got := rc.GetAuthor().GetLogin(); got != tt.rest {
				t.Errorf("REST author = %q, want %q", got, tt.rest)
			}
			got := post(t, f, tok, `query($oid: GitObjectID!) { repository(owner: "acme", name: "widgets") { object(oid: $oid) {
  ... on Commit { author { user { login } } committer { user { login } } } } } }`, map[string]any{"oid": cm.GetSHA()})
			for _, role := range []string{"author", "committer"} {
				if diff := cmp.Diff(tt.gql, dig(got, "data", "repository", "object", role, "user")); diff != "" {
					t.Errorf("GraphQL %s.user (-want +got):\n%s", role, diff)
				}
			}
		})
	}
}

// TestGraphQLWorkflowRunNeedsActions: CheckSuite.workflowRun needs the
// actions permission, as REST's actions/runs does; without it each suite's
// workflowRun is a FORBIDDEN error at its own path while the rest resolves,
// and checkSuites(filterBy: {appId}) still picks one App's suites. The
// query names a field after workflowRun, so an error path sharing its
// sibling's would show.
func TestGraphQLWorkflowRunNeedsActions(t *testing.T) {
	s := snapshotStory(t)
	noActions := s.f.App(43, testKey()).Install("acme", ghfake.Permissions{"checks": "read", "pull_requests": "read"}).Token()
	const q = `query($app: Int) { repository(owner: "acme", name: "widgets") { pullRequest(number: 3) { commits(last: 1) { nodes { commit {
  checkSuites(first: 10, filterBy: {appId: $app}) { nodes { workflowRun { databaseId } app { slug } } } } } } } } }`
	suites := []any{"repository", "pullRequest", "commits", "nodes", 0.0, "commit", "checkSuites", "nodes"}
	tests := []struct {
		name       string
		tok        string
		app        any
		wantSuites []any
		wantPaths  []any
	}{
		{"actions read", s.tok, nil, []any{m{"app": m{"slug": "github-actions"}, "workflowRun": m{"databaseId": num(s.runID)}},
			m{"app": m{"slug": "app-42"}, "workflowRun": nil}}, nil},
		{"only the Actions suite", s.tok, ghfake.ActionsAppID, []any{m{"app": m{"slug": "github-actions"}, "workflowRun": m{"databaseId": num(s.runID)}}}, nil},
		{"no actions permission", noActions, nil, []any{m{"app": m{"slug": "github-actions"}, "workflowRun": nil}, m{"app": m{"slug": "app-42"}, "workflowRun": nil}},
			[]any{append(append([]any{}, suites...), 0.0, "workflowRun"), append(append([]any{}, suites...), 1.0, "workflowRun")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := post(t, s.f, tt.tok, q, map[string]any{"app": tt.app})
			if diff := cmp.Diff(tt.wantSuites, dig(got["data"], "repository", "pullRequest", "commits", "nodes", 0, "commit", "checkSuites", "nodes")); diff != "" {
				t.Errorf("suites (-want +got):\n%s", diff)
			}
			var paths []any
			for _, e := range asList(got["errors"]) {
				if e.(m)["type"] != "FORBIDDEN" {
					t.Errorf("error type = %v, want FORBIDDEN", e.(m)["type"])
				}
				paths = append(paths, e.(m)["path"])
			}
			if diff := cmp.Diff(tt.wantPaths, paths); diff != "" {
				t.Errorf("error paths (-want +got):\n%s", diff)
			}
		})
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// TestGraphQLIssueOrder sorts Repository.issues as IssueOrder asks.
func TestGraphQLIssueOrder(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, _, tok := installedToken(t)
	for _, comments := range []int{1, 2, 0} {
		is := repo.OpenIssue("alice", "t", "")
		for range comments {
			is.Comment("bob", "c")
		}
		f.Advance(time.Minute)
	}
	repo.Issue(1).Edit("alice", "newest update")
	tests := []struct {
		order string
		want  []any
	}{
		{"", []any{1.0, 2.0, 3.0}},
		{"orderBy: {field: CREATED_AT, direction: DESC}", []any{3.0, 2.0, 1.0}},
		{"orderBy: {field: COMMENTS, direction: DESC}", []any{2.0, 1.0, 3.0}},
		{"orderBy: {field: UPDATED_AT, direction: ASC}", []any{2.0, 3.0, 1.0}},
	}
	for _, tt := range tests {
		got := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { issues(first: 10 `+tt.order+`) { nodes { number } } } }`, nil)
		var nums []any
		for _, n := range asList(dig(got, "data", "repository", "issues", "nodes")) {
			nums = append(nums, n.(m)["number"])
		}
		if diff := cmp.Diff(tt.want, nums); diff != "" {
			t.Errorf("%q (-want +got):\n%s", tt.order, diff)
		}
	}
}

// TestCommitSignature: SignCommit shows in GraphQL's Commit.signature (a
// GitSignature, validated against GitHub's schema) and REST's
// verification; an unsigned commit has a null signature and REST's
// "unsigned"; the commit's SHA does not change.
func TestCommitSignature(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, _, tok := installedToken(t)
	c := client(t, f, tok)
	tests := []struct {
		name       string
		v          *ghfake.Verification
		gql        any
		restReason string
		restOK     bool
	}{
		{"unsigned", nil, nil, "unsigned", false},
		{"ssh, valid", &ghfake.Verification{Signer: "ann"}, m{"__typename": "SshSignature", "isValid": true, "state": "VALID",
			"wasSignedByGitHub": false, "signer": m{"login": "ann"}}, "valid", true},
		{"gpg, unknown key", &ghfake.Verification{Signer: "ann", State: "UNKNOWN_KEY", GPG: true}, m{"__typename": "GpgSignature",
			"isValid": false, "state": "UNKNOWN_KEY", "wasSignedByGitHub": false, "signer": m{"login": "ann"}}, "unknown_key", false},
		{"web-flow", &ghfake.Verification{Signer: "ann", ByGitHub: true}, m{"__typename": "GpgSignature", "isValid": true,
			"state": "VALID", "wasSignedByGitHub": true, "signer": m{"login": "ann"}}, "valid", true},
		{"no account", &ghfake.Verification{State: "NO_USER"}, m{"__typename": "SshSignature", "isValid": false,
			"state": "NO_USER", "wasSignedByGitHub": false, "signer": nil}, "no_user", false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sha := repo.CommitBy("exec", "main", "m", map[string]string{"f": itoa(int64(i))})
			if tt.v != nil {
				repo.SignCommit(sha, *tt.v)
			}
			got := post(t, f, tok, `query($oid: GitObjectID!) { repository(owner: "acme", name: "widgets") { object(oid: $oid) {
  ... on Commit { oid signature { __typename isValid state wasSignedByGitHub signer { login } } } } } }`, map[string]any{"oid": sha})
			if oid := dig(got, "data", "repository", "object", "oid"); oid != sha {
				t.Fatalf("object(oid: %s).oid = %v: %v", sha, oid, got)
			}
			if diff := cmp.Diff(tt.gql, dig(got, "data", "repository", "object", "signature")); diff != "" {
				t.Errorf("GraphQL signature (-want +got):\n%s", diff)
			}
			rc, _, err := c.Repositories.GetCommit(ctx, "acme", "widgets", sha, nil)
			must(t, "Repositories.GetCommit", err)
			v := rc.GetCommit().GetVerification()
			if v.GetReason() != tt.restReason || v.GetVerified() != tt.restOK || (tt.v != nil) != (v.GetSignature() != "") {
				t.Errorf("REST verification = %+v, want reason %s, verified %v", v, tt.restReason, tt.restOK)
			}
		})
	}
}
