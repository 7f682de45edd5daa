package ghfake_test

import (
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// TestProjectClientsAgainstFake drives internal/gh's own App auth and
// clients (JWT → installation token → REST and GraphQL) against the fake.
func TestProjectClientsAgainstFake(t *testing.T) {
	f, repo, _ := gqlStory(t)
	app := f.App(77, testKey())
	inst := app.Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "read", "pull_requests": "read"}, repo)
	clients := gh.NewClients(gh.NewAppAuth(77, testKey(), f.URL(), nil), f.URL())
	clients.WritePause = 0
	in, err := clients.Installation(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: "acme", Repo: "widgets", PR: 3, Guesses: []int{1}})
	if err != nil {
		t.Fatalf("Snapshot: %v", err)
	}
	if snap.DefaultBranch != "main" || !snap.Config.Found || snap.Pull == nil || snap.Pull.HeadSHA == "" || snap.Units[1] == nil || !snap.NativeBlockers {
		t.Errorf("snapshot = %+v", snap)
	}
	prs, err := in.OpenPullRequests(ctx, "acme", "widgets")
	if err != nil || len(prs) != 1 || prs[0].Number != 3 || prs[0].HeadSHA == "" {
		t.Errorf("OpenPullRequests = %+v, %v", prs, err)
	}
	if got := f.Calls("POST /app/installations/{installation_id}/access_tokens"); got != 1 {
		t.Errorf("token requests = %d, want 1", got)
	}
}
