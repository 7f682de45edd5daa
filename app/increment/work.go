package increment

import (
	"context"

	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// JudgeIncrements judges milestones' increments: the Milestones named,
// every open one when Open is set (a readback on the default branch, a
// control-thread acceptance or demonstration, the sweep) and the recently
// closed ones when Closed is (the sweep, which finds closures whose
// delivery was lost). ClosedBy is who closed Milestones[0]
// (milestone.closed); EditedBy who edited its description to EditedTo
// (milestone.edited, a GitHub-signed sender: an owner's edit may lower its
// kept definition).
type JudgeIncrements struct {
	Milestones []int
	Open       bool
	Closed     bool `json:",omitempty"`
	// AtMerge, with Open, judges only when a story was merged as it.
	AtMerge  string
	ClosedBy closurerules.Actor
	EditedBy closurerules.Actor `json:",omitzero"`
	EditedTo string             `json:",omitempty"`
}

// WorkKind implements route.Work.
func (JudgeIncrements) WorkKind() string { return "JudgeIncrements" }

// Register makes a copy of judge, the installation's, with the App's login
// (appLogin) do each JudgeIncrements.
func Register(h *route.Handlers, judge Judge, appLogin func(context.Context) (string, error)) {
	route.Handle(h, func(ctx context.Context, w route.Where, j JudgeIncrements) error {
		jd := judge
		var err error
		if jd.AppLogin, err = appLogin(ctx); err != nil {
			return err
		}
		return jd.Judge(ctx, Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo},
			Ask{Milestones: j.Milestones, Open: j.Open, Closed: j.Closed, OnlyAtMerge: j.AtMerge, ClosedBy: j.ClosedBy, EditedBy: j.EditedBy, EditedTo: j.EditedTo})
	})
}
