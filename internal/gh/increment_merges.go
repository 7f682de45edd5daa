package gh

import (
	"context"
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// StoryMerge is one merged attempt of a story as GitHub shows it: the
// pull request and its merge commit on base.
type StoryMerge struct {
	PR       int
	MergeSHA string
	Base     string
}

// storyMergesQuery reads, for each issue of a milestone, the newest
// cross-references with the pull requests behind them.
var storyMergesQuery = `query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) {
  milestone(number: $number) { issues(first: 100, states: [OPEN, CLOSED]) { nodes { number
    timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: ` + fmt.Sprint(closureXrefsPage) + `) { nodes { ... on CrossReferencedEvent { isCrossRepository
      source { __typename ... on PullRequest { number body merged baseRefName mergeCommit { oid } } } } } } } } }
} }`

type storyMergesData struct {
	Repository *struct {
		Milestone *struct {
			Issues struct {
				Nodes []struct {
					Number        int
					TimelineItems struct {
						Nodes []struct {
							IsCrossRepository bool
							Source            *struct {
								Typename    string `json:"__typename"`
								Number      int
								Body        string
								Merged      bool
								BaseRefName string
								MergeCommit *struct{ Oid string }
							}
						}
					}
				}
			}
		}
	}
}

// StoryMerges reads, in one GraphQL query, the merged same-repository pull
// requests that name each story of milestone number as their sole unit,
// with their merge commits: a story's merge counts toward the integrated
// candidate before its readback has finished.
//
// https://docs.github.com/graphql/reference/objects#milestone
func (in *Installation) StoryMerges(ctx context.Context, owner, repo string, number int) (map[int][]StoryMerge, error) {
	var data storyMergesData
	vars := map[string]any{"owner": owner, "name": repo, "number": number}
	if err := graphQL(ctx, in.hc, in.graphqlURL, storyMergesQuery, vars, &data); err != nil {
		return nil, fmt.Errorf("merges of milestone %d of %s/%s: %w", number, owner, repo, err)
	}
	out := map[int][]StoryMerge{}
	if data.Repository == nil || data.Repository.Milestone == nil {
		return out, nil
	}
	for _, is := range data.Repository.Milestone.Issues.Nodes {
		for _, n := range is.TimelineItems.Nodes {
			src := n.Source
			if n.IsCrossRepository || src == nil || src.Typename != "PullRequest" || !src.Merged || src.MergeCommit == nil {
				continue
			}
			m := StoryMerge{PR: src.Number, MergeSHA: src.MergeCommit.Oid, Base: src.BaseRefName}
			if u, ok := workunit.SoleUnit(src.Body, owner+"/"+repo); ok && u == is.Number && !slices.Contains(out[is.Number], m) {
				out[is.Number] = append(out[is.Number], m)
			}
		}
	}
	return out, nil
}
