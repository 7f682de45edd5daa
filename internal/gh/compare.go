package gh

import (
	"context"
	"fmt"

	"github.com/google/go-github/v62/github"

	"github.com/aepgate/aepgate/protocol/deployrules"
)

// comparePage is how many commits one comparison reads: GitHub returns
// them oldest first, and Comparison.Total says when there are more.
const comparePage = 100

// Compare is GitHub's comparison base...head: its status, how many commits
// it counts, and the first comparePage of them (oldest first) with their
// parents. One read.
//
// https://docs.github.com/rest/commits/commits#compare-two-commits
func (in *Installation) Compare(ctx context.Context, owner, repo, base, head string) (deployrules.Comparison, error) {
	c, _, err := in.rest.Repositories.CompareCommits(ctx, owner, repo, base, head, &github.ListOptions{PerPage: comparePage})
	if err != nil {
		return deployrules.Comparison{}, classify(fmt.Sprintf("compare %s...%s", base, head), err)
	}
	out := deployrules.Comparison{Status: c.GetStatus(), Total: c.GetTotalCommits()}
	for _, rc := range c.Commits {
		cm := deployrules.Commit{SHA: rc.GetSHA()}
		for _, p := range rc.Parents {
			cm.Parents = append(cm.Parents, p.GetSHA())
		}
		out.Commits = append(out.Commits, cm)
	}
	return out, nil
}
