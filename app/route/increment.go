package route

import (
	"slices"
	"strings"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/protocol/closure"
	rules "github.com/aepgate/aepgate/protocol/increment"
)

// mentionsIncrement reports a comment that may accept or demonstrate an
// increment (the prefix is the config's, known only once it is read).
func mentionsIncrement(body string) bool {
	return strings.Contains(body, rules.DemoInfo) || strings.Contains(body, " accept ")
}

// milestoneIncrement judges a milestone's increment when it is closed,
// reopened or edited (its description declares the demonstration and
// risk); who closed it is the delivery's sender.
func milestoneIncrement(env webhook.Envelope, v issuesView) []Work {
	if v.Milestone == nil || v.Milestone.Number <= 0 || !slices.Contains([]string{"closed", "opened", "edited"}, env.Action) {
		return nil
	}
	j := JudgeIncrements{Milestones: []int{v.Milestone.Number}}
	if env.Action == "closed" && v.Sender != nil {
		j.ClosedBy = closure.Actor{Login: v.Sender.Login, Type: v.Sender.Type}
	}
	if env.Action == "edited" && v.Sender != nil && v.Changes != nil && v.Changes.Description != nil {
		j.EditedBy, j.EditedTo = closure.Actor{Login: v.Sender.Login, Type: v.Sender.Type}, v.Milestone.Description
	}
	return []Work{j}
}

// storyIncrement judges the increment of a story closed, reopened or
// moved between milestones (after its closure is judged).
func storyIncrement(env webhook.Envelope, v issuesView) []Work {
	if !slices.Contains([]string{"closed", "reopened", "milestoned", "demilestoned"}, env.Action) {
		return nil
	}
	var ms []int
	for _, m := range []*numbered{v.Issue.Milestone, v.Milestone} {
		if m != nil && m.Number > 0 && !slices.Contains(ms, m.Number) {
			ms = append(ms, m.Number)
		}
	}
	if len(ms) == 0 {
		return nil
	}
	return []Work{JudgeIncrements{Milestones: ms}}
}
