package gh

import (
	"context"
	"fmt"
	"time"

	"github.com/google/go-github/v62/github"
)

// ClosedMilestone is a closed milestone as the reconcile sweep lists it:
// its number and GitHub's closed_at (RFC 3339), which names one closure.
type ClosedMilestone struct {
	Number   int
	ClosedAt string
}

// ClosedMilestones lists the repository's closed milestones: one read, up
// to 100 (GitHub's order, due date first).
//
// https://docs.github.com/rest/issues/milestones#list-milestones
func (in *Installation) ClosedMilestones(ctx context.Context, owner, repo string) ([]ClosedMilestone, error) {
	ms, _, err := in.rest.Issues.ListMilestones(ctx, owner, repo, &github.MilestoneListOptions{State: "closed", ListOptions: github.ListOptions{PerPage: 100}})
	if err != nil {
		return nil, classify(fmt.Sprintf("list closed milestones of %s/%s", owner, repo), err)
	}
	out := make([]ClosedMilestone, 0, len(ms))
	for _, m := range ms {
		c := ClosedMilestone{Number: m.GetNumber()}
		if m.ClosedAt != nil {
			c.ClosedAt = m.ClosedAt.UTC().Format(time.RFC3339)
		}
		out = append(out, c)
	}
	return out, nil
}
