package ghfake

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestIssueViews: an issue reads back with its body, labels and pin, and
// IssuesLabelled finds only labelled issues (no pull request), without a
// request in the log.
func TestIssueViews(t *testing.T) {
	f := New(t)
	repo := f.CreateRepo("acme/widgets")
	repo.OpenIssue("alice", "Other", "")
	board := repo.OpenIssue("app[bot]", "aepgate board", "body", WithLabels("aepgate:board"))
	board.Edit("app[bot]", "new body")
	f.ResetLog()
	want := IssueView{Number: 2, Title: "aepgate board", Body: "new body", State: "open", Author: "app[bot]",
		Labels: []string{"aepgate:board"}, URL: "https://github.com/acme/widgets/issues/2"}
	if diff := cmp.Diff(want, board.View()); diff != "" {
		t.Errorf("View (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]IssueView{want}, repo.IssuesLabelled("aepgate:board")); diff != "" {
		t.Errorf("IssuesLabelled (-want +got):\n%s", diff)
	}
	if got := repo.IssuesLabelled("none"); len(got) != 0 {
		t.Errorf("IssuesLabelled(none) = %+v", got)
	}
	if n := len(f.Requests()); n != 0 {
		t.Errorf("reading issues logged %d requests", n)
	}
}
