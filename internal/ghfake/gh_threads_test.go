package ghfake_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/ghfake"
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
