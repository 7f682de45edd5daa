package gh

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// affectedPage bounds each list of the affected-units query; a milestone
// holding more issues than this is an invalid increment anyway, and its
// pull requests fail on that.
const affectedPage = 100

// AffectedUnits returns the issues whose work-unit verdicts may change when
// issue (0 for none) or one of milestones changes: the issue itself, every
// issue of those milestones, and the issues the issue blocks (GitHub's
// native dependencies). One GraphQL query.
func (in *Installation) AffectedUnits(ctx context.Context, owner, repo string, issue int, milestones []int) (map[int]bool, error) {
	out := map[int]bool{}
	if issue > 0 {
		out[issue] = true
	}
	if issue <= 0 && len(milestones) == 0 {
		return out, nil
	}
	data, err := in.queryAffected(ctx, owner, repo, issue, milestones)
	if err != nil {
		return nil, fmt.Errorf("affected units of %s/%s: %w", owner, repo, err)
	}
	for alias, raw := range data["repository"] {
		if !strings.HasPrefix(alias, "m") && !strings.HasPrefix(alias, "i") {
			continue
		}
		var n *affectedNode
		if err := json.Unmarshal(raw, &n); err != nil {
			return nil, fmt.Errorf("affected units of %s/%s: decode %s: %w", owner, repo, alias, err)
		}
		n.addTo(out) // a vanished issue or milestone (nil) affects nothing more
	}
	return out, nil
}

// queryAffected runs the affected-units query, again without the blocked
// issues (and never with them after) when GitHub does not know that field.
func (in *Installation) queryAffected(ctx context.Context, owner, repo string, issue int, milestones []int) (map[string]map[string]json.RawMessage, error) {
	blockers := !in.noBlockedBy.Load()
	var data map[string]map[string]json.RawMessage
	err := graphQL(ctx, in.hc, in.graphqlURL, affectedQuery(issue, milestones, blockers), map[string]any{"owner": owner, "name": repo}, &data)
	if ge, ok := err.(*GraphQLError); ok && blockers && ge.mentions("blocking") {
		in.noBlockedBy.Store(true)
		data = nil
		err = graphQL(ctx, in.hc, in.graphqlURL, affectedQuery(issue, milestones, false), map[string]any{"owner": owner, "name": repo}, &data)
	}
	return data, err
}

// affectedNode is one alias of the affected-units query: a milestone
// (Issues) or the changed issue (Blocking, Milestone).
type affectedNode struct {
	Issues    *numbers
	Blocking  *numbers
	Milestone *struct{ Issues numbers }
}

// addTo sets in out the number of every issue n lists; a nil n adds none.
func (n *affectedNode) addTo(out map[int]bool) {
	if n == nil {
		return
	}
	lists := []*numbers{n.Issues, n.Blocking}
	if n.Milestone != nil {
		lists = append(lists, &n.Milestone.Issues)
	}
	for _, l := range lists {
		if l != nil {
			for _, i := range l.Nodes {
				out[i.Number] = true
			}
		}
	}
}

// numbers is a connection of issues, numbers only.
type numbers struct {
	Nodes []struct{ Number int }
}

// affectedQuery is the affected-units query for issue and milestones, asking
// for the issues the issue blocks when blockers is set.
func affectedQuery(issue int, milestones []int, blockers bool) string {
	var b strings.Builder
	b.WriteString("query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) {\n")
	for _, m := range milestones {
		fmt.Fprintf(&b, "  m%d: milestone(number: %d) { issues(first: %d) { nodes { number } } }\n", m, m, affectedPage)
	}
	if issue > 0 {
		blocking := ""
		if blockers {
			blocking = fmt.Sprintf(" blocking(first: %d) { nodes { number } }", affectedPage)
		}
		fmt.Fprintf(&b, "  i%d: issue(number: %d) {%s milestone { issues(first: %d) { nodes { number } } } }\n", issue, issue, blocking, affectedPage)
	}
	b.WriteString("} }")
	return b.String()
}
