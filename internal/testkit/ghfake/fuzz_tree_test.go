package ghfake_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// FuzzObjectExpression sends any "rev:path" to Repository.object on the
// evidence bundle: the answer is an object or null, never a resolver error
// or a panic.
func FuzzObjectExpression(f *testing.F) {
	ghfake.RequireGraphQL(f)
	fk := ghfake.New(f)
	fk.SetRateLimit(1<<30, 1<<30, 1<<30) // fuzzing outspends any hourly budget
	repo := fk.CreateRepo("acme/widgets")
	sha := repo.Commit("main", "evidence", evidence)
	tok := fk.ActionsToken(repo, ghfake.Permissions{"contents": "read"})
	for _, e := range []string{sha + ":", sha + ":docs/run/", "main:docs/run/current/out.txt", sha, ":", "main:docs//run", "x:y:z"} {
		f.Add(e)
	}
	q := `query($e: String!) { repository(owner: "acme", name: "widgets") { object(expression: $e) {
  __typename ... on Tree { entries { name path mode type object { __typename } } } ... on Blob { text } } } }`
	f.Fuzz(func(t *testing.T, expr string) {
		body, _ := json.Marshal(map[string]any{"query": q, "variables": map[string]any{"e": expr}})
		req, _ := http.NewRequest("POST", fk.GraphQLURL(), bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != http.StatusOK || out["errors"] != nil {
			t.Errorf("%q: status %d, errors %v, decode %v", expr, resp.StatusCode, out["errors"], err)
		}
	})
}
