package app

import (
	"encoding/json"
	"slices"

	aclosure "github.com/aepgate/aepgate/app/closure"
)

// issuesView is what the issues and milestones family reads.
type issuesView struct {
	Issue *struct {
		Number      int              `json:"number"`
		PullRequest *json.RawMessage `json:"pull_request"`
		Milestone   *numbered        `json:"milestone"`
		ClosedAt    string           `json:"closed_at"`
	} `json:"issue"`
	Milestone *numbered `json:"milestone"`
	Sender    *struct {
		Login string `json:"login"`
		Type  string `json:"type"`
	} `json:"sender"`
}

type numbered struct {
	Number int `json:"number"`
}

// vanishing actions make an issue or milestone unreadable, so what it
// affected cannot be asked: every open pull request is judged again.
var vanishing = []string{"deleted", "transferred"}

// issuesFamily: a change to an issue or milestone (a unit's contract, its
// dependencies, an increment's stories) has the open pull requests it
// affects judged again.
func issuesFamily() family {
	return family{
		name:   "issues and milestones",
		events: map[string][]string{"issues": nil, "milestone": nil},
		view:   func() any { return new(issuesView) },
		work: func(event string, env envelope, raw []byte, _ int64) ([]work, error) {
			v, err := decode[issuesView](raw)
			if err != nil {
				return nil, err
			}
			if event == "milestone" {
				j := judgeOpen{}
				if v.Milestone != nil && v.Milestone.Number > 0 && !slices.Contains(vanishing, env.Action) {
					j.milestones = []int{v.Milestone.Number}
				}
				return append([]work{j}, milestoneIncrement(env, v)...), nil
			}
			if v.Issue == nil || v.Issue.PullRequest != nil {
				return nil, nil
			}
			if env.Action == "closed" && v.Sender != nil && v.Issue.Number > 0 {
				// The closure is judged first: its dependents are judged on it.
				c := judgeClosure{aclosure.Closed{Issue: v.Issue.Number, By: v.Sender.Login, ByType: v.Sender.Type, ClosedAt: v.Issue.ClosedAt}}
				return append([]work{c, issueWork(env, v)}, storyIncrement(env, v)...), nil
			}
			return append([]work{issueWork(env, v)}, storyIncrement(env, v)...), nil
		},
	}
}

// issueWork names what an issues event affects: the issue, its milestone
// and the milestone it just left or joined.
func issueWork(env envelope, v issuesView) judgeOpen {
	var j judgeOpen
	if slices.Contains(vanishing, env.Action) || v.Issue.Number <= 0 {
		return j
	}
	j.issue = v.Issue.Number
	for _, m := range []*numbered{v.Issue.Milestone, v.Milestone} {
		if m != nil && m.Number > 0 && !slices.Contains(j.milestones, m.Number) {
			j.milestones = append(j.milestones, m.Number)
		}
	}
	return j
}
