package gh

import (
	"context"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// lanesPage bounds the cross-references read on each story of the unit's
// milestone for its open attempts (snapshot.Needs.Lanes) in the snapshot
// query; a story mentioned more often is completed by completeLanes.
const lanesPage = 20

// lanesPagedPage is how many of a story's cross-references one page of
// lanesPageQuery reads, up to maxThreadPages pages.
const lanesPagedPage = 100

// laneNodes are the fields read of each cross-reference for the lanes.
const laneNodes = `nodes { ... on CrossReferencedEvent { isCrossRepository source { __typename ... on PullRequest { number state body url } } } }`

// lanesQuery reads, on each story of the unit's milestone, the pull
// requests that mention it, and how many mentions GitHub holds.
var lanesQuery = fmt.Sprintf(` lanes: timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: %d) { totalCount %s }`, lanesPage, laneNodes)

// lanesPageQuery reads one page of a story's cross-references, newest
// first, going back with before.
var lanesPageQuery = fmt.Sprintf(`query($owner: String!, $name: String!, $number: Int!, $before: String) { repository(owner: $owner, name: $name) {
  issue(number: $number) { timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: %d, before: $before) { totalCount pageInfo { hasPreviousPage startCursor } %s } } } }`,
	lanesPagedPage, laneNodes)

// jsonLanes is lanesQuery's answer on one story.
type jsonLanes struct {
	TotalCount int
	Nodes      []struct {
		IsCrossRepository bool
		Source            *struct {
			Typename string `json:"__typename"`
			Number   int
			State    string
			Body     string
			URL      string
		}
	}
}

// cut reports whether GitHub holds more mentions than l read.
func (l *jsonLanes) cut() bool { return l != nil && l.TotalCount > len(l.Nodes) }

// lanes are the open same-repository pull requests that name story as
// their one work unit.
func (l *jsonLanes) lanes(repo string, story int, out []workunit.Lane) []workunit.Lane {
	if l == nil {
		return out
	}
	for _, n := range l.Nodes {
		s := n.Source
		if s == nil || s.Typename != "PullRequest" || n.IsCrossRepository || s.State != "OPEN" ||
			slices.ContainsFunc(out, func(o workunit.Lane) bool { return o.PR == s.Number }) {
			continue
		}
		if n, ok := workunit.SoleUnit(s.Body, repo); ok && n == story {
			out = append(out, workunit.Lane{PR: s.Number, Unit: story, URL: s.URL})
		}
	}
	return out
}

// lanesCompleter completes the lanes of the stories the snapshot's window
// of mentions cut short (s.LanesUnread); repoURL is the repository's web
// page. Snapshot uses Installation.completeLanes.
type lanesCompleter func(ctx context.Context, owner, repo, repoURL string, s *snapshot.PR, idx AttemptIndex) error

// completeLanes reads whole the open attempts of each story whose mentions
// the snapshot's window of lanesPage cut short (s.LanesUnread): from the
// unit's attempts when they were read whole, else from the attempt index
// when it is complete and holds every attempt GitHub showed, else by
// paging through the story's mentions. A story still cut short stays in
// s.LanesUnread, so the WIP limits are never judged on part of its
// attempts (an older attempt beyond the window keeps its place).
func (in *Installation) completeLanes(ctx context.Context, owner, repo, repoURL string, s *snapshot.PR, idx AttemptIndex) error {
	var unread []int
	for _, story := range s.LanesUnread {
		lanes, ok, err := in.storyLanes(ctx, owner, repo, repoURL, s, story, idx)
		if err != nil {
			return fmt.Errorf("open attempts of %s/%s#%d: %w", owner, repo, story, err)
		}
		if !ok {
			unread = append(unread, story)
			continue
		}
		s.Lanes = slices.DeleteFunc(s.Lanes, func(l workunit.Lane) bool { return l.Unit == story })
		for _, l := range lanes {
			if !slices.ContainsFunc(s.Lanes, func(o workunit.Lane) bool { return o.PR == l.PR }) {
				s.Lanes = append(s.Lanes, l)
			}
		}
	}
	s.LanesUnread = unread
	return nil
}

// storyLanes are story's open attempts, and whether all of them are known.
func (in *Installation) storyLanes(ctx context.Context, owner, repo, repoURL string, s *snapshot.PR, story int, idx AttemptIndex) ([]workunit.Lane, bool, error) {
	if a, ok := s.UnitAttempts[story]; ok && !a.Truncated {
		var out []workunit.Lane
		for _, p := range a.Pulls {
			if n, ok := workunit.SoleUnit(p.Body, s.Repo); ok && n == story && p.State == "OPEN" && !p.CrossRepository {
				out = append(out, workunit.Lane{PR: p.Number, Unit: story, URL: pullURL(repoURL, p.Number)})
			}
		}
		return out, true, nil
	}
	prs, ok, err := indexedLanes(ctx, s, story, idx)
	if err != nil || ok {
		out := make([]workunit.Lane, len(prs))
		for i, n := range prs {
			out[i] = workunit.Lane{PR: n, Unit: story, URL: pullURL(repoURL, n)}
		}
		return out, ok, err
	}
	return in.pagedLanes(ctx, owner, repo, s.Repo, story)
}

// indexedLanes are story's open attempts as the attempt index holds them,
// when it is complete and holds every open attempt of story the window
// (and the evaluated pull request) shows; one it lacks makes the index
// forget, and ok is false.
func indexedLanes(ctx context.Context, s *snapshot.PR, story int, idx AttemptIndex) ([]int, bool, error) {
	if idx == nil {
		return nil, false, nil
	}
	prs, complete, err := idx.UnitAttempts(ctx, story)
	if err != nil || !complete {
		return nil, false, err
	}
	seen := slices.ContainsFunc(s.Lanes, func(l workunit.Lane) bool { return l.Unit == story && !slices.Contains(prs, l.PR) })
	if p := s.Pull; p != nil && p.State == "OPEN" && !slices.Contains(prs, p.Number) {
		if n, ok := workunit.SoleUnit(p.Body, s.Repo); ok && n == story {
			seen = true
		}
	}
	if seen {
		return nil, false, idx.ForgetAttempts(ctx)
	}
	return prs, true, nil
}

// pagedLanes reads every mention of story, lanesPagedPage a page back
// from the newest, up to maxThreadPages pages, for its open attempts; ok
// is false when more remain.
func (in *Installation) pagedLanes(ctx context.Context, owner, repo, fullName string, story int) ([]workunit.Lane, bool, error) {
	var out []workunit.Lane
	var before any
	for range maxThreadPages {
		var data struct {
			Repository *struct {
				Issue *struct {
					TimelineItems *struct {
						jsonLanes
						PageInfo struct {
							HasPreviousPage bool
							StartCursor     string
						}
					}
				}
			}
		}
		vars := map[string]any{"owner": owner, "name": repo, "number": story, "before": before}
		if err := graphQL(ctx, in.hc, in.graphqlURL, lanesPageQuery, vars, &data); err != nil {
			return nil, false, fmt.Errorf("mentions: %w", err)
		}
		if data.Repository == nil || data.Repository.Issue == nil || data.Repository.Issue.TimelineItems == nil {
			return nil, false, fmt.Errorf("mentions: not visible")
		}
		ti := data.Repository.Issue.TimelineItems
		out = ti.lanes(fullName, story, out)
		if !ti.PageInfo.HasPreviousPage || ti.PageInfo.StartCursor == "" {
			return out, true, nil
		}
		before = ti.PageInfo.StartCursor
	}
	return out, false, nil
}

// pullURL is pull request n's web page in the repository at repoURL (""
// when that is unknown: the lane is then named by number).
func pullURL(repoURL string, n int) string {
	if repoURL == "" {
		return ""
	}
	return fmt.Sprintf("%s/pull/%d", repoURL, n)
}
