package ghfake

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCommentViews: comments read back in order with their reactions and
// edit time, without a request in the log.
func TestCommentViews(t *testing.T) {
	f := New(t)
	repo := f.CreateRepo("acme/widgets")
	is := repo.OpenIssue("alice", "Unit", "")
	first := is.Comment("olivia", "/aep hold wait")
	first.React("app[bot]", "+1")
	second := is.Comment("bob", "hello")
	second.Edit("bob", "hello again")
	f.ResetLog()
	got := is.Comments()
	if len(got) != 2 {
		t.Fatalf("%d comments, want 2", len(got))
	}
	if diff := cmp.Diff([]string{"+1"}, got[0].Reactions); diff != "" || got[0].Author != "olivia" || !got[0].Edited.IsZero() {
		t.Errorf("first comment %+v (reactions -want +got:\n%s)", got[0], diff)
	}
	if got[1].Body != "hello again" || got[1].Edited.IsZero() {
		t.Errorf("second comment %+v", got[1])
	}
	if c, ok := repo.CommentByID(second.ID()); !ok || c.Body != "hello again" {
		t.Errorf("CommentByID = %+v, %v", c, ok)
	}
	if _, ok := repo.CommentByID(1); ok {
		t.Error("CommentByID found a comment that does not exist")
	}
	if n := len(f.Requests()); n != 0 {
		t.Errorf("reading comments logged %d requests", n)
	}
}
