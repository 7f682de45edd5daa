package ghfake_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
	"github.com/shurcooL/githubv4"
)

// gqlStory builds an increment: milestone #1 with stories #1 (blocked by
// #2) and #2, PR #3 for #1 with a check run, and epic #4 over #1.
func gqlStory(t *testing.T) (*ghfake.Fake, *ghfake.Repo, string) {
	t.Helper()
	ghfake.RequireGraphQL(t)
	f, repo, _, tok := installedToken(t)
	c := client(t, f, tok)
	repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "owners: [acme]\n"})
	ms := repo.CreateMilestone("Increment 1", "```yaml\nrisk: low\n```")
	a := repo.OpenIssue("alice", "Story A", "```yaml\ngoal: a\n```", ghfake.InMilestone(ms), ghfake.WithLabels("product"))
	b := repo.OpenIssue("alice", "Story B", "```yaml\ngoal: b\n```", ghfake.InMilestone(ms))
	a.BlockedBy(b)
	a.Comment("acme", "/aep gate g1 open")
	repo.Branch("feature", "main")
	repo.CommitBy("alice", "feature", "work", map[string]string{"a.txt": "a\n"})
	pr := repo.OpenPR("alice", "feature", "main", "Work", "Work-unit: #1")
	if _, _, err := c.Checks.CreateCheckRun(ctx, "acme", "widgets", github.CreateCheckRunOptions{Name: "aepgate/work-unit", HeadSHA: pr.Head(),
		ExternalID: github.String("x1"), Conclusion: github.String("success"), Output: &github.CheckRunOutput{Title: github.String("ok"), Summary: github.String("fine")}}); err != nil {
		t.Fatal(err)
	}
	repo.OpenIssue("acme", "Epic", "").AddSubIssue(a)
	return f, repo, tok
}

