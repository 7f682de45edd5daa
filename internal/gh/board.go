package gh

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// Page sizes of the board query: more milestones than boardMilestonesPage
// show the newest; an increment holds at most 8 stories, so
// milestoneIssuesPage (20) shows an over-full one as such.
const (
	boardMilestonesPage = 20
	boardXrefsPage      = 20
	boardLabelsPage     = 20
	// boardIssuesPage bounds the issues labelled checks.BoardLabel read:
	// the App's own is among the first unless people labelled more.
	boardIssuesPage = 10
)

// CertifiedLabel marks a work unit's issue once its completion certificate
// is on the merge SHA.
const CertifiedLabel = "aepgate:certified"

// BoardRead is what one board update reads of a repository: its
// milestones with their issues and attempts, and the board issue.
type BoardRead struct {
	URL string
	// Config is the repository config file on the default branch; Found is
	// false when there is none.
	Config     snapshot.ConfigFile
	Milestones []boardview.Milestone
	// Labelled are the issues labelled checks.BoardLabel, oldest first:
	// the board issue is the first the App wrote (BoardIssue.Author).
	Labelled []BoardIssue
}

// BoardIssue is the repository's board issue.
type BoardIssue struct {
	NodeID string
	Number int
	URL    string
	Body   string
	// Author is who opened it, "[bot]" included for an App.
	Author string
	// Pinned says the issue is pinned to the repository's issue list.
	Pinned bool
}

// boardQuery reads the milestones (newest first), each issue with its
// labels and the pull requests that mention it, and the oldest issue
// labelled checks.BoardLabel.
var boardQuery = fmt.Sprintf(`query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {
  url
  defaultBranchRef { target { ... on Commit { oid file(path: "`+ConfigPath+`") { object { ... on Blob { text isTruncated } } } } } }
  milestones(first: %d, states: [OPEN, CLOSED], orderBy: {field: NUMBER, direction: DESC}) { nodes { number title url state closedAt
    issues(first: %d) { nodes { number title url state body labels(first: %d) { nodes { name } }
      timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: %d) { nodes { ... on CrossReferencedEvent { isCrossRepository
        source { __typename ... on PullRequest { number title url state body headRefOid mergedAt mergeCommit { oid } } } } } } } } } }
  board: issues(labels: [%q], states: [OPEN, CLOSED], first: %d, orderBy: {field: CREATED_AT, direction: ASC}) { nodes { id number url body isPinned author { __typename login } } }
} }`, boardMilestonesPage, milestoneIssuesPage, boardLabelsPage, boardXrefsPage, checks.BoardLabel, boardIssuesPage)

type boardData struct {
	Repository *struct {
		URL              string
		DefaultBranchRef *struct {
			Target struct {
				File *struct {
					Object *struct {
						Text        *string
						IsTruncated bool
					}
				}
			}
		}
		Milestones struct{ Nodes []boardMilestone }
		Board      struct {
			Nodes []struct {
				ID       string
				Number   int
				URL      string
				Body     string
				IsPinned bool
				Author   *jsonActor
			}
		}
	}
}

type boardMilestone struct {
	Number     int
	Title, URL string
	State      string
	ClosedAt   *time.Time
	Issues     struct{ Nodes []boardIssue }
}

type boardIssue struct {
	Number           int
	Title, URL, Body string
	State            string
	Labels           struct{ Nodes []struct{ Name string } }
	TimelineItems    struct {
		Nodes []struct {
			IsCrossRepository bool
			Source            *struct {
				Typename    string `json:"__typename"`
				Number      int
				Title, URL  string
				State       string
				Body        string
				HeadRefOid  string
				MergedAt    *time.Time
				MergeCommit *struct{ Oid string }
			}
		}
	}
}

// Board reads what a board update needs of owner/repo in one GraphQL query.
//
// https://docs.github.com/graphql/reference/objects#repository
func (in *Installation) Board(ctx context.Context, owner, repo string) (*BoardRead, error) {
	var data boardData
	if err := graphQL(ctx, in.hc, in.graphqlURL, boardQuery, map[string]any{"owner": owner, "name": repo}, &data); err != nil {
		return nil, fmt.Errorf("board of %s/%s: %w", owner, repo, err)
	}
	r := data.Repository
	if r == nil {
		return nil, fmt.Errorf("board of %s/%s: the repository is not visible to the App", owner, repo)
	}
	out := &BoardRead{URL: r.URL}
	if d := r.DefaultBranchRef; d != nil && d.Target.File != nil && d.Target.File.Object != nil && d.Target.File.Object.Text != nil {
		o := d.Target.File.Object
		out.Config = snapshot.ConfigFile{Found: true, Text: *o.Text, Truncated: o.IsTruncated}
	}
	for _, m := range r.Milestones.Nodes {
		bm := boardview.Milestone{Number: m.Number, Title: m.Title, URL: m.URL, Open: m.State == "OPEN"}
		if m.ClosedAt != nil {
			bm.ClosedAt = m.ClosedAt.UTC()
		}
		for _, is := range m.Issues.Nodes {
			bm.Issues = append(bm.Issues, is.story(owner+"/"+repo))
		}
		out.Milestones = append(out.Milestones, bm)
	}
	for _, n := range r.Board.Nodes {
		out.Labelled = append(out.Labelled, BoardIssue{NodeID: n.ID, Number: n.Number, URL: n.URL, Body: n.Body, Author: n.Author.actor().Login, Pinned: n.IsPinned})
	}
	if err := in.AttachBase(ctx, &out.Config); err != nil {
		return nil, fmt.Errorf("board of %s/%s: %w", owner, repo, err)
	}
	return out, nil
}

// story converts one issue: its certified label and the same-repository
// pull requests whose description names it as their one work unit.
func (is boardIssue) story(repo string) boardview.Issue {
	out := boardview.Issue{Number: is.Number, Title: is.Title, URL: is.URL, Open: is.State == "OPEN", Body: is.Body}
	for _, l := range is.Labels.Nodes {
		if l.Name == CertifiedLabel {
			out.Certified = true
		}
	}
	for _, x := range is.TimelineItems.Nodes {
		s := x.Source
		if s == nil || s.Typename != "PullRequest" || x.IsCrossRepository || slices.ContainsFunc(out.Pulls, func(p boardview.Pull) bool { return p.Number == s.Number }) {
			continue
		}
		if n, ok := workunit.SoleUnit(s.Body, repo); !ok || n != is.Number {
			continue
		}
		p := boardview.Pull{Number: s.Number, Title: s.Title, URL: s.URL, State: s.State, Head: s.HeadRefOid}
		if s.MergedAt != nil {
			p.MergedAt = *s.MergedAt
		}
		if s.MergeCommit != nil && s.State == "MERGED" {
			p.MergeSHA = s.MergeCommit.Oid
		}
		out.Pulls = append(out.Pulls, p)
	}
	return out
}
