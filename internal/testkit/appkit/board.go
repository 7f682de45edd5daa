package appkit

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
	"github.com/google/go-github/v62/github"
)

// BoardWorld is a ghfake world with olivia the owner, a milestone holding
// one product unit, and board updates 100 ms after an evaluation.
type BoardWorld struct {
	*Live
	MS   *ghfake.Milestone
	Unit *ghfake.Issue
	GH   *github.Client
}

// Attempt opens a pull request naming the unit on branch name.
func (b *BoardWorld) Attempt(name string) *ghfake.PR {
	b.Repo.Branch(name, "main")
	b.Repo.Commit(name, "work", map[string]string{name + ".go": "package x\n"})
	return b.Repo.OpenPR("bob", name, "main", "Work "+name, "Work-unit: #"+strconv.Itoa(b.Unit.Number()))
}

// BoardIssue is the repository's board issue, or nil.
func (b *BoardWorld) BoardIssue(t *testing.T) *github.Issue {
	t.Helper()
	is, _, err := b.GH.Issues.ListByRepo(context.Background(), "acme", "widgets", &github.IssueListByRepoOptions{Labels: []string{checks.BoardLabel}, State: "all"})
	if err != nil {
		t.Fatal(err)
	}
	if len(is) > 1 {
		t.Fatalf("%d board issues, want one", len(is))
	}
	if len(is) == 0 {
		return nil
	}
	return is[0]
}

// WaitBoard waits until the board issue's body holds every want.
func (b *BoardWorld) WaitBoard(t *testing.T, want ...string) *github.Issue {
	t.Helper()
	var last *github.Issue
	WaitFor(t, 10*time.Second, "the board holding "+strings.Join(want, ", "), func() bool {
		last = b.BoardIssue(t)
		if last == nil {
			return false
		}
		for _, s := range want {
			if !strings.Contains(last.GetBody(), s) {
				return false
			}
		}
		return true
	})
	return last
}
