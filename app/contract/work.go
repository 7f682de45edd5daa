package contract

import (
	"context"

	"github.com/aepgate/aepgate/app/route"
)

// KeepContract keeps Issue's contract from Body, the body an issues
// delivery GitHub signed carried (as opened, or before an edit), when the
// App keeps none yet: the first judgement then starts from it, not from
// what a later edit left.
type KeepContract struct {
	Issue int
	Body  string
}

// WorkKind implements route.Work.
func (KeepContract) WorkKind() string { return "KeepContract" }

// Register makes k keep the contracts of KeepContract.
func Register(h *route.Handlers, k Keeper) {
	route.Handle(h, func(ctx context.Context, w route.Where, j KeepContract) error {
		return k.First(ctx, w.Delivery, w.FullName(), j.Issue, j.Body)
	})
}
