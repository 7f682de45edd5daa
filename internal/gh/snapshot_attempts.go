package gh

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// AttemptIndex is the App's index of each unit's open pull requests in one
// repository (store.DB.UnitAttempts), kept from the pull_request deliveries
// and rebuilt by full listings. With it a unit mentioned more often than
// the snapshot's window of mentions holds is read with one query per
// pullsPage attempts instead of paging through every mention.
type AttemptIndex interface {
	// UnitAttempts returns the open pull requests recorded as naming unit
	// and whether the index is complete; an incomplete one is not used.
	UnitAttempts(ctx context.Context, unit int) (prs []int, complete bool, err error)
	// ForgetAttempts makes the index incomplete until it is rebuilt: an
	// open attempt GitHub shows was missing from it.
	ForgetAttempts(ctx context.Context) error
}

// pullsPage bounds the pull requests one bulk query reads (PullsAttempts):
// each with its newest attemptCommentsPage comments and reviews, about
// 25,000 nodes, far below GitHub's 500,000 a query (github-facts §3.4).
const pullsPage = 250

// attemptPullFields are the fields read of each pull request a bulk query
// names: what snapshot.Attempt holds.
var attemptPullFields = fmt.Sprintf(`number state body headRefOid comments(last: %d) { %s } reviews(last: %d) { totalCount nodes { %s } }`,
	attemptCommentsPage, commentFields, attemptCommentsPage, reviewFields)

// jsonAttemptPull is one pull request of a bulk query.
type jsonAttemptPull struct {
	Number     int
	State      string
	Body       string
	HeadRefOid string
	Comments   jsonComments
	Reviews    jsonReviews
}

// PullAttempts reads pull requests numbers of owner/repo as a unit's
// attempts (their state, body, head, newest comments and reviews), up to
// pullsPage in each GraphQL query, in the order given. A number GitHub
// does not know is left out.
func (in *Installation) PullAttempts(ctx context.Context, owner, repo string, numbers []int) ([]snapshot.Attempt, error) {
	var out []snapshot.Attempt
	for chunk := range slices.Chunk(numbers, pullsPage) {
		var b strings.Builder
		b.WriteString("query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {\n")
		for _, n := range chunk {
			fmt.Fprintf(&b, "  p%d: pullRequest(number: %d) { %s }\n", n, n, attemptPullFields)
		}
		b.WriteString("} }")
		var data struct {
			Repository map[string]*jsonAttemptPull
		}
		vars := map[string]any{"owner": owner, "name": repo}
		if err := graphQL(ctx, in.hc, in.graphqlURL, b.String(), vars, &data); err != nil {
			return nil, fmt.Errorf("pull requests of %s/%s: %w", owner, repo, err)
		}
		if data.Repository == nil {
			return nil, fmt.Errorf("pull requests of %s/%s: repository not visible", owner, repo)
		}
		for _, n := range chunk {
			if p := data.Repository[fmt.Sprintf("p%d", n)]; p != nil {
				out = append(out, snapshot.Attempt{Number: p.Number, State: p.State, Body: p.Body, HeadSHA: p.HeadRefOid,
					Conversation: p.Comments.thread(), Reviews: p.Reviews.reviews(), ReviewsTruncated: p.Reviews.TotalCount > len(p.Reviews.Nodes)})
			}
		}
	}
	return out, nil
}

// indexedAttempts completes unit's attempts, of which the snapshot read
// only the newest mentions (window), from the index: when the index is
// complete and holds every open same-repository attempt the window shows
// naming the unit (and the evaluated pull request, when it names it), the
// indexed attempts the window lacks are read in bulk. Otherwise (no index,
// an incomplete one, or one that missed an attempt, which makes it forget)
// ok is false and the caller pages through the mentions: an index that
// cannot vouch for every attempt never hides one.
func (in *Installation) indexedAttempts(ctx context.Context, owner, repo string, s *snapshot.PR, unit int, window snapshot.Attempts, idx AttemptIndex) (snapshot.Attempts, bool, error) {
	if idx == nil {
		return window, false, nil
	}
	prs, complete, err := idx.UnitAttempts(ctx, unit)
	if err != nil || !complete {
		return window, false, err
	}
	if lacksAttempt(s, unit, window, prs) {
		return window, false, idx.ForgetAttempts(ctx)
	}
	var missing []int
	for _, n := range prs {
		if (s.Pull == nil || n != s.Pull.Number) && !slices.ContainsFunc(window.Pulls, func(a snapshot.Attempt) bool { return a.Number == n && !a.CrossRepository }) {
			missing = append(missing, n)
		}
	}
	more, err := in.PullAttempts(ctx, owner, repo, missing)
	if err != nil {
		return window, false, err
	}
	return snapshot.Attempts{Pulls: append(slices.Clone(window.Pulls), more...)}, true, nil
}

// lacksAttempt reports whether the index's prs lack an open
// same-repository pull request naming unit that the window or the
// evaluated pull request shows: a delivery was lost.
func lacksAttempt(s *snapshot.PR, unit int, window snapshot.Attempts, prs []int) bool {
	seen := slices.Clone(window.Pulls)
	if p := s.Pull; p != nil {
		seen = append(seen, snapshot.Attempt{Number: p.Number, State: p.State, Body: p.Body})
	}
	for _, a := range seen {
		if n, ok := workunit.SoleUnit(a.Body, s.Repo); ok && n == unit && a.State == "OPEN" && !a.CrossRepository && !slices.Contains(prs, a.Number) {
			return true
		}
	}
	return false
}
