package verdict

import (
	"fmt"
	"strings"

	"github.com/aepgate/aepgate/protocol/boardview"

	"github.com/aepgate/aepgate/checks"
)

// Shown is a check run an evaluation decided, with its ID when this
// evaluation wrote it.
type Shown struct {
	Run checks.Run
	ID  int64
}

// BoardFact is what the board needs of one evaluated attempt.
func BoardFact(ev *Evaluation, shown []Shown) boardview.Fact {
	p := ev.Snap.Pull
	repoURL, _, _ := strings.Cut(p.URL, "/pull/")
	f := boardview.Fact{PR: p.Number, Unit: ev.Unit, Head: p.HeadSHA, LastEvidence: LastEvidence(p)}
	for _, s := range shown {
		id := s.ID
		if old := p.Latest(s.Run.Name); id == 0 && old != nil {
			id = old.ID
		}
		c := boardview.Check{Name: s.Run.Name, Status: string(s.Run.EffectiveStatus()), Conclusion: string(s.Run.Conclusion)}
		if id != 0 {
			c.URL = fmt.Sprintf("%s/runs/%d", repoURL, id)
		}
		f.Checks = append(f.Checks, c)
	}
	f.State, f.Reason = FactState(ev)
	if ev.Cfg != nil && ev.GateLog() != nil {
		f.Inbox = Inbox(*ev.GateLog(), ev.Cfg.CommandPrefix, p.URL)
	}
	f.Inbox = append(f.Inbox, ClosureInbox(ev, repoURL)...)
	f.Inbox = append(f.Inbox, HeldWorkInbox(ev)...)
	return f
}

// FactState derives the attempt's state: held while a gate or HOLD waits
// for the owner, blocked while its work unit fails, in review once a
// review was asked for or given, else in progress.
func FactState(ev *Evaluation) (boardview.State, string) {
	p := ev.Snap.Pull
	switch {
	case ev.GateLog() != nil && len(ev.GateLog().Blockers) > 0:
		b := ev.GateLog().Blockers[0]
		if g, ok := FindGate(ev.GateLog().State, b.GateID); ok {
			return boardview.StateHeld, g.Question
		}
		return boardview.StateHeld, b.Reason
	case !ev.UnitVerdict().OK && len(ev.UnitVerdict().Reasons) > 0:
		return boardview.StateBlocked, ev.UnitVerdict().Reasons[0]
	case ev.Snap.Has.Conversation && ev.GateLog() == nil && ev.ConfigValid():
		return boardview.StateBlocked, "the owner gates cannot be judged"
	case len(p.Reviews) > 0 || len(p.ReviewRequests) > 0:
		return boardview.StateInReview, ""
	}
	return boardview.StateInProgress, ""
}