// bearerRT adds a token to GraphQL requests.
type bearerRT struct{ token string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func v4(f *ghfake.Fake, tok string) *githubv4.Client {
	return githubv4.NewEnterpriseClient(f.GraphQLURL(), &http.Client{Transport: bearerRT{tok}})
}

func TestGraphQLGithubv4RoundTrip(t *testing.T) {
	f, _, tok := gqlStory(t)
	var q struct {
		Repository struct {
			NameWithOwner string
			Issue         struct {
				Number    int
				State     githubv4.IssueState
				Milestone struct {
					Title  string
					Issues struct {
						TotalCount int
						Nodes      []struct{ Number int }
					} `graphql:"issues(first: 20)"`
				}
				BlockedBy struct {
					Nodes []struct {
						Number int
						State  githubv4.IssueState
					}
				} `graphql:"blockedBy(first: 10)"`
				IssueDependenciesSummary struct{ BlockedBy, TotalBlockedBy int }
				Parent                   struct{ Number int }
				Labels                   struct{ Nodes []struct{ Name string } } `graphql:"labels(first: 10)"`
				Comments                 struct {
					Nodes []struct {
						Body   string
						Author struct{ Login string }
					}
				} `graphql:"comments(last: 5)"`
			} `graphql:"issue(number: $n)"`
			PullRequest struct {
				HeadRefOid string
				State      githubv4.PullRequestState
			} `graphql:"pullRequest(number: 3)"`
		} `graphql:"repository(owner: $owner, name: $name)"`
		RateLimit struct{ Cost, Remaining int }
	}
	err := v4(f, tok).Query(ctx, &q, map[string]any{"owner": githubv4.String("acme"), "name": githubv4.String("widgets"), "n": githubv4.Int(1)})
	if err != nil {
		t.Fatalf("Query: %v", err)
	}
	is := q.Repository.Issue
	if is.Number != 1 || is.State != githubv4.IssueStateOpen || is.Milestone.Issues.TotalCount != 2 || len(is.BlockedBy.Nodes) != 1 ||
		is.BlockedBy.Nodes[0].Number != 2 || is.IssueDependenciesSummary.TotalBlockedBy != 1 || is.Parent.Number != 4 ||
		len(is.Labels.Nodes) != 1 || is.Comments.Nodes[0].Author.Login != "acme" {
		t.Errorf("issue = %+v", is)
	}
	if q.Repository.PullRequest.HeadRefOid == "" || q.Repository.PullRequest.State != githubv4.PullRequestStateOpen {
		t.Errorf("pull request = %+v", q.Repository.PullRequest)
	}
	if q.RateLimit.Cost != 1 || q.RateLimit.Remaining <= 0 {
		t.Errorf("rateLimit = %+v", q.RateLimit)
	}
}

// TestGraphQLWorkUnitSnapshotQuery runs the query internal/gh builds for a
// work-unit snapshot (its shape copied here) and checks what it reads.
func TestGraphQLWorkUnitSnapshotQuery(t *testing.T) {
	f, _, tok := gqlStory(t)
	const q = `query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  nameWithOwner
  defaultBranchRef { name target { ... on Commit { oid file(path: ".github/aepgate.yml") { object { ... on Blob { text isTruncated } } } } } }
  pullRequest(number: 3) { number body state headRefOid
    commits(last: 1) { nodes { commit { oid checkSuites(first: 20, filterBy: {appId: 42}) { nodes { checkRuns(first: 50) { nodes { name status conclusion title summary text externalId } } } } } } } }
  u1: issueOrPullRequest(number: 1) { __typename ... on Issue { number title body state blockedBy(first: 50) { nodes { number state repository { nameWithOwner } } }
    milestone { number title state description issues(first: 20) { totalCount nodes { number state body blockedBy(first: 50) { nodes { number state repository { nameWithOwner } } } } } } } }
} }`
	got := post(t, f, tok, q, map[string]any{"owner": "acme", "name": "widgets"})
	if errs := got["errors"]; errs != nil {
		t.Fatalf("errors: %v", errs)
	}
	repo := got["data"].(map[string]any)["repository"].(map[string]any)
	text := dig(repo, "defaultBranchRef", "target", "file", "object", "text")
	if text != "owners: [acme]\n" {
		t.Errorf("config text = %v", text)
	}
	runs := dig(repo, "pullRequest", "commits", "nodes", 0, "commit", "checkSuites", "nodes", 0, "checkRuns", "nodes", 0).(map[string]any)
	if runs["name"] != "aepgate/work-unit" || runs["status"] != "COMPLETED" || runs["conclusion"] != "SUCCESS" || runs["externalId"] != "x1" {
		t.Errorf("check run = %v", runs)
	}
	if typ := dig(repo, "u1", "__typename"); typ != "Issue" {
		t.Errorf("u1 typename = %v", typ)
	}
	if n := dig(repo, "u1", "milestone", "issues", "totalCount"); n != float64(2) {
		t.Errorf("milestone issues = %v", n)
	}
}

func TestGraphQLRefusesWhatGitHubRefuses(t *testing.T) {
	f, _, tok := gqlStory(t)
	tests := []struct {
		name, query, want string
	}{
		{"unknown field", `{ repository(owner: "acme", name: "widgets") { nope } }`, `Cannot query field "nope"`},
		{"no first or last", `{ repository(owner: "acme", name: "widgets") { issues { totalCount } } }`, "You must provide a `first` or `last` value"},
		{"over 100", `{ repository(owner: "acme", name: "widgets") { issues(first: 101) { totalCount } } }`, "exceeds the `first` limit of 100"},
		{"node limit", `{ repository(owner: "acme", name: "widgets") { issues(first: 100) { nodes { comments(first: 100) { nodes { reactions(first: 100) { totalCount } } } } } } }`, "exceeds the maximum limit of 500000"},
		{"unknown repo", `{ repository(owner: "acme", name: "nope") { name } }`, "Could not resolve to a Repository"},
		{"syntax", `{ repository(owner: `, "Unexpected <EOF>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := post(t, f, tok, tt.query, nil)
			var msgs []string
			errs, _ := got["errors"].([]any)
			for _, e := range errs {
				msgs = append(msgs, fmt.Sprint(dig(e, "message")))
			}
			if !strings.Contains(strings.Join(msgs, "\n"), tt.want) || got["data"] != nil && tt.name != "unknown repo" {
				t.Errorf("errors = %q, data = %v; want an error containing %q", msgs, got["data"], tt.want)
			}
		})
	}
}

