package board

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/protocol/boardview"
)

// IncrementStore keeps the App's latest judgement of each milestone's
// increment for the board (store.DB).
type IncrementStore interface {
	// SaveBoardIncrement keeps a milestone's fact and reports whether it
	// changed.
	SaveBoardIncrement(ctx context.Context, repo string, milestone int, fact []byte, now time.Time) (bool, error)
	// BoardIncrements are repo's kept facts, by milestone.
	BoardIncrements(ctx context.Context, repo string) (map[int][]byte, error)
}

// KeepIncrement stores the increment judge's latest verdict of a milestone
// of owner/repo and, when it changed and the repository has a board,
// schedules a board update on installation: the board then shows the
// stage without another GitHub read. A judgement never starts a board (an
// attempt's evaluation does, as before); the first update reads every
// kept verdict.
func (b *Boards) KeepIncrement(ctx context.Context, installation int64, owner, repo string, f boardview.IncrementFact) error {
	raw, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("board increment: %w", err)
	}
	changed, err := b.DB.SaveBoardIncrement(ctx, owner+"/"+repo, f.Milestone, raw, time.Now())
	if err != nil || !changed {
		return err
	}
	if _, kept, err := b.DB.LoadBoard(ctx, owner+"/"+repo); err != nil || !kept {
		return err
	}
	return b.Schedule(ctx, installation, owner, repo)
}

// increments decodes the kept increment facts of repo; an unreadable one is
// skipped (that milestone's stage is then derived from its stories until
// the next judgement writes it again).
func (b *Boards) increments(ctx context.Context, repo string) (map[int]boardview.IncrementFact, error) {
	raw, err := b.DB.BoardIncrements(ctx, repo)
	if err != nil {
		return nil, err
	}
	out := make(map[int]boardview.IncrementFact, len(raw))
	for n, r := range raw {
		var f boardview.IncrementFact
		if json.Unmarshal(r, &f) == nil {
			out[n] = f
		}
	}
	return out, nil
}

// Installation is the boards of one installation, as an increment's
// judgement keeps its verdicts (app/increment's Board).
type Installation struct {
	b  *Boards
	id int64
}

// For is b on installation id.
func (b *Boards) For(id int64) Installation { return Installation{b: b, id: id} }

// KeepIncrement keeps a milestone's verdict (Boards.KeepIncrement).
func (i Installation) KeepIncrement(ctx context.Context, owner, repo string, f boardview.IncrementFact) error {
	return i.b.KeepIncrement(ctx, i.id, owner, repo, f)
}
