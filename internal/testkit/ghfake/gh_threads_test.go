package ghfake_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// TestSnapshotReadsLongConversationsWhole: threads longer than the
// snapshot query's 100 are read again page by page, so the gates replay
// sees every comment, oldest first.
func TestSnapshotReadsLongConversationsWhole(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	unit := repo.OpenIssue("olivia", "Unit", "```yaml\ngoal: a\n```")
	for i := range 120 {
		unit.Comment("olivia", fmt.Sprintf("unit note %d", i))
	}
	repo.Branch("f", "main")
	repo.Commit("f", "c", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "PR", "Work-unit: #"+strconv.Itoa(unit.Number()))
	for i := range 250 {
		pr.Comment("bob", fmt.Sprintf("pr note %d", i))
	}
	in := projectInstallation(t, f, repo)
	snap, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: "acme", Repo: "widgets", PR: pr.Number(), Guesses: []int{unit.Number()}, Needs: snapshot.Needs{Conversation: true}})
	if err != nil {
		t.Fatal(err)
	}
	c := snap.Pull.Conversation
	if len(c.Comments) != 250 || c.Truncated || snap.Pull.IsTruncated("comments") || c.Comments[0].Body != "pr note 0" || c.Comments[249].Body != "pr note 249" {
		t.Errorf("PR thread: %d comments, truncated %v, first %q", len(c.Comments), c.Truncated, c.Comments[0].Body)
	}
	u := snap.UnitComments[unit.Number()]
	if len(u.Comments) != 120 || u.Truncated || u.Comments[0].Body != "unit note 0" {
		t.Errorf("unit thread: %d comments, truncated %v", len(u.Comments), u.Truncated)
	}
}

// TestSnapshotReadsLongThreadsBackToTheMark: with the App's mark, a long
// thread is read back only to it (the App keeps the decisions of what lies
// before); a mark inside the snapshot's own window costs no read at all.
func TestSnapshotReadsLongThreadsBackToTheMark(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	repo.Branch("f", "main")
	repo.Commit("f", "c", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "PR", "no unit")
	var ids []int64
	for i := range 450 {
		ids = append(ids, pr.Comment("mallory", fmt.Sprintf("spam %d", i)).ID())
	}
	in := projectInstallation(t, f, repo)
	tests := []struct {
		name      string
		mark      int64
		comments  int
		readFrom  int64
		pageReads int
	}{
		{"no mark: read whole", 0, 450, 0, 5},
		{"mark in an older page", ids[120], 400, ids[50], 4},
		{"mark inside the window", ids[400], 100, ids[350], 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.ResetLog()
			marks := func(_ context.Context, n int) (int64, error) { return tt.mark, nil }
			snap, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: "acme", Repo: "widgets", PR: pr.Number(), Needs: snapshot.Needs{Conversation: true}, Marks: marks})
			if err != nil {
				t.Fatal(err)
			}
			c := snap.Pull.Conversation
			if len(c.Comments) != tt.comments || c.Truncated || c.ReadFrom != tt.readFrom || !c.Paged {
				t.Errorf("%d comments from %d (truncated %v, paged %v), want %d from %d", len(c.Comments), c.ReadFrom, c.Truncated, c.Paged, tt.comments, tt.readFrom)
			}
			if got := f.Calls("POST /graphql") - 1; got != tt.pageReads {
				t.Errorf("%d page reads after the snapshot query, want %d", got, tt.pageReads)
			}
			if last := c.Comments[len(c.Comments)-1]; last.ID != ids[449] {
				t.Errorf("newest comment %d, want %d", last.ID, ids[449])
			}
		})
	}
}

// TestSnapshotReadsEveryMentionOfAUnit: a unit mentioned by more pull
// requests than one page holds has them all read, oldest first.
func TestSnapshotReadsEveryMentionOfAUnit(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	unit := repo.OpenIssue("olivia", "Unit", "```yaml\ngoal: a\n```")
	var first int
	for i := range 60 {
		b := fmt.Sprintf("try-%d", i)
		repo.Branch(b, "main")
		repo.Commit(b, "c", map[string]string{b + ".go": "package x\n"})
		pr := repo.OpenPR("bob", b, "main", b, "Work-unit: #"+strconv.Itoa(unit.Number()))
		if i == 0 {
			first = pr.Number()
			pr.Comment("olivia", "/aep hold on the first try")
		}
	}
	in := projectInstallation(t, f, repo)
	snap, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: "acme", Repo: "widgets", Guesses: []int{unit.Number()}, Needs: snapshot.Needs{Conversation: true}})
	if err != nil {
		t.Fatal(err)
	}
	a := snap.UnitAttempts[unit.Number()]
	if len(a.Pulls) != 60 || a.Truncated || a.Pulls[0].Number != first || len(a.Pulls[0].Conversation.Comments) != 1 {
		t.Errorf("attempts: %d, truncated %v, first #%d", len(a.Pulls), a.Truncated, a.Pulls[0].Number)
	}
}

// TestSnapshotReadsLongAttemptsWhole: another open attempt's conversation
// longer than the mentions query's 50 is read whole.
func TestSnapshotReadsLongAttemptsWhole(t *testing.T) {
	ghfake.RequireGraphQL(t)
	f := ghfake.New(t)
	repo := f.CreateRepo("acme/widgets")
	unit := repo.OpenIssue("olivia", "Unit", "```yaml\ngoal: a\n```")
	repo.Branch("a", "main")
	repo.Commit("a", "c", map[string]string{"a.go": "package x\n"})
	pr := repo.OpenPR("bob", "a", "main", "A", "Work-unit: #"+strconv.Itoa(unit.Number()))
	pr.Comment("olivia", "/aep hold oldest")
	for i := range 70 {
		pr.Comment("bob", fmt.Sprintf("note %d", i))
	}
	in := projectInstallation(t, f, repo)
	snap, err := in.Snapshot(ctx, gh.SnapshotRequest{Owner: "acme", Repo: "widgets", Guesses: []int{unit.Number()}, Needs: snapshot.Needs{Conversation: true}})
	if err != nil {
		t.Fatal(err)
	}
	a := snap.UnitAttempts[unit.Number()]
	if len(a.Pulls) != 1 || len(a.Pulls[0].Conversation.Comments) != 71 || a.Pulls[0].Conversation.Truncated || a.Pulls[0].Conversation.Comments[0].Body != "/aep hold oldest" {
		t.Errorf("attempt conversation: %+v", a.Pulls)
	}
}

// projectInstallation installs App 42 on repo, reading issues and pull
// requests, and returns internal/gh's clients for it.
func projectInstallation(t *testing.T, f *ghfake.Fake, repo *ghfake.Repo) *gh.Installation {
	t.Helper()
	key := testKey()
	inst := f.App(42, key).Install("acme", ghfake.Permissions{"checks": "write", "contents": "read", "issues": "read", "pull_requests": "read"}, repo)
	clients := gh.NewClients(gh.NewAppAuth(42, key, f.URL(), nil), f.URL())
	clients.WritePause = 0
	in, err := clients.Installation(inst.ID)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
