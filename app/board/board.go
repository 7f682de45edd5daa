// Package board keeps the owner's board (docs/board.md): each repository's
// board built from one read of GitHub and the facts the pull-request
// pipeline stored for its attempts, kept in the App's database for the
// signed-in /board page and written to a pinned issue; the queue's board
// jobs that coalesce the updates of a burst; and the /board page itself.
package board

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/aepgate/aepgate/internal/store"
	"log/slog"
	"time"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// Store is the App's database as the board keeps it (store.DB).
type Store interface {
	// Lock holds key until unlock is called.
	Lock(ctx context.Context, key string) (unlock func(), err error)
	// LoadBoard is repo's kept board, and false when it has none.
	LoadBoard(ctx context.Context, repo string) ([]byte, bool, error)
	// SaveBoard keeps repo's board.
	SaveBoard(ctx context.Context, repo string, board []byte, now time.Time) error
	// SaveBoardFact keeps an attempt's facts and reports whether they changed.
	SaveBoardFact(ctx context.Context, repo string, pr int, fact []byte, now time.Time) (bool, error)
	// BoardFacts are the kept facts of repo's attempts, by pull request.
	BoardFacts(ctx context.Context, repo string) (map[int][]byte, error)
	// KeptContracts are the units' contracts the judges keep (app/contract).
	KeptContracts(ctx context.Context, repo, kind string) (map[int]store.KeptContract, error)
	ClosureStore
	IncrementStore
}

// GitHub is what a board update reads and writes (gh.Installation).
type GitHub interface {
	Board(ctx context.Context, owner, repo string) (*gh.BoardRead, error)
	CreateBoardIssue(ctx context.Context, owner, repo, body string) (*gh.BoardIssue, error)
	PinIssue(ctx context.Context, id string) error
	EditIssueBody(ctx context.Context, owner, repo string, number int, body string) error
}

// Boards keeps the boards of the App's repositories.
type Boards struct {
	DB Store
	// Ledger records a pin GitHub refused, so it is never asked again.
	Ledger writer.Ledger
	// GitHub is an installation's client.
	GitHub func(installation int64) (GitHub, error)
	// AppLogin is the App's own login, the author of its board issues.
	AppLogin func(ctx context.Context) (string, error)
	// Queue inserts a board job (Insert on the App's queue).
	Queue func(ctx context.Context, args Args) error
	// Delay is the window whose evaluations one update shows.
	Delay time.Duration
	// Stopping is closed when the App shuts down; it ends a job's wait.
	Stopping <-chan struct{}
	// Job is told of every board job: its kind, result and duration.
	Job func(kind, result string, d time.Duration)
	// ClosureRules judge when a story counts as done (nil: the defaults).
	ClosureRules *closurerules.Rules
	Log          *slog.Logger
}

// Load returns the latest board kept for repo ("owner/name"), and false
// when it has none yet.
func (b *Boards) Load(ctx context.Context, repo string) (boardview.Board, bool, error) {
	raw, ok, err := b.DB.LoadBoard(ctx, repo)
	if err != nil || !ok {
		return boardview.Board{}, false, err
	}
	var out boardview.Board
	if err := json.Unmarshal(raw, &out); err != nil {
		return boardview.Board{}, false, fmt.Errorf("board %s: decode: %w", repo, err)
	}
	return out, true, nil
}

// Update rebuilds one repository's board under its lock, so two updates
// never both create the board issue.
func (b *Boards) Update(ctx context.Context, args Args, log *slog.Logger) error {
	hub, err := b.GitHub(args.Installation)
	if err != nil {
		return err
	}
	unlock, err := b.DB.Lock(ctx, "board:"+args.Owner+"/"+args.Repo)
	if err != nil {
		return err
	}
	defer unlock()
	login, err := b.AppLogin(ctx)
	if err != nil {
		return err
	}
	return b.Keep(ctx, hub, args.Owner, args.Repo, time.Now(), AuthoredBy(login), log)
}

// SaveFact stores an attempt's facts and reports whether they changed.
func (b *Boards) SaveFact(ctx context.Context, repo string, f boardview.Fact) (bool, error) {
	raw, err := json.Marshal(f)
	if err != nil {
		return false, fmt.Errorf("board fact: %w", err)
	}
	return b.DB.SaveBoardFact(ctx, repo, f.PR, raw, time.Now())
}

// Schedule asks for one update of owner/repo's board at the end of the
// current window, however many evaluations ask before it runs.
func (b *Boards) Schedule(ctx context.Context, installation int64, owner, repo string) error {
	return b.Queue(ctx, Args{Installation: installation, Owner: owner, Repo: repo, Slot: Slot(time.Now(), b.Delay)})
}
