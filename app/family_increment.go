package app

import (
	"context"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/protocol/closure"
	rules "github.com/aepgate/aepgate/protocol/increment"
)

// judgeIncrements judges milestones' increments (app/increment): the
// milestones named, and every open one when open is set (a readback on the
// default branch, a control-thread acceptance or demonstration, the sweep).
// closedBy is who closed milestones[0] (milestone.closed).
type judgeIncrements struct {
	milestones []int
	open       bool
	// atMerge, with open, judges only when a story was merged as it.
	atMerge  string
	closedBy closure.Actor
}

func (j judgeIncrements) run(ctx context.Context, a *App, ev *evaluator, w where) error {
	in, err := a.clients.Installation(w.installation)
	if err != nil {
		return err
	}
	login, err := a.clients.AppLogin(ctx)
	if err != nil {
		return err
	}
	jd := &increment.Judge{Src: in, Store: a.db, W: a.writer(in.CheckPublisher()), AppLogin: login, Rules: a.opts.incrementRules,
		ClosureRules: a.closureRules(), Log: ev.log}
	return jd.Judge(ctx, increment.Input{Delivery: w.delivery, Event: w.event, Owner: w.owner, Repo: w.repo},
		increment.Ask{Milestones: j.milestones, Open: j.open, Closed: w.event == reconcileEvent && !a.opts.openMilestonesOnly, OnlyAtMerge: j.atMerge, ClosedBy: j.closedBy})
}

// mentionsIncrement reports a comment that may accept or demonstrate an
// increment (the prefix is the config's, known only once it is read).
func mentionsIncrement(body string) bool {
	return strings.Contains(body, rules.DemoInfo) || strings.Contains(body, " accept ")
}

// milestoneIncrement judges a milestone's increment when it is closed,
// reopened or edited (its description declares the demonstration and
// risk); who closed it is the delivery's sender.
func milestoneIncrement(env envelope, v issuesView) []work {
	if v.Milestone == nil || v.Milestone.Number <= 0 || !slices.Contains([]string{"closed", "opened", "edited"}, env.Action) {
		return nil
	}
	j := judgeIncrements{milestones: []int{v.Milestone.Number}}
	if env.Action == "closed" && v.Sender != nil {
		j.closedBy = closure.Actor{Login: v.Sender.Login, Type: v.Sender.Type}
	}
	return []work{j}
}

// storyIncrement judges the increment of a story closed, reopened or
// moved between milestones (after its closure is judged).
func storyIncrement(env envelope, v issuesView) []work {
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
	return []work{judgeIncrements{milestones: ms}}
}
