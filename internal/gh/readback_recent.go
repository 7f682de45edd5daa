package gh

import (
	"context"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/protocol/snapshot"
)

// RecentMerge is a pull request merged since the sweep's horizon, with
// the App's own check runs on its merge commit (so a sweep can skip those
// whose readback is final without reading more).
type RecentMerge struct {
	Number   int
	MergedAt time.Time
	BaseRef  string
	MergeSHA string
	Runs     []snapshot.ExistingRun
}

// recentMergesPage is how many merged pull requests one page reads.
const recentMergesPage = 50

// maxRecentPages bounds the pages one sweep reads per repository.
const maxRecentPages = 10

func recentMergesQuery(appID int64) string {
	return fmt.Sprintf(`query($owner: String!, $name: String!, $after: String) { repository(owner: $owner, name: $name) {
  pullRequests(states: MERGED, first: %d, after: $after, orderBy: {field: UPDATED_AT, direction: DESC}) {
    nodes { number mergedAt updatedAt baseRefName mergeCommit { oid %s } }
    pageInfo { hasNextPage endCursor } } } }`, recentMergesPage, ownSuites(appID))
}

// RecentMerges lists the pull requests of owner/repo merged at or after
// since (GraphQL, merged pull requests newest update first; a pull
// request is updated when it merges, so the pages stop at the first one
// last updated before since).
//
// https://docs.github.com/graphql/reference/objects#repository
func (in *Installation) RecentMerges(ctx context.Context, owner, repo string, since time.Time) ([]RecentMerge, error) {
	var out []RecentMerge
	var after any
	for range maxRecentPages {
		var data struct{ Repository *jsonRecent }
		if err := graphQL(ctx, in.hc, in.graphqlURL, recentMergesQuery(in.appID), map[string]any{"owner": owner, "name": repo, "after": after}, &data); err != nil {
			return nil, fmt.Errorf("recent merges of %s/%s: %w", owner, repo, err)
		}
		if data.Repository == nil {
			return nil, fmt.Errorf("recent merges of %s/%s: repository not visible", owner, repo)
		}
		prs := data.Repository.PullRequests
		for _, p := range prs.Nodes {
			if p.UpdatedAt.Before(since) {
				return out, nil
			}
			if p.MergedAt == nil || p.MergedAt.Before(since) || p.MergeCommit == nil {
				continue
			}
			out = append(out, RecentMerge{Number: p.Number, MergedAt: *p.MergedAt, BaseRef: p.BaseRefName, MergeSHA: p.MergeCommit.Oid, Runs: p.MergeCommit.Own.runs()})
		}
		if !prs.PageInfo.HasNextPage || prs.PageInfo.EndCursor == "" || prs.PageInfo.EndCursor == after {
			return out, nil
		}
		after = prs.PageInfo.EndCursor
	}
	return out, nil
}

// jsonRecent is the repository of the recent-merges query.
type jsonRecent struct {
	PullRequests struct {
		Nodes []struct {
			Number      int
			MergedAt    *time.Time
			UpdatedAt   time.Time
			BaseRefName string
			MergeCommit *struct {
				Oid string
				Own jsonOwnSuites
			}
		}
		PageInfo struct {
			HasNextPage bool
			EndCursor   string
		}
	}
}
