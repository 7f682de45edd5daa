package gates

import (
	"context"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/route"
)

// Register registers the owner gates' work, done by g.
func Register(h *route.Handlers, g *Gates) {
	route.Handle(h, func(ctx context.Context, w route.Where, x AnswerOn) error {
		in := pull.InputAt(w)
		in.Answer, in.Witness, in.Once = x.Answer, x.Witness, x.Once
		return g.AnswerIssueComment(ctx, in, x.Thread, x.Control)
	})
	route.Handle(h, func(ctx context.Context, w route.Where, x CommentChanged) error {
		done, err := g.SourceChanged(ctx, pull.InputAt(w), Change{ID: x.ID, Change: x.Change, By: x.By, Control: x.Control})
		if err != nil || done || x.Then == nil {
			return err // done, or it mattered to no decision
		}
		return h.Run(ctx, w, []route.Work{x.Then})
	})
}
