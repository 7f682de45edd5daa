package route

import (
	"encoding/json"
	"slices"

	"github.com/aepgate/aepgate/app/webhook"
)

// issuesView is what the issues and milestones family reads.
type issuesView struct {
	Issue *struct {
		Number      int              `json:"number"`
		Body        string           `json:"body"`
		PullRequest *json.RawMessage `json:"pull_request"`
		Milestone   *numbered        `json:"milestone"`
		ClosedAt    string           `json:"closed_at"`
	} `json:"issue"`
	Milestone *numbered `json:"milestone"`
	// Changes names what an edit changed: a milestone's description, for
	// milestone.edited.
	Changes *struct {
		Description *json.RawMessage `json:"description"`
		Body        *struct {
			From string `json:"from"`
		} `json:"body"`
	} `json:"changes"`
	Sender *struct {
		Login string `json:"login"`
		Type  string `json:"type"`
	} `json:"sender"`
	// Assignee is issues.assigned's assignee.
	Assignee *struct {
		Login string `json:"login"`
	} `json:"assignee"`
}

type numbered struct {
	Number int `json:"number"`
	// Description is a milestone's, as an edit left it (milestone.edited).
	Description string `json:"description"`
}

// vanishing actions make an issue or milestone unreadable, so what it
// affected cannot be asked: every open pull request is judged again.
var vanishing = []string{"deleted", "transferred"}

// issuesFamily: a change to an issue or milestone (a unit's contract, its
// dependencies, an increment's stories) has the open pull requests it
// affects judged again; an agent assigned to a held unit is answered
// (app/heldwork).
func issuesFamily() Family {
	return Family{
		Name:   "issues and milestones",
		Events: map[string][]string{"issues": nil, "milestone": nil},
		View:   func() any { return new(issuesView) },
		Derive: func(event string, env webhook.Envelope, raw []byte, _ int64) ([]Work, error) {
			v, err := decode[issuesView](raw)
			if err != nil {
				return nil, err
			}
			if event == "milestone" {
				j := JudgeOpen{}
				if v.Milestone != nil && v.Milestone.Number > 0 && !slices.Contains(vanishing, env.Action) {
					j.Milestones = []int{v.Milestone.Number}
				}
				return append([]Work{j}, milestoneIncrement(env, v)...), nil
			}
			if v.Issue == nil || v.Issue.PullRequest != nil {
				return nil, nil
			}
			keep := keptContract(env, v)
			if env.Action == "closed" && v.Sender != nil && v.Issue.Number > 0 {
				// The closure is judged first: its dependents are judged on it.
				c := JudgeClosure{Issue: v.Issue.Number, By: v.Sender.Login, ByType: v.Sender.Type, ClosedAt: v.Issue.ClosedAt}
				return append([]Work{c, issueWork(env, v)}, storyIncrement(env, v)...), nil
			}
			out := append(append(keep, issueWork(env, v)), storyIncrement(env, v)...)
			return append(out, heldAssignment(env, v)...), nil
		},
	}
}

// keptContract keeps the contract of an issue as GitHub's signed delivery
// shows it first: as opened, or as it was before an edit.
func keptContract(env webhook.Envelope, v issuesView) []Work {
	switch {
	case v.Issue.Number <= 0:
		return nil
	case env.Action == "opened":
		return []Work{KeepContract{Issue: v.Issue.Number, Body: v.Issue.Body}}
	case env.Action == "edited" && v.Changes != nil && v.Changes.Body != nil:
		return []Work{KeepContract{Issue: v.Issue.Number, Body: v.Changes.Body.From}}
	}
	return nil
}

// issueWork names what an issues event affects: the issue, its milestone
// and the milestone it just left or joined.
func issueWork(env webhook.Envelope, v issuesView) JudgeOpen {
	var j JudgeOpen
	if slices.Contains(vanishing, env.Action) || v.Issue.Number <= 0 {
		return j
	}
	j.Issue = v.Issue.Number
	for _, m := range []*numbered{v.Issue.Milestone, v.Milestone} {
		if m != nil && m.Number > 0 && !slices.Contains(j.Milestones, m.Number) {
			j.Milestones = append(j.Milestones, m.Number)
		}
	}
	return j
}
