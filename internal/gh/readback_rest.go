package gh

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/protocol/readbackrules"
)

// maxRunPages bounds the pages of workflow runs read at one commit (100 a
// page); a commit with more runs than that is not a readback GitHub makes.
const maxRunPages = 3

// MainRuns lists the workflow runs on branch at commit sha (REST, filtered
// by head_sha and branch), each with the status, conclusion and attempt
// number of its newest attempt. A 403 that is no rate limit wraps
// ErrRunsForbidden.
//
// https://docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository
func (in *Installation) MainRuns(ctx context.Context, owner, repo, sha, branch string) ([]readbackrules.Run, error) {
	opts := &github.ListWorkflowRunsOptions{HeadSHA: sha, Branch: branch, ListOptions: github.ListOptions{PerPage: 100}}
	var out []readbackrules.Run
	for page := 0; page < maxRunPages; page++ {
		res, resp, err := in.rest.Actions.ListRepositoryWorkflowRuns(ctx, owner, repo, opts)
		if err != nil {
			return nil, classifyRuns(fmt.Sprintf("list workflow runs at %s on %s", sha, branch), err)
		}
		for _, r := range res.WorkflowRuns {
			out = append(out, readbackrules.Run{ID: r.GetID(), Workflow: r.GetName(), HeadSHA: r.GetHeadSHA(), Branch: r.GetHeadBranch(),
				Event: r.GetEvent(), Status: r.GetStatus(), Conclusion: r.GetConclusion(), Attempt: r.GetRunAttempt()})
		}
		if resp.NextPage == 0 {
			return out, nil
		}
		opts.Page = resp.NextPage
	}
	return nil, fmt.Errorf("list workflow runs at %s on %s: more than %d runs", sha, branch, maxRunPages*100)
}

// ErrRunsForbidden is wrapped by MainRuns' error when GitHub refused the
// read without rate limiting: the installation lacks Actions: read.
var ErrRunsForbidden = errors.New("the App may not read workflow runs (it needs Actions: read)")

// classifyRuns is classify for a read of workflow runs.
func classifyRuns(op string, err error) error {
	c := classify(op, err)
	if errors.Is(c, ErrCheckForbidden) {
		return fmt.Errorf("%s: %w: %w", op, ErrRunsForbidden, err)
	}
	return c
}

// ContainsCommit reports whether commit base is head or one of head's
// ancestors: GitHub's comparison base...head is "ahead" or "identical".
//
// https://docs.github.com/rest/commits/commits#compare-two-commits
func (in *Installation) ContainsCommit(ctx context.Context, owner, repo, base, head string) (bool, error) {
	cmp, _, err := in.rest.Repositories.CompareCommits(ctx, owner, repo, base, head, &github.ListOptions{PerPage: 1})
	if err != nil {
		return false, classify(fmt.Sprintf("compare %s...%s", base, head), err)
	}
	switch cmp.GetStatus() {
	case "ahead", "identical":
		return true, nil
	}
	return false, nil
}

// PullsMergedAs lists the pull requests of owner/repo whose merge commit is
// sha (REST: the pull requests associated with the commit, kept when
// merged with merge_commit_sha equal to sha).
//
// https://docs.github.com/rest/commits/commits#list-pull-requests-associated-with-a-commit
func (in *Installation) PullsMergedAs(ctx context.Context, owner, repo, sha string) ([]int, error) {
	prs, _, err := in.rest.PullRequests.ListPullRequestsWithCommit(ctx, owner, repo, sha, &github.ListOptions{PerPage: 100})
	if err != nil {
		return nil, classify(fmt.Sprintf("pull requests with commit %s", sha), err)
	}
	var out []int
	for _, p := range prs {
		if p.MergedAt != nil && p.GetMergeCommitSHA() == sha {
			out = append(out, p.GetNumber())
		}
	}
	return out, nil
}

// AddLabel puts label on issue number; GitHub creates a label of that name
// when the repository has none. Adding a label the issue already has
// changes nothing.
//
// https://docs.github.com/rest/issues/labels#add-labels-to-an-issue
func (in *Installation) AddLabel(ctx context.Context, owner, repo string, number int, label string) error {
	if _, _, err := in.rest.Issues.AddLabelsToIssue(ctx, owner, repo, number, []string{label}); err != nil {
		return classify(fmt.Sprintf("label issue #%d %q", number, label), err)
	}
	return nil
}
