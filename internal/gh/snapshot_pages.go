package gh

import (
	"context"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/snapshot"
)

// maxThreadPages bounds how many pages of 100 one thread is read in when
// the snapshot's first read was cut short: 2,000 comments or reviews.
const maxThreadPages = 20

const threadPageQuery = `query($owner: String!, $name: String!, $number: Int!, $after: String) { repository(owner: $owner, name: $name) {
  issueOrPullRequest(number: $number) { __typename
    ... on Issue { comments(first: 100, after: $after) { ` + commentFields + ` pageInfo { hasNextPage endCursor } } }
    ... on PullRequest { comments(first: 100, after: $after) { ` + commentFields + ` pageInfo { hasNextPage endCursor } } } } } }`

const reviewPageQuery = `query($owner: String!, $name: String!, $number: Int!, $after: String) { repository(owner: $owner, name: $name) {
  pullRequest(number: $number) { reviews(first: 100, after: $after) { totalCount nodes { ` + reviewFields + ` } pageInfo { hasNextPage endCursor } } } } }`

// completeThreads reads again, whole, the conversations the snapshot query
// read only the newest part of (more than 100 comments or reviews), so a
// replay is never judged on part of a conversation: up to maxThreadPages
// pages each, one read a page; beyond that they stay marked truncated.
func (in *Installation) completeThreads(ctx context.Context, owner, repo string, s *snapshot.PR) error {
	if p := s.Pull; p != nil && p.Conversation.Truncated {
		t, err := in.thread(ctx, owner, repo, p.Number)
		if err != nil {
			return err
		}
		p.Conversation = t
		if !t.Truncated {
			p.Truncated = slices.DeleteFunc(p.Truncated, func(n string) bool { return n == "comments" })
		}
	}
	if p := s.Pull; p != nil && p.IsTruncated("reviews") {
		rs, cut, err := in.reviews(ctx, owner, repo, p.Number)
		if err != nil {
			return err
		}
		p.Reviews = rs
		if !cut {
			p.Truncated = slices.DeleteFunc(p.Truncated, func(n string) bool { return n == "reviews" })
		}
	}
	for n, t := range s.UnitComments {
		if t.Truncated {
			full, err := in.thread(ctx, owner, repo, n)
			if err != nil {
				return err
			}
			s.UnitComments[n] = full
		}
	}
	if c := s.Control; c != nil && c.Thread.Truncated {
		full, err := in.thread(ctx, owner, repo, c.Number)
		if err != nil {
			return err
		}
		c.Thread = full
	}
	return nil
}

// thread reads every comment of issue or pull request number, oldest
// first.
func (in *Installation) thread(ctx context.Context, owner, repo string, number int) (snapshot.Thread, error) {
	var t snapshot.Thread
	var after any
	for page := 0; ; page++ {
		if page == maxThreadPages {
			t.Truncated = true
			return t, nil
		}
		var data struct {
			Repository *struct {
				IssueOrPullRequest *struct {
					Comments *struct {
						jsonComments
						PageInfo pageInfo
					}
				}
			}
		}
		vars := map[string]any{"owner": owner, "name": repo, "number": number, "after": after}
		if err := graphQL(ctx, in.hc, in.graphqlURL, threadPageQuery, vars, &data); err != nil {
			return t, fmt.Errorf("comments of %s/%s#%d: %w", owner, repo, number, err)
		}
		if data.Repository == nil || data.Repository.IssueOrPullRequest == nil || data.Repository.IssueOrPullRequest.Comments == nil {
			return t, fmt.Errorf("comments of %s/%s#%d: not visible", owner, repo, number)
		}
		c := data.Repository.IssueOrPullRequest.Comments
		t.Comments = append(t.Comments, c.thread().Comments...)
		if !c.PageInfo.HasNextPage || c.PageInfo.EndCursor == "" {
			return t, nil
		}
		after = c.PageInfo.EndCursor
	}
}

// reviews reads every review of pull request number, oldest first; cut
// says more remained after maxThreadPages pages.
func (in *Installation) reviews(ctx context.Context, owner, repo string, number int) ([]snapshot.Review, bool, error) {
	var out []snapshot.Review
	var after any
	for page := 0; page < maxThreadPages; page++ {
		var data struct {
			Repository *struct {
				PullRequest *struct {
					Reviews *struct {
						jsonReviews
						PageInfo pageInfo
					}
				}
			}
		}
		vars := map[string]any{"owner": owner, "name": repo, "number": number, "after": after}
		if err := graphQL(ctx, in.hc, in.graphqlURL, reviewPageQuery, vars, &data); err != nil {
			return nil, false, fmt.Errorf("reviews of %s/%s#%d: %w", owner, repo, number, err)
		}
		if data.Repository == nil || data.Repository.PullRequest == nil || data.Repository.PullRequest.Reviews == nil {
			return nil, false, fmt.Errorf("reviews of %s/%s#%d: not visible", owner, repo, number)
		}
		r := data.Repository.PullRequest.Reviews
		out = append(out, r.reviews()...)
		if !r.PageInfo.HasNextPage || r.PageInfo.EndCursor == "" {
			return out, false, nil
		}
		after = r.PageInfo.EndCursor
	}
	return out, true, nil
}

// pageInfo is a connection's forward paging state.
type pageInfo struct {
	HasNextPage bool
	EndCursor   string
}
