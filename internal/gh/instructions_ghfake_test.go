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
