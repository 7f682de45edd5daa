package ghfake_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v62/github"
)

// TestCrossReferenceREST: mentions written through REST (issue and pull
// request bodies, created or edited, and comments) make cross-references,
// and GET …/timeline lists them beside the comments, oldest first.
func TestCrossReferenceREST(t *testing.T) {
	_, repo, app, c := installed(t)
	repo.OpenIssue("acme", "Story", "")
	repo.Issue(1).Comment("bob", "first")
	repo.CommitBy("alice", "b1", "work", map[string]string{"b1.txt": "b1\n"})
	pr := repo.OpenPR("alice", "b1", "main", "PR", "")
	steps := []func() error{
		func() error {
			_, _, err := c.PullRequests.Edit(ctx, "acme", "widgets", pr.Number(), &github.PullRequest{Body: github.String("Work-unit: #1")})
			return err
		},
		func() error {
			_, _, err := c.Issues.Create(ctx, "acme", "widgets", &github.IssueRequest{Title: github.String("T"), Body: github.String("#1")})
			return err
		},
		func() error {
			_, _, err := c.Issues.Edit(ctx, "acme", "widgets", 3, &github.IssueRequest{Body: github.String("no longer")})
			return err
		},
		func() error {
			is, _, err := c.Issues.Create(ctx, "acme", "widgets", &github.IssueRequest{Title: github.String("U")})
			if err == nil {
				_, _, err = c.Issues.Edit(ctx, "acme", "widgets", is.GetNumber(), &github.IssueRequest{Body: github.String("GH-1")})
			}
			return err
		},
		func() error {
			cm, _, err := c.Issues.CreateComment(ctx, "acme", "widgets", 4, &github.IssueComment{Body: github.String("x")})
			if err == nil {
				_, _, err = c.Issues.EditComment(ctx, "acme", "widgets", cm.GetID(), &github.IssueComment{Body: github.String("x #2")})
			}
			return err
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	bot := app.Slug + "[bot]"
	checkTimeline(t, c, 1, []timelineEntry{{"commented", "bob", 0, "", false}, {"cross-referenced", bot, 2, "acme/widgets", true},
		{"cross-referenced", bot, 3, "acme/widgets", false}, {"cross-referenced", bot, 4, "acme/widgets", false}})
	checkTimeline(t, c, 2, []timelineEntry{{"cross-referenced", bot, 4, "acme/widgets", false}})
}

// timelineEntry is what the REST test compares of one timeline event.
type timelineEntry struct {
	Event, Actor string
	Source       int    // source issue number of a cross-reference
	SourceRepo   string // its repository
	PR           bool   // whether the source is a pull request
}

func checkTimeline(t *testing.T, c *github.Client, n int, want []timelineEntry) {
	t.Helper()
	events, _, err := c.Issues.ListIssueTimeline(ctx, "acme", "widgets", n, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []timelineEntry
	for _, e := range events {
		te := timelineEntry{Event: e.GetEvent(), Actor: e.GetActor().GetLogin()}
		if s := e.GetSource(); s != nil {
			if s.GetType() != "issue" {
				t.Errorf("source type = %q", s.GetType())
			}
			is := s.GetIssue()
			te.Source, te.SourceRepo, te.PR = is.GetNumber(), is.GetRepository().GetFullName(), is.IsPullRequest()
		}
		got = append(got, te)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("timeline of #%d (-want +got):\n%s", n, diff)
	}
}
