package app

import (
	"context"

	"github.com/aepgate/aepgate/app/verdict"
	pboard "github.com/aepgate/aepgate/protocol/board"
)

// boardKeeper keeps the board's facts and schedules board updates
// (boardJobs).
type boardKeeper interface {
	// saveFact stores an attempt's facts and reports whether they changed.
	saveFact(ctx context.Context, repo string, f pboard.Fact) (bool, error)
	// schedule asks for one board update of owner/repo soon, however many
	// evaluations ask before it runs.
	schedule(ctx context.Context, owner, repo string) error
}

// keepBoardFact stores what this evaluation derived for the board and,
// when it changed, schedules a board update. The board is a view: a
// failure is logged and the evaluation goes on.
func (e *evaluator) keepBoardFact(ctx context.Context, in evalInput, ev *verdict.Evaluation, shown []verdict.Shown) {
	if e.boards == nil || ev.Unit == 0 {
		return
	}
	repo := in.owner + "/" + in.repo
	changed, err := e.boards.saveFact(ctx, repo, verdict.BoardFact(ev, shown))
	if err == nil && changed {
		err = e.boards.schedule(ctx, in.owner, in.repo)
	}
	if err != nil {
		e.log.Warn("board facts not kept", "pr", in.pr, "err", err)
	}
}
