package gh

import (
	"context"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/snapshot"
)

// maxThreadPages bounds how many pages of 100 the reviews of one pull
// request, or a unit's mentions, are read in when the snapshot's first read
// was cut short: 2,000.
const maxThreadPages = 20

// maxCommentPages bounds how many pages of 100 comments one thread is read
// back in from its newest comment to the App's mark: 10,000 comments, read
// once; later reads stop at the mark (ThreadMarker).
const maxCommentPages = 100

// ThreadMarker says up to which comment the App read a thread before and
// kept its decisions (store.DB.ThreadMark): comments up to that ID need not
// be read again. 0: never.
type ThreadMarker func(ctx context.Context, number int) (int64, error)

const threadPageQuery = `query($owner: String!, $name: String!, $number: Int!, $before: String) { repository(owner: $owner, name: $name) {
  issueOrPullRequest(number: $number) { __typename
    ... on Issue { comments(last: 100, before: $before) { ` + commentFields + ` pageInfo { hasPreviousPage startCursor } } }
    ... on PullRequest { comments(last: 100, before: $before) { ` + commentFields + ` pageInfo { hasPreviousPage startCursor } } } } } }`

const reviewPageQuery = `query($owner: String!, $name: String!, $number: Int!, $after: String) { repository(owner: $owner, name: $name) {
  pullRequest(number: $number) { reviews(first: 100, after: $after) { totalCount nodes { ` + reviewFields + ` } pageInfo { hasNextPage endCursor } } } } }`

// completeThreads reads again the conversations the snapshot query read
// only the newest part of (more than 100 comments or reviews), so a replay
// is never judged on part of a conversation: comments back to the App's
// mark (marks, nil: no mark), reviews whole up to maxThreadPages pages;
// beyond their bounds they stay marked truncated. A unit's mentions are
// completed from the attempt index idx when it can vouch for them.
func (in *Installation) completeThreads(ctx context.Context, owner, repo string, s *snapshot.PR, marks ThreadMarker, idx AttemptIndex) error {
	if err := in.completePull(ctx, owner, repo, s.Pull, marks); err != nil {
		return err
	}
	if err := in.completeUnits(ctx, owner, repo, s, marks, idx); err != nil {
		return err
	}
	if c := s.Control; c != nil && c.Thread.Truncated {
		full, err := in.thread(ctx, owner, repo, c.Number, c.Thread, marks)
		if err != nil {
			return err
		}
		c.Thread = full
	}
	return nil
}

// completePull reads again the pull request's conversation and reviews
// when the snapshot query read only their newest part (p nil: no pull).
func (in *Installation) completePull(ctx context.Context, owner, repo string, p *snapshot.Pull, marks ThreadMarker) error {
	if p == nil {
		return nil
	}
	if p.Conversation.Truncated {
		t, err := in.thread(ctx, owner, repo, p.Number, p.Conversation, marks)
		if err != nil {
			return err
		}
		p.Conversation = t
		if !t.Truncated {
			p.Truncated = slices.DeleteFunc(p.Truncated, func(n string) bool { return n == "comments" })
		}
	}
	if p.IsTruncated("reviews") {
		rs, cut, err := in.reviews(ctx, owner, repo, p.Number)
		if err != nil {
			return err
		}
		p.Reviews = rs
		if !cut {
			p.Truncated = slices.DeleteFunc(p.Truncated, func(n string) bool { return n == "reviews" })
		}
	}
	return nil
}

// completeUnits reads again the work units' truncated comment threads and
// attempt lists (from idx when it vouches for them, else paging through
// the mentions), and completes every attempt's threads.
func (in *Installation) completeUnits(ctx context.Context, owner, repo string, s *snapshot.PR, marks ThreadMarker, idx AttemptIndex) error {
	for n, t := range s.UnitComments {
		if t.Truncated {
			full, err := in.thread(ctx, owner, repo, n, t, marks)
			if err != nil {
				return err
			}
			s.UnitComments[n] = full
		}
	}
	for n, a := range s.UnitAttempts {
		if a.Truncated {
			all, err := in.unitAttempts(ctx, owner, repo, s, n, a, idx)
			if err != nil {
				return err
			}
			a = all
		}
		if err := in.completeAttempts(ctx, owner, repo, a.Pulls, marks); err != nil {
			return err
		}
		s.UnitAttempts[n] = a
	}
	return nil
}

// thread reads the comments of issue or pull request number that window
// (the snapshot's newest ones) lacks, newest first, back to the App's mark
// or the first comment, up to maxCommentPages pages, and returns them
// oldest first. When window already reaches the mark no read is needed.
func (in *Installation) thread(ctx context.Context, owner, repo string, number int, window snapshot.Thread, marks ThreadMarker) (snapshot.Thread, error) {
	var mark int64
	if marks != nil {
		var err error
		if mark, err = marks(ctx, number); err != nil {
			return window, fmt.Errorf("read mark of %s/%s#%d: %w", owner, repo, number, err)
		}
	}
	if from, ok := reaches(window.Comments, mark); ok {
		return snapshot.Thread{Comments: window.Comments, Paged: true, ReadFrom: from}, nil
	}
	var pages [][]snapshot.Comment
	var before any
	for page := 0; page < maxCommentPages; page++ {
		cs, prev, cursor, err := in.threadPage(ctx, owner, repo, number, before)
		if err != nil {
			return window, err
		}
		pages = append(pages, cs)
		if from, ok := reaches(cs, mark); ok || !prev || cursor == "" {
			t := snapshot.Thread{Paged: true, ReadFrom: from}
			for i := len(pages) - 1; i >= 0; i-- {
				t.Comments = append(t.Comments, pages[i]...)
			}
			return t, nil
		}
		before = cursor
	}
	return snapshot.Thread{Comments: window.Comments, Truncated: true, Paged: true}, nil
}

