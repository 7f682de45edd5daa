package ghfake_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// The fake parses outside input (request bodies, GraphQL queries, paths);
// whatever arrives, it must answer with an HTTP status, never panic (a
// panic fails the test through the fake's recover).

func FuzzCheckRunBody(f *testing.F) {
	fk := ghfake.New(f)
	fk.SetRateLimit(1<<30, 1<<30, 1<<30) // fuzzing outspends any hourly budget
	repo := fk.CreateRepo("acme/widgets")
	tok := fk.ActionsToken(repo, ghfake.Permissions{"checks": "write"})
	sha := repo.Head("main")
	f.Add([]byte(`{"name":"a","head_sha":"` + sha + `"}`))
	f.Add([]byte(`{"name":"a","head_sha":"` + sha + `","output":{"title":"t","summary":"s","annotations":[{"path":"a","start_line":1,"end_line":1,"annotation_level":"notice","message":"m","start_column":1}]}}`))
	f.Add([]byte(`{"name":"a","head_sha":"` + sha + `","conclusion":"success","actions":[{"label":"x","identifier":"y","description":"z"}]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		got := send(t, fk, "POST", fk.URL()+"repos/acme/widgets/check-runs", tok, body)
		switch got {
		case http.StatusCreated, http.StatusBadRequest, http.StatusUnprocessableEntity:
		default:
			t.Errorf("status %d for %q", got, body)
		}
	})
}

func FuzzGraphQLQuery(f *testing.F) {
	ghfake.RequireGraphQL(f)
	fk := ghfake.New(f)
	fk.SetRateLimit(1<<30, 1<<30, 1<<30) // fuzzing outspends any hourly budget
	repo := fk.CreateRepo("acme/widgets")
	repo.OpenIssue("alice", "a", "b")
	tok := fk.ActionsToken(repo, ghfake.Permissions{"issues": "read", "contents": "read", "pull_requests": "read", "checks": "read"})
	f.Add(`{ repository(owner: "acme", name: "widgets") { issue(number: 1) { title blockedBy(first: 5) { nodes { number } } } } }`)
	f.Add(`query($n: Int!) { repository(owner: "acme", name: "widgets") { issueOrPullRequest(number: $n) { __typename } } }`)
	f.Add(`{ rateLimit { cost remaining } }`)
	f.Add(`mutation { addComment(input: {subjectId: "x", body: "y"}) { clientMutationId } }`)
	f.Fuzz(func(t *testing.T, query string) {
		body, _ := json.Marshal(map[string]any{"query": query, "variables": map[string]any{"n": 1}})
		if got := send(t, fk, "POST", fk.GraphQLURL(), tok, body); got != http.StatusOK {
			t.Errorf("status %d for %q", got, query)
		}
	})
}

func FuzzPaths(f *testing.F) {
	fk := ghfake.New(f)
	fk.SetRateLimit(1<<30, 1<<30, 1<<30) // fuzzing outspends any hourly budget
	repo := fk.CreateRepo("acme/widgets")
	tok := fk.ActionsToken(repo, ghfake.Permissions{"contents": "read", "issues": "read", "checks": "read"})
	for _, p := range []string{"repos/acme/widgets/contents/README.md", "repos/acme/widgets/git/ref/heads/main",
		"repos/acme/widgets/compare/main...main", "repos/acme/widgets/issues/comments/1/reactions", "repos/acme/widgets/commits/main/check-runs"} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, path string) {
		req, err := http.NewRequest("GET", fk.URL()+path, nil)
		if err != nil {
			return
		}
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return
		}
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Errorf("status %d for %q", resp.StatusCode, path)
		}
	})
}

func send(t testing.TB, fk *ghfake.Fake, method, url, tok string, body []byte) int {
	t.Helper()
	req, err := http.NewRequest(method, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
