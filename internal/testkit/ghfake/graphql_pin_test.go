package ghfake_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestGraphQLPinIssue: pinIssue pins an issue (again changes nothing),
// refuses a fourth pinned issue and a pull request, as GitHub does.
func TestGraphQLPinIssue(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f, repo, _, tok := installedToken(t)
	c := client(t, f, tok)
	var issues []*ghfake.Issue
	for _, title := range []string{"one", "two", "three", "four"} {
		issues = append(issues, repo.OpenIssue("alice", title, ""))
	}
	repo.Branch("feature", "main")
	repo.CommitBy("alice", "feature", "work", map[string]string{"a.txt": "a\n"})
	pr := repo.OpenPR("alice", "feature", "main", "Work", "")
	pin := func(number int) string {
		t.Helper()
		is, _, err := c.Issues.Get(ctx, "acme", "widgets", number)
		if err != nil {
			t.Fatal(err)
		}
		return pinMutation(t, f, tok, is.GetNodeID())
	}
	tests := []struct {
		name   string
		number int
		want   string // "" when pinned, else the error's message
	}{
		{"first", issues[0].Number(), ""},
		{"first again", issues[0].Number(), ""},
		{"second", issues[1].Number(), ""},
		{"third", issues[2].Number(), ""},
		{"a fourth is refused", issues[3].Number(), "Repository already has 3 pinned issues"},
		{"a pull request is refused", pr.Number(), "Could not resolve to an Issue"},
	}
	for _, tt := range tests {
		if got := pin(tt.number); !strings.Contains(got, tt.want) || (tt.want == "") != (got == "") {
			t.Errorf("%s: pinIssue = %q, want %q", tt.name, got, tt.want)
		}
	}
	for i, want := range []bool{true, true, true, false} {
		if got := issues[i].Pinned(); got != want {
			t.Errorf("issue %d pinned = %v, want %v", issues[i].Number(), got, want)
		}
	}
}

// pinMutation posts pinIssue for the node id and returns its first error
// message, "" when it answered the pinned issue.
func pinMutation(t *testing.T, f *ghfake.Fake, tok, id string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"query": `mutation($id: ID!) { pinIssue(input: {issueId: $id}) { issue { isPinned } } }`,
		"variables": map[string]any{"id": id}})
	req, _ := http.NewRequest("POST", f.GraphQLURL(), strings.NewReader(string(body)))
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			PinIssue *struct{ Issue struct{ IsPinned bool } }
		}
		Errors []struct{ Message string }
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	switch {
	case len(out.Errors) > 0:
		return out.Errors[0].Message
	case out.Data.PinIssue == nil || !out.Data.PinIssue.Issue.IsPinned:
		return "no pinned issue in the answer"
	}
	return ""
}
