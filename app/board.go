package app

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/aepgate/aepgate/protocol/board"
)

// Board returns the latest board the App kept for repo ("owner/name"), and false when it has none yet.
func (a *App) Board(ctx context.Context, repo string) (board.Board, bool, error) {
	raw, ok, err := a.db.LoadBoard(ctx, repo)
	if err != nil || !ok {
		return board.Board{}, false, err
	}
	var b board.Board
	if err := json.Unmarshal(raw, &b); err != nil {
		return board.Board{}, false, fmt.Errorf("board %s: decode: %w", repo, err)
	}
	return b, true, nil
}