// reaches reports whether comments (a newest-first read's oldest page, or
// the window) go back to the mark, and from which ID on they were read.
func reaches(cs []snapshot.Comment, mark int64) (int64, bool) {
	if mark <= 0 || len(cs) == 0 || cs[0].ID > mark {
		return 0, false
	}
	return cs[0].ID, true
}

// threadPage reads one page of number's comments before cursor (nil: the
// newest), oldest first, and says whether older ones remain.
func (in *Installation) threadPage(ctx context.Context, owner, repo string, number int, before any) ([]snapshot.Comment, bool, string, error) {
	var data struct {
		Repository *struct {
			IssueOrPullRequest *struct {
				Comments *struct {
					jsonComments
					PageInfo struct {
						HasPreviousPage bool
						StartCursor     string
					}
				}
			}
		}
	}
	vars := map[string]any{"owner": owner, "name": repo, "number": number, "before": before}
	if err := graphQL(ctx, in.hc, in.graphqlURL, threadPageQuery, vars, &data); err != nil {
		return nil, false, "", fmt.Errorf("comments of %s/%s#%d: %w", owner, repo, number, err)
	}
	if data.Repository == nil || data.Repository.IssueOrPullRequest == nil || data.Repository.IssueOrPullRequest.Comments == nil {
		return nil, false, "", fmt.Errorf("comments of %s/%s#%d: not visible", owner, repo, number)
	}
	c := data.Repository.IssueOrPullRequest.Comments
	return c.thread().Comments, c.PageInfo.HasPreviousPage, c.PageInfo.StartCursor, nil
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

// attemptsPageQuery reads one page of a unit's cross-references, newest
// first, going back with before.
var attemptsPageQuery = fmt.Sprintf(`query($owner: String!, $name: String!, $number: Int!, $before: String) { repository(owner: $owner, name: $name) {
  issue(number: $number) { timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: %d, before: $before) { totalCount pageInfo { hasPreviousPage startCursor } nodes { ... on CrossReferencedEvent { isCrossRepository source { __typename ... on PullRequest { number state body headRefOid comments(last: %d) { %s } reviews(last: %d) { totalCount nodes { %s } } } } } } } } } }`,
	attemptsPage, attemptCommentsPage, commentFields, attemptCommentsPage, reviewFields)

// allAttempts reads every pull request that mentions unit issue number,
// 50 mentions a page back from the newest, up to maxThreadPages pages;
// Truncated when more remain.
func (in *Installation) allAttempts(ctx context.Context, owner, repo string, number int) (snapshot.Attempts, error) {
	var pages []snapshot.Attempts
	var before any
	for page := 0; ; page++ {
		if page == maxThreadPages {
			return joinAttempts(pages, true), nil
		}
		var data struct {
			Repository *struct {
				Issue *struct {
					TimelineItems *struct {
						jsonAttempts
						PageInfo struct {
							HasPreviousPage bool
							StartCursor     string
						}
					}
				}
			}
		}
		vars := map[string]any{"owner": owner, "name": repo, "number": number, "before": before}
		if err := graphQL(ctx, in.hc, in.graphqlURL, attemptsPageQuery, vars, &data); err != nil {
			return snapshot.Attempts{}, fmt.Errorf("mentions of %s/%s#%d: %w", owner, repo, number, err)
		}
		if data.Repository == nil || data.Repository.Issue == nil || data.Repository.Issue.TimelineItems == nil {
			return snapshot.Attempts{}, fmt.Errorf("mentions of %s/%s#%d: not visible", owner, repo, number)
		}
		ti := data.Repository.Issue.TimelineItems
		a := ti.attempts()
		a.Truncated = false
		pages = append(pages, a)
		if !ti.PageInfo.HasPreviousPage || ti.PageInfo.StartCursor == "" {
			return joinAttempts(pages, false), nil
		}
		before = ti.PageInfo.StartCursor
	}
}

// unitAttempts are unit's attempts when the snapshot's window of
// mentions was cut short: from the index when it vouches for them, else
// every mention paged through.
func (in *Installation) unitAttempts(ctx context.Context, owner, repo string, s *snapshot.PR, unit int, window snapshot.Attempts, idx AttemptIndex) (snapshot.Attempts, error) {
	a, ok, err := in.indexedAttempts(ctx, owner, repo, s, unit, window, idx)
	if err != nil || ok {
		return a, err
	}
	return in.allAttempts(ctx, owner, repo, unit)
}

// joinAttempts puts pages read newest first back in time order.
func joinAttempts(pages []snapshot.Attempts, cut bool) snapshot.Attempts {
	out := snapshot.Attempts{Truncated: cut}
	for i := len(pages) - 1; i >= 0; i-- {
		out.Pulls = append(out.Pulls, pages[i].Pulls...)
	}
	return out
}

// completeAttempts reads whole the open attempts' conversations the
// mentions query read only the newest 50 of.
func (in *Installation) completeAttempts(ctx context.Context, owner, repo string, pulls []snapshot.Attempt, marks ThreadMarker) error {
	for i := range pulls {
		a := &pulls[i]
		if a.State != "OPEN" || a.CrossRepository {
			continue
		}
		if a.Conversation.Truncated {
			t, err := in.thread(ctx, owner, repo, a.Number, a.Conversation, marks)
			if err != nil {
				return err
			}
			a.Conversation = t
		}
		if a.ReviewsTruncated {
			rs, cut, err := in.reviews(ctx, owner, repo, a.Number)
			if err != nil {
				return err
			}
			a.Reviews, a.ReviewsTruncated = rs, cut
		}
	}
	return nil
}
