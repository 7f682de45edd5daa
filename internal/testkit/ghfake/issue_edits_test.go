package ghfake_test

import (
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-cmp/cmp"
)

// TestGraphQLIssueEdits: an issue body edited by another writer shows its
// editor, lastEditedAt and every revision in userContentEdits (newest
// first, the created one last), as GitHub's Comment interface defines them.
func TestGraphQLIssueEdits(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, _, tok := installedToken(t)
	is := repo.OpenIssue("alice", "t", "risk: high")
	const q = `query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) {
  body lastEditedAt editor { login } includesCreatedEdit userContentEdits(first: 10) { totalCount nodes { editor { login } diff deletedAt } } } } }`
	got := post(t, f, tok, q, map[string]any{"n": is.Number()})
	if dig(got, "data", "repository", "issue", "editor") != nil || dig(got, "data", "repository", "issue", "lastEditedAt") != nil {
		t.Errorf("a never-edited issue names an edit: %v", dig(got, "data", "repository", "issue"))
	}
	is.Edit("mallory", "risk: low")
	got = post(t, f, tok, q, map[string]any{"n": is.Number()})
	issue := dig(got, "data", "repository", "issue")
	if dig(issue, "lastEditedAt") == nil || dig(issue, "includesCreatedEdit") != true {
		t.Errorf("edited issue: %v", issue)
	}
	if diff := cmp.Diff(m{"login": "mallory"}, dig(issue, "editor")); diff != "" {
		t.Errorf("editor (-want +got):\n%s", diff)
	}
	want := []any{
		m{"editor": m{"login": "mallory"}, "diff": "risk: low", "deletedAt": nil},
		m{"editor": m{"login": "alice"}, "diff": "risk: high", "deletedAt": nil},
	}
	if diff := cmp.Diff(want, dig(issue, "userContentEdits", "nodes")); diff != "" {
		t.Errorf("userContentEdits (-want +got):\n%s", diff)
	}
}
