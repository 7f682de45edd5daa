package gh

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/google/go-github/v62/github"
)

// maxMilestonePages bounds the pages of a milestone's issues read (100 a
// page); an increment holds at most 8 stories, so one page is the rule and
// more is reported Truncated.
const maxMilestonePages = 2

// Milestone is a milestone as the increment judge reads it: its state and
// description, and its issues (pull requests left out).
type Milestone struct {
	// Found is false when the number names no milestone.
	Found       bool
	Number      int
	Title       string
	Open        bool
	Description string
	// ClosedAt is GitHub's closed_at (RFC 3339; "" while open): it names
	// one closure, so the App flags each once.
	ClosedAt string
	Stories  []MilestoneIssue
	// Truncated: GitHub holds more issues than were read.
	Truncated bool
}

// MilestoneIssue is one issue of a milestone.
type MilestoneIssue struct {
	Number int
	Open   bool
	// StateReason is GitHub's state_reason ("" when none).
	StateReason string
	Body        string
	// ClosedAt is GitHub's closed_at (RFC 3339; "" while open).
	ClosedAt string
}

// Milestone reads milestone number and its issues of every state: two
// reads for a milestone of up to 100 issues.
//
// https://docs.github.com/rest/issues/milestones#get-a-milestone
// https://docs.github.com/rest/issues/issues#list-repository-issues
func (in *Installation) Milestone(ctx context.Context, owner, repo string, number int) (*Milestone, error) {
	m, _, err := in.rest.Issues.GetMilestone(ctx, owner, repo, number)
	if notFound(err) {
		return &Milestone{Number: number}, nil
	}
	if err != nil {
		return nil, classify(fmt.Sprintf("read milestone %d of %s/%s", number, owner, repo), err)
	}
	out := &Milestone{Found: true, Number: number, Title: m.GetTitle(), Open: m.GetState() == "open", Description: m.GetDescription()}
	if m.ClosedAt != nil {
		out.ClosedAt = m.ClosedAt.UTC().Format(time.RFC3339)
	}
	opts := &github.IssueListByRepoOptions{Milestone: fmt.Sprint(number), State: "all", ListOptions: github.ListOptions{PerPage: 100}}
	for page := 0; ; page++ {
		if page == maxMilestonePages {
			out.Truncated = true
			return out, nil
		}
		issues, resp, err := in.rest.Issues.ListByRepo(ctx, owner, repo, opts)
		if err != nil {
			return nil, classify(fmt.Sprintf("list issues of milestone %d of %s/%s", number, owner, repo), err)
		}
		for _, is := range issues {
			if is.IsPullRequest() {
				continue
			}
			mi := MilestoneIssue{Number: is.GetNumber(), Open: is.GetState() == "open", StateReason: is.GetStateReason(), Body: is.GetBody()}
			if is.ClosedAt != nil {
				mi.ClosedAt = is.ClosedAt.UTC().Format(time.RFC3339)
			}
			out.Stories = append(out.Stories, mi)
		}
		if resp.NextPage == 0 {
			slices.SortFunc(out.Stories, func(a, b MilestoneIssue) int { return a.Number - b.Number })
			return out, nil
		}
		opts.Page = resp.NextPage
	}
}

// ReopenMilestone reopens a milestone (closure.reopen).
//
// https://docs.github.com/rest/issues/milestones#update-a-milestone
func (in *Installation) ReopenMilestone(ctx context.Context, owner, repo string, number int) error {
	if _, _, err := in.rest.Issues.EditMilestone(ctx, owner, repo, number, &github.Milestone{State: github.String("open")}); err != nil {
		return classify(fmt.Sprintf("reopen milestone %d of %s/%s", number, owner, repo), err)
	}
	return nil
}

// BranchCommits lists the newest commits reachable from branch, newest
// first: one page of 100.
//
// https://docs.github.com/rest/commits/commits#list-commits
func (in *Installation) BranchCommits(ctx context.Context, owner, repo, branch string) ([]string, error) {
	cs, _, err := in.rest.Repositories.ListCommits(ctx, owner, repo, &github.CommitsListOptions{SHA: branch, ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		return nil, classify(fmt.Sprintf("list commits of %s on %s/%s", branch, owner, repo), err)
	}
	out := make([]string, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.GetSHA())
	}
	return out, nil
}

// RunEvidence says whether workflow run id of the repository concluded
// success ("" when it did, else why not).
//
// https://docs.github.com/rest/actions/workflow-runs#get-a-workflow-run
func (in *Installation) RunEvidence(ctx context.Context, owner, repo string, id int64) (string, error) {
	r, _, err := in.rest.Actions.GetWorkflowRunByID(ctx, owner, repo, id)
	if notFound(err) {
		return fmt.Sprintf("GitHub has no workflow run %d in %s/%s", id, owner, repo), nil
	}
	if err != nil {
		return "", classify(fmt.Sprintf("read workflow run %d of %s/%s", id, owner, repo), err)
	}
	if r.GetStatus() != "completed" || r.GetConclusion() != "success" {
		return fmt.Sprintf("workflow run %d is %s/%s, not completed with success", id, r.GetStatus(), r.GetConclusion()), nil
	}
	return "", nil
}

// DeploymentEvidence says whether deployment id exists in the repository
// ("" when it does, else why not).
//
// https://docs.github.com/rest/deployments/deployments#get-a-deployment
func (in *Installation) DeploymentEvidence(ctx context.Context, owner, repo string, id int64) (string, error) {
	_, _, err := in.rest.Repositories.GetDeployment(ctx, owner, repo, id)
	if notFound(err) {
		return fmt.Sprintf("GitHub has no deployment %d in %s/%s", id, owner, repo), nil
	}
	if err != nil {
		return "", classify(fmt.Sprintf("read deployment %d of %s/%s", id, owner, repo), err)
	}
	return "", nil
}

// ReleaseEvidence says whether a published release has tag ("" when one
// does, else why not).
//
// https://docs.github.com/rest/releases/releases#get-a-release-by-tag-name
func (in *Installation) ReleaseEvidence(ctx context.Context, owner, repo, tag string) (string, error) {
	_, _, err := in.rest.Repositories.GetReleaseByTag(ctx, owner, repo, tag)
	if notFound(err) {
		return fmt.Sprintf("GitHub has no published release tagged %s in %s/%s", tag, owner, repo), nil
	}
	if err != nil {
		return "", classify(fmt.Sprintf("read release %s of %s/%s", tag, owner, repo), err)
	}
	return "", nil
}

// notFound reports a 404 answer.
func notFound(err error) bool {
	var e *github.ErrorResponse
	return errors.As(err, &e) && e.Response != nil && e.Response.StatusCode == http.StatusNotFound
}

// OpenMilestones numbers the repository's open milestones, up to 100.
//
// https://docs.github.com/rest/issues/milestones#list-milestones
func (in *Installation) OpenMilestones(ctx context.Context, owner, repo string) ([]int, error) {
	ms, _, err := in.rest.Issues.ListMilestones(ctx, owner, repo, &github.MilestoneListOptions{State: "open", ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		return nil, classify(fmt.Sprintf("list open milestones of %s/%s", owner, repo), err)
	}
	out := make([]int, 0, len(ms))
	for _, m := range ms {
		out = append(out, m.GetNumber())
	}
	return out, nil
}