func TestGraphQLMutationsAndPermissions(t *testing.T) {
	f, repo, tok := gqlStory(t)
	var ids struct {
		Repository struct {
			A struct{ ID githubv4.ID } `graphql:"a: issue(number: 2)"`
			B struct{ ID githubv4.ID } `graphql:"b: issue(number: 4)"`
		} `graphql:"repository(owner: \"acme\", name: \"widgets\")"`
	}
	c := v4(f, tok)
	if err := c.Query(ctx, &ids, nil); err != nil {
		t.Fatal(err)
	}
	var m struct {
		AddBlockedBy struct {
			Issue struct {
				IssueDependenciesSummary struct{ TotalBlockedBy int }
			}
		} `graphql:"addBlockedBy(input: $input)"`
	}
	if err := c.Mutate(ctx, &m, githubv4.AddBlockedByInput{IssueID: ids.Repository.A.ID, BlockingIssueID: ids.Repository.B.ID}, nil); err != nil {
		t.Fatalf("addBlockedBy: %v", err)
	}
	if m.AddBlockedBy.Issue.IssueDependenciesSummary.TotalBlockedBy != 1 {
		t.Errorf("after addBlockedBy: %+v", m)
	}
	ro := v4(f, f.ActionsToken(repo, ghfake.Permissions{"contents": "read"}))
	var q struct {
		Repository struct {
			Issue struct{ Number int } `graphql:"issue(number: 1)"`
		} `graphql:"repository(owner: \"acme\", name: \"widgets\")"`
	}
	if err := ro.Query(ctx, &q, nil); err == nil || !strings.Contains(err.Error(), "Resource not accessible by integration") {
		t.Errorf("issue read without issues permission: err = %v", err)
	}
}

func post(t *testing.T, f *ghfake.Fake, tok, query string, vars map[string]any) map[string]any {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": query, "variables": vars})
	req, _ := http.NewRequest("POST", f.GraphQLURL(), bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}

// dig walks decoded JSON by keys and indexes.
func dig(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

func TestGraphQLReactions(t *testing.T) {
	f, repo, tok := gqlStory(t)
	repo.Issue(1).React("bob", "rocket")
	got := post(t, f, tok, `{ repository(owner: "acme", name: "widgets") { issue(number: 1) {
  reactions(first: 10) { totalCount nodes { content user { login } } }
  comments(first: 1) { nodes { reactions(first: 5, content: EYES) { totalCount } } } } } }`, nil)
	if errs := got["errors"]; errs != nil {
		t.Fatalf("errors: %v", errs)
	}
	is := dig(got, "data", "repository", "issue")
	if dig(is, "reactions", "nodes", 0, "content") != "ROCKET" || dig(is, "reactions", "nodes", 0, "user", "login") != "bob" {
		t.Errorf("reactions = %v", dig(is, "reactions"))
	}
	if dig(is, "comments", "nodes", 0, "reactions", "totalCount") != float64(0) {
		t.Errorf("comment reactions = %v", dig(is, "comments"))
	}
}

func TestGraphQLStatusCheckRollup(t *testing.T) {
	f, repo, tok := gqlStory(t)
	head := repo.PR(3).Head()
	q := `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 3) { commits(last: 1) { nodes { commit {
  statusCheckRollup { state contexts(first: 10) { totalCount nodes { __typename ... on CheckRun { name conclusion } ... on StatusContext { context state } } } } } } } } } }`
	rollup := func() any {
		got := post(t, f, tok, q, nil)
		if errs := got["errors"]; errs != nil {
			t.Fatalf("errors: %v", errs)
		}
		return dig(got, "data", "repository", "pullRequest", "commits", "nodes", 0, "commit", "statusCheckRollup")
	}
	if st := dig(rollup(), "state"); st != "SUCCESS" {
		t.Errorf("with one green check run: %v", st)
	}
	repo.SetStatus(head, "ci/legacy", "pending", "")
	if st := dig(rollup(), "state"); st != "PENDING" {
		t.Errorf("with a pending status: %v", st)
	}
	repo.AddCheckRun(7, head, "test", "completed", "failure")
	r := rollup()
	if dig(r, "state") != "FAILURE" || dig(r, "contexts", "totalCount") != float64(3) || dig(r, "contexts", "nodes", 2, "__typename") != "StatusContext" {
		t.Errorf("rollup = %v", r)
	}
}
