package heldwork

import (
	"context"

	"github.com/aepgate/aepgate/app/route"
)

// HeldWork is implementation that a HOLD on its unit blocks: a push to the
// unit's pull request or an agent assigned to its issue (answered once:
// Judge.Answer).
type HeldWork Work

// WorkKind implements route.Work.
func (HeldWork) WorkKind() string { return "HeldWork" }

// Register makes a copy of judge, the installation's, answer each HeldWork.
func Register(h *route.Handlers, judge Judge) {
	route.Handle(h, func(ctx context.Context, w route.Where, j HeldWork) error {
		jd := judge
		return jd.Answer(ctx, Input{Delivery: w.Delivery, Owner: w.Owner, Repo: w.Repo}, Work(j))
	})
}
