package increment

import (
	"context"
	"strings"

	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/incrementrules"
)

// keepBoard keeps verdict v, shown by check run id (0: none), for the
// owner's board, which then shows the increment's stage and, once
// complete, links its certificate. The board is a view: a failure is
// logged and the judgement goes on.
func (j *Judge) keepBoard(ctx context.Context, in Input, v incrementrules.Verdict, id int64) {
	if j.Board == nil {
		return
	}
	f := boardview.FactOf(v, id, strings.TrimSuffix(j.AppLogin, "[bot]"))
	if err := j.Board.KeepIncrement(ctx, in.Owner, in.Repo, f); err != nil {
		j.Log.Warn("increment not kept for the board", "milestone", v.Milestone, "err", err)
	}
}
