package ghfake

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// These negative controls remove one protection at a time and show the
// attack it stops then succeeds, so the protection is known to be live.

func TestNegativeControlPermissions(t *testing.T) {
	tests := []struct {
		enforce bool
		want    int
	}{
		{true, http.StatusForbidden},
		{false, http.StatusCreated},
	}
	for _, tt := range tests {
		f := New(t)
		repo := f.CreateRepo("acme/widgets")
		tok := f.ActionsToken(repo, Permissions{"checks": "read"})
		f.protect.permissions = tt.enforce
		body := `{"name":"forged","head_sha":"` + repo.Head("main") + `"}`
		got := do(t, f, "POST", "repos/acme/widgets/check-runs", tok, body)
		if got != tt.want {
			t.Errorf("enforce=%v: read-only token creating a check run = %d, want %d", tt.enforce, got, tt.want)
		}
	}
}

// TestNegativeControlMergeQueuePermission: enqueuePullRequest needs
// merge_queues write; without the permission check a read-only token
// queues a pull request.
func TestNegativeControlMergeQueuePermission(t *testing.T) {
	RequireGraphQL(t)
	for _, enforce := range []bool{true, false} {
		f := New(t)
		repo := f.CreateRepo("acme/widgets")
		repo.SetBranchRules("main", BranchRules{MergeQueue: true})
		repo.Branch("feature", "main")
		repo.Commit("feature", "work", map[string]string{"a.txt": "a\n"})
		pr := repo.OpenPR("alice", "feature", "main", "Work", "")
		tok := f.App(42, NewAppKey()).Install("acme", Permissions{"pull_requests": "read", "merge_queues": "read"}).Token()
		f.protect.permissions = enforce
		var id string
		f.mu.Lock()
		id = nodeID("PullRequest", repo.s.issue(pr.Number()).id)
		f.mu.Unlock()
		body := `{"query":"mutation($id: ID!) { enqueuePullRequest(input: {pullRequestId: $id}) { mergeQueueEntry { position } } }","variables":{"id":"` + id + `"}}`
		do(t, f, "POST", "graphql", tok, body)
		if queued := len(repo.MergeQueue("main")) == 1; queued == enforce {
			t.Errorf("enforce=%v: a read-only token queued the pull request: %v", enforce, queued)
		}
	}
}

func TestNegativeControlJWTSignature(t *testing.T) {
	tests := []struct {
		verify bool
		want   int
	}{
		{true, http.StatusUnauthorized},
		{false, http.StatusCreated},
	}
	for _, tt := range tests {
		f := New(t)
		f.CreateRepo("acme/widgets")
		app := f.App(42, NewAppKey())
		inst := app.Install("acme", Permissions{"checks": "write"})
		forged := SignAppJWT(NewAppKey(), 42, time.Now())
		f.protect.signatures = tt.verify
		got := do(t, f, "POST", "app/installations/"+itoa(inst.ID)+"/access_tokens", forged, "")
		if got != tt.want {
			t.Errorf("verify=%v: token for a JWT signed by the wrong key = %d, want %d", tt.verify, got, tt.want)
		}
	}
}

func do(t *testing.T, f *Fake, method, path, tok, body string) int {
	t.Helper()
	req, _ := http.NewRequest(method, f.URL()+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}
