package ghfake

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// TestGraphQLWithoutFixtures: the endpoint serves from the embedded schema
// alone, read afresh (the fake reads no fixture folder; aepgate-demo runs
// it with none).
func TestGraphQLWithoutFixtures(t *testing.T) {
	f := New(t)
	f.schema = readSchema // read afresh, not the copy loaded once per process
	if got := rateLimitQuery(t, f); got != http.StatusOK {
		t.Errorf("status = %d, want 200", got)
	}
}

// TestGraphQLSchemaUnavailable shows the endpoint failing clearly (501,
// saying why) when the schema cannot be loaded.
func TestGraphQLSchemaUnavailable(t *testing.T) {
	f := New(t)
	f.schema = func() (*ast.Schema, error) { return nil, errors.New("ghfake: GraphQL unavailable: broken schema") }
	if got := rateLimitQuery(t, f); got != http.StatusNotImplemented {
		t.Errorf("status = %d, want 501", got)
	}
}

// rateLimitQuery posts a one-field query with an Actions token and
// returns the status.
func rateLimitQuery(t *testing.T, f *Fake) int {
	t.Helper()
	repo := f.CreateRepo("acme/widgets")
	tok := f.ActionsToken(repo, Permissions{"issues": "read"})
	req, _ := http.NewRequest("POST", f.GraphQLURL(), strings.NewReader(`{"query":"{ rateLimit { cost } }"}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode
}

// BenchmarkSchemaLoad measures reading, patching and validating GitHub's
// schema — paid once per test process.
func BenchmarkSchemaLoad(b *testing.B) {
	if ok, why := GraphQLAvailable(); !ok {
		b.Skip(why)
	}
	for i := 0; i < b.N; i++ {
		if _, err := readSchema(); err != nil {
			b.Fatal(err)
		}
	}
}
