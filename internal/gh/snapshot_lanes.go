package gh

import (
	"fmt"
	"slices"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// lanesPage bounds the cross-references read on each story of the unit's
// milestone for its open attempts (snapshot.Needs.Lanes).
const lanesPage = 20

// lanesQuery reads, on each story of the unit's milestone, the pull
// requests that mention it.
var lanesQuery = fmt.Sprintf(` lanes: timelineItems(itemTypes: [CROSS_REFERENCED_EVENT], last: %d) { nodes { ... on CrossReferencedEvent { isCrossRepository source { __typename ... on PullRequest { number state body url } } } } }`, lanesPage)

// jsonLanes is lanesQuery's answer on one story.
type jsonLanes struct {
	Nodes []struct {
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
