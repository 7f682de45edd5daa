package closure

import (
	"context"

	"github.com/aepgate/aepgate/app/route"
)

// JudgeClosure judges an issue's closure (issues.closed).
type JudgeClosure Closed

// WorkKind implements route.Work.
func (JudgeClosure) WorkKind() string { return "JudgeClosure" }

// CloseCommand is a created or edited comment on a unit's issue that may
// hold `/aep close <reason>` (kept and acknowledged: Judge.Command).
type CloseCommand Said

// WorkKind implements route.Work.
func (CloseCommand) WorkKind() string { return "CloseCommand" }

// Register makes judge's Judge, the one for w, do JudgeClosure and
// CloseCommand.
func Register(h *route.Handlers, judge func(w route.Where) *Judge) {
	route.Handle(h, func(ctx context.Context, w route.Where, j JudgeClosure) error {
		return judge(w).Closure(ctx, input(w), Closed(j))
	})
	route.Handle(h, func(ctx context.Context, w route.Where, j CloseCommand) error {
		return judge(w).Command(ctx, input(w), Said(j))
	})
}

// input is what asked for work done for w.
func input(w route.Where) Input { return Input{Delivery: w.Delivery, Owner: w.Owner, Repo: w.Repo} }
