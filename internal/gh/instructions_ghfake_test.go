package gh_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/google/go-cmp/cmp"
)

// TestInstructionsOnFake: the fake serves every timeline item the query
// reads, oldest first, on the unit issue and on the pull request, with a
// commit's co-authors.
func TestInstructionsOnFake(t *testing.T) {
	_, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "issues": "read", "pull_requests": "read", "contents": "read"})
	for _, u := range []string{"olivia", "carol", "dana", "erin", "bob"} {
		repo.Grant(u, "write")
	}
	unit := repo.OpenIssue("olivia", "Story", "")
	unit.Assign("olivia", "claude[bot]")
	unit.Comment("carol", "@claude start")
	repo.Branch("f", "main")
	repo.CommitBy("bob", "f", "work\n\nCo-authored-by: Dana <dana@users.noreply.github.com>", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "PR", "Work-unit: #1")
	pr.Comment("erin", "@claude again")
	pr.SubmitReview("dana", "COMMENTED", "@claude fix")
	pr.ReviewComment("carol", "x.go", "/claude nothing; @claude here")
	pr.AddLabels("olivia", "claude")
	pr.Assign("erin", "claude[bot]")

	got, err := in.Instructions(context.Background(), "acme", "widgets", pr.Number(), unit.Number())
	if err != nil {
		t.Fatal(err)
	}
	type item struct {
		Channel                       instructor.Channel
		Author, Assignee, Body, Label string
	}
	var items []item
	for _, it := range got.Items {
		items = append(items, item{it.Channel, it.Author, it.Assignee, it.Body, it.Label})
	}
	want := []item{
		{instructor.ChannelIssueAssignment, "olivia", "claude[bot]", "", ""},
		{instructor.ChannelComment, "carol", "", "@claude start", ""},
		{instructor.ChannelComment, "erin", "", "@claude again", ""},
		{instructor.ChannelReview, "dana", "", "@claude fix", ""},
		{instructor.ChannelReview, "carol", "", "", ""},
		{instructor.ChannelReviewComment, "carol", "", "/claude nothing; @claude here", ""},
		{instructor.ChannelLabel, "olivia", "", "", "claude"},
		{instructor.ChannelPullAssignment, "erin", "claude[bot]", "", ""},
	}
	if diff := cmp.Diff(want, items); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if len(got.Heads) != 1 || got.Heads[0].SHA != pr.Head() || !cmp.Equal(got.Heads[0].Logins, []string{"bob", "bob", "bob", "dana"}) || got.Truncated {
		t.Errorf("heads = %+v, truncated %v; want the one commit by bob with dana co-authoring", got.Heads, got.Truncated)
	}
}

// TestInstructionsForcePushOnFake: a force push to the pull request's head
// (the REST ref update with force) is a head of its own, pushed by whoever
// forced it.
func TestInstructionsForcePushOnFake(t *testing.T) {
	f, repo, in, token := installation(t, ghfake.Permissions{"metadata": "read", "issues": "read", "pull_requests": "read", "contents": "write"})
	repo.Grant("bob", "write")
	repo.Branch("f", "main")
	repo.CommitBy("bob", "f", "one", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "PR", "")
	repo.Branch("g", "main")
	other := repo.CommitBy("bob", "g", "two", map[string]string{"y.go": "package y\n"})
	req, _ := http.NewRequest(http.MethodPatch, f.URL()+"/repos/acme/widgets/git/refs/heads/f", strings.NewReader(`{"sha": "`+other+`", "force": true}`))
	req.Header.Set("Authorization", "token "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil || res.StatusCode != http.StatusOK {
		t.Fatalf("force push: %v %v", err, res)
	}
	res.Body.Close()
	got, err := in.Instructions(context.Background(), "acme", "widgets", pr.Number(), 0)
	if err != nil {
		t.Fatal(err)
	}
	var forced []string
	for _, h := range got.Heads {
		if h.Pusher != "" {
			forced = append(forced, h.SHA)
		}
	}
	if !cmp.Equal(forced, []string{other}) {
		t.Errorf("heads = %+v; want one force-pushed head %s with its pusher", got.Heads, other)
	}
}

// TestInstructionsPagedOnFake: timelines longer than a page are read to
// their end, page by page: the command on the pull request's 150th item
// and the unit issue's 130th are read, and nothing is Truncated.
func TestInstructionsPagedOnFake(t *testing.T) {
	_, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "issues": "read", "pull_requests": "read", "contents": "read"})
	repo.Grant("bob", "write")
	unit := repo.OpenIssue("olivia", "Story", "")
	for range 129 {
		unit.Comment("olivia", "noted")
	}
	unit.Comment("carol", "@claude start")
	repo.Branch("f", "main")
	repo.CommitBy("bob", "f", "work", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "PR", "Work-unit: #1")
	for range 148 {
		pr.Comment("bob", "noted")
	}
	pr.Comment("erin", "@claude again")
	got, err := in.Instructions(context.Background(), "acme", "widgets", pr.Number(), unit.Number())
	if err != nil {
		t.Fatal(err)
	}
	var commands []string
	for _, it := range got.Items {
		if it.Body != "noted" {
			commands = append(commands, it.Author+": "+it.Body)
		}
	}
	if want := []string{"carol: @claude start", "erin: @claude again"}; !cmp.Equal(commands, want) || got.Truncated || len(got.Items) != 130+149 || len(got.Heads) != 1 {
		t.Errorf("commands %q, %d items, %d heads, truncated %v; want %q, 279 items, 1 head, not truncated", commands, len(got.Items), len(got.Heads), got.Truncated, want)
	}
}

// TestInstructionsBeyondPagesOnFake: a pull request whose timeline holds
// more than twenty pages (2,000 comments and a commit) is Truncated,
// which app/instructed refuses: who instructed an agent is never guessed.
func TestInstructionsBeyondPagesOnFake(t *testing.T) {
	_, repo, in, _ := installation(t, ghfake.Permissions{"metadata": "read", "issues": "read", "pull_requests": "read", "contents": "read"})
	repo.Grant("bob", "write")
	repo.Branch("f", "main")
	repo.CommitBy("bob", "f", "work", map[string]string{"x.go": "package x\n"})
	pr := repo.OpenPR("bob", "f", "main", "PR", "")
	for range 2000 {
		pr.Comment("bob", "noted")
	}
	got, err := in.Instructions(context.Background(), "acme", "widgets", pr.Number(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Truncated || len(got.Items)+len(got.Heads) != 2000 {
		t.Errorf("%d items and %d heads read, truncated %v; want 2,000 read and truncated", len(got.Items), len(got.Heads), got.Truncated)
	}
}
