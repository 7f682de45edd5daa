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
  defaultBranchRef { name target { ... on Commit { oid file(path: %q) { object { ... on Blob { text isTruncated } } } } } }
  pullRequests(states: MERGED, first: %d, after: $after, orderBy: {field: UPDATED_AT, direction: DESC}) {
    nodes { number mergedAt updatedAt baseRefName mergeCommit { oid %s } }
    pageInfo { hasNextPage endCursor } } } }`, ConfigPath, recentMergesPage, ownSuites(appID))
}

// RecentMerges is a sweep's view of a repository: its default branch and
// config, and the pull requests merged since the horizon.
type RecentMerges struct {
	DefaultBranch string
	Config        snapshot.ConfigFile
	Merges        []RecentMerge
}

// RecentMerges lists the pull requests of owner/repo merged at or after
// since(config), where config is the repository config on the default
// branch (GraphQL, merged pull requests newest update first; a pull
// request is updated when it merges, so the pages stop at the first one
// last updated before that time).
//
// https://docs.github.com/graphql/reference/objects#repository
func (in *Installation) RecentMerges(ctx context.Context, owner, repo string, since func(snapshot.ConfigFile) time.Time) (*RecentMerges, error) {
	out := &RecentMerges{}
	var horizon time.Time
	var after any
	for page := range maxRecentPages {
		var data struct{ Repository *jsonRecent }
		if err := graphQL(ctx, in.hc, in.graphqlURL, recentMergesQuery(in.appID), map[string]any{"owner": owner, "name": repo, "after": after}, &data); err != nil {
			return nil, fmt.Errorf("recent merges of %s/%s: %w", owner, repo, err)
		}
		r := data.Repository
		if r == nil {
			return nil, fmt.Errorf("recent merges of %s/%s: repository not visible", owner, repo)
		}
		if page == 0 {
			out.DefaultBranch, out.Config = r.DefaultBranchRef.branch()
			if err := in.AttachBase(ctx, &out.Config); err != nil {
				return nil, fmt.Errorf("recent merges of %s/%s: %w", owner, repo, err)
			}
			horizon = since(out.Config)
		}
		if !r.add(out, horizon) || !r.PullRequests.PageInfo.HasNextPage || r.PullRequests.PageInfo.EndCursor == "" {
			return out, nil
		}
		after = r.PullRequests.PageInfo.EndCursor
	}
	return out, nil
}

// add appends the page's merges since horizon to out and reports whether
// older ones may follow.
func (r *jsonRecent) add(out *RecentMerges, horizon time.Time) bool {
	for _, p := range r.PullRequests.Nodes {
		if p.UpdatedAt.Before(horizon) {
			return false
		}
		if p.MergedAt == nil || p.MergedAt.Before(horizon) || p.MergeCommit == nil {
			continue
		}
		out.Merges = append(out.Merges, RecentMerge{Number: p.Number, MergedAt: *p.MergedAt, BaseRef: p.BaseRefName, MergeSHA: p.MergeCommit.Oid, Runs: p.MergeCommit.Own.runs()})
	}
	return true
}

// branch is the default branch and the config file on it.
func (d *jsonBranchRef) branch() (string, snapshot.ConfigFile) {
	if d == nil {
		return "", snapshot.ConfigFile{}
	}
	f := snapshot.ConfigFile{CommitSHA: d.Target.Oid}
	if o := d.Target.File; o != nil && o.Object != nil && o.Object.Text != nil {
		f = snapshot.ConfigFile{Found: true, Text: *o.Object.Text, Truncated: o.Object.IsTruncated, CommitSHA: d.Target.Oid}
	}
	return d.Name, f
}

// jsonRecent is the repository of the recent-merges query.
type jsonRecent struct {
	DefaultBranchRef *jsonBranchRef
	PullRequests     struct {
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
