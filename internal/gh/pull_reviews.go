package gh

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"
)

// MaxPullReviews bounds the reviews read of one pull request.
const MaxPullReviews = 1000

// PullReview is one submitted review as the Action judges approvals: who,
// their account type, the state (APPROVED, CHANGES_REQUESTED, COMMENTED,
// DISMISSED) and the commit it was made at.
type PullReview struct {
	Login, Type, State, CommitID string
}

// PullReviews returns pull request n's reviews, oldest first, 100 a page;
// complete is false when GitHub may hold more than MaxPullReviews.
//
// GitHub API docs: https://docs.github.com/rest/pulls/reviews#list-reviews-for-a-pull-request
func (a *ActionClient) PullReviews(ctx context.Context, owner, repo string, n int) (reviews []PullReview, complete bool, err error) {
	opt := &github.ListOptions{PerPage: 100}
	for {
		rs, resp, err := a.client.PullRequests.ListReviews(ctx, owner, repo, n, opt)
		if err != nil {
			return nil, false, fmt.Errorf("list the reviews of pull request #%d (the token needs pull-requests: read): %w", n, err)
		}
		for _, r := range rs {
			reviews = append(reviews, PullReview{Login: r.GetUser().GetLogin(), Type: r.GetUser().GetType(), State: r.GetState(), CommitID: r.GetCommitID()})
		}
		if resp.NextPage == 0 || len(reviews) >= MaxPullReviews {
			return reviews, len(reviews) < MaxPullReviews, nil
		}
		opt.Page = resp.NextPage
	}
}
