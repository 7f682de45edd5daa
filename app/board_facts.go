package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/checks"
	pboard "github.com/aepgate/aepgate/protocol/board"
)

// shownRun is a check run an evaluation decided, with its ID when this
// evaluation wrote it.
type shownRun struct {
	run checks.Run
	id  int64
}

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
func (e *evaluator) keepBoardFact(ctx context.Context, in evalInput, ev *evaluation, shown []shownRun) {
	if e.boards == nil || ev.unit == 0 {
		return
	}
	repo := in.owner + "/" + in.repo
	changed, err := e.boards.saveFact(ctx, repo, boardFact(ev, shown))
	if err == nil && changed {
		err = e.boards.schedule(ctx, in.owner, in.repo)
	}
	if err != nil {
		e.log.Warn("board facts not kept", "pr", in.pr, "err", err)
	}
}

// boardFact is what the board needs of one evaluated attempt.
func boardFact(ev *evaluation, shown []shownRun) pboard.Fact {
	p := ev.snap.Pull
	repoURL, _, _ := strings.Cut(p.URL, "/pull/")
	f := pboard.Fact{PR: p.Number, Unit: ev.unit, Head: p.HeadSHA, LastEvidence: board.LastEvidence(p)}
	for _, s := range shown {
		id := s.id
		if old := p.Latest(s.run.Name); id == 0 && old != nil {
			id = old.ID
		}
		c := pboard.Check{Name: s.run.Name, Status: string(s.run.EffectiveStatus()), Conclusion: string(s.run.Conclusion)}
		if id != 0 {
			c.URL = fmt.Sprintf("%s/runs/%d", repoURL, id)
		}
		f.Checks = append(f.Checks, c)
	}
	f.State, f.Reason = factState(ev)
	if ev.cfg != nil && ev.gateLog() != nil {
		f.Inbox = board.Inbox(*ev.gateLog(), ev.cfg.CommandPrefix, p.URL)
	}
	return f
}

// factState derives the attempt's state: held while a gate or HOLD waits
// for the owner, blocked while its work unit fails, in review once a
// review was asked for or given, else in progress.
func factState(ev *evaluation) (pboard.State, string) {
	p := ev.snap.Pull
	switch {
	case ev.gateLog() != nil && len(ev.gateLog().Blockers) > 0:
		b := ev.gateLog().Blockers[0]
		if g, ok := board.FindGate(ev.gateLog().State, b.GateID); ok {
			return pboard.StateHeld, g.Question
		}
		return pboard.StateHeld, b.Reason
	case !ev.unitVerdict().OK && len(ev.unitVerdict().Reasons) > 0:
		return pboard.StateBlocked, ev.unitVerdict().Reasons[0]
	case ev.snap.Has.Conversation && ev.gateLog() == nil && ev.configValid():
		return pboard.StateBlocked, "the owner gates cannot be judged"
	case len(p.Reviews) > 0 || len(p.ReviewRequests) > 0:
		return pboard.StateInReview, ""
	}
	return pboard.StateInProgress, ""
}
