package readback

import (
	"context"

	"github.com/aepgate/aepgate/app/route"
)

// ReadBack reads back a merge on the default branch (Target).
type ReadBack Target

// WorkKind implements route.Work.
func (ReadBack) WorkKind() string { return "ReadBack" }

// Register makes judge's Judge, the installation's for w, do ReadBack.
func Register(h *route.Handlers, judge func(ctx context.Context, w route.Where) (*Judge, error)) {
	route.Handle(h, func(ctx context.Context, w route.Where, j ReadBack) error {
		jd, err := judge(ctx, w)
		if err != nil {
			return err
		}
		return jd.Run(ctx, Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo}, Target(j))
	})
}
