package ghfake_test

import (
	"fmt"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

// BenchmarkCreateCheckRun measures one go-github check-run create round
// trip through the fake (auth, validation, state, JSON, log).
func BenchmarkCreateCheckRun(b *testing.B) {
	f := ghfake.New(b)
	f.SetRateLimit(1<<30, 1<<30, 1<<30)
	repo := f.CreateRepo("acme/widgets")
	c := f.Client(f.ActionsToken(repo, ghfake.Permissions{"checks": "write"}))
	opts := github.CreateCheckRunOptions{Name: "aep/lint", HeadSHA: repo.Head("main")}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", opts); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGraphQLSnapshot measures the App's work-unit snapshot query
// (schema validation included).
func BenchmarkGraphQLSnapshot(b *testing.B) {
	ghfake.RequireGraphQL(b)
	f := ghfake.New(b)
	f.SetRateLimit(1<<30, 1<<30, 1<<30)
	repo := f.CreateRepo("acme/widgets")
	ms := repo.CreateMilestone("m", "")
	for i := 0; i < 8; i++ {
		repo.OpenIssue("alice", fmt.Sprint("story ", i), "```yaml\ngoal: g\n```", ghfake.InMilestone(ms))
	}
	tok := f.ActionsToken(repo, ghfake.Permissions{"issues": "read", "contents": "read", "pull_requests": "read", "checks": "read"})
	const q = `query { repository(owner: "acme", name: "widgets") { nameWithOwner
  defaultBranchRef { name target { ... on Commit { oid file(path: "README.md") { object { ... on Blob { text isTruncated } } } } } }
  u1: issueOrPullRequest(number: 1) { __typename ... on Issue { number title body state blockedBy(first: 50) { nodes { number state } }
    milestone { number title issues(first: 20) { totalCount nodes { number state body blockedBy(first: 50) { nodes { number state } } } } } } } } }`
	body := []byte(fmt.Sprintf(`{"query":%q}`, q))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if got := send(b, f, "POST", f.GraphQLURL(), tok, body); got != 200 {
			b.Fatalf("status %d", got)
		}
	}
}

// BenchmarkCommit measures a scenario commit of 20 files in 4 directories
// (blob, tree and commit hashing).
func BenchmarkCommit(b *testing.B) {
	f := ghfake.New(b)
	repo := f.CreateRepo("acme/widgets")
	files := map[string]string{}
	for i := 0; i < 20; i++ {
		files[fmt.Sprintf("dir%d/file%d.go", i%4, i)] = fmt.Sprintf("package x // %d\n", i)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		files["dir0/file0.go"] = fmt.Sprint("package x // ", i, "\n")
		repo.Commit("main", "change", files)
	}
}
