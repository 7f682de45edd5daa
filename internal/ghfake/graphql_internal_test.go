package ghfake

import (
	"net/http"
	"strings"
	"testing"
)

// TestGraphQLWithoutSharedFolder shows the endpoint failing clearly (501,
// saying what is missing) when the schema cannot be found.
func TestGraphQLWithoutSharedFolder(t *testing.T) {
	t.Setenv("AEPGATE_SHARED", t.TempDir()+"/absent")
	t.Setenv("AEPGATE_NODE_MODULES", t.TempDir()+"/absent")
	f := New(t)
	f.schema = readSchema // read afresh, not the copy loaded once per process
	repo := f.CreateRepo("acme/widgets")
	tok := f.ActionsToken(repo, Permissions{"issues": "read"})
	req, _ := http.NewRequest("POST", f.GraphQLURL(), strings.NewReader(`{"query":"{ rateLimit { cost } }"}`))
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNotImplemented {
		t.Errorf("status = %d, want 501", resp.StatusCode)
	}
	if _, err := readSchema(); err == nil || !strings.Contains(err.Error(), "GitHub fixtures not found") {
		t.Errorf("readSchema error = %v", err)
	}
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
