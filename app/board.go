package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/board"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/login"
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

// boardGitHub is what a board update reads and writes (gh.Installation).
type boardGitHub interface {
	Board(ctx context.Context, owner, repo string) (*gh.BoardRead, error)
	CreateBoardIssue(ctx context.Context, owner, repo, body string) (*gh.BoardIssue, error)
	PinIssue(ctx context.Context, id string) error
	EditIssueBody(ctx context.Context, owner, repo string, number int, body string) error
}

// updateBoard rebuilds one repository's board under its lock, so two
// updates never both create the board issue.
func (a *App) updateBoard(ctx context.Context, args boardArgs, log *slog.Logger) error {
	in, err := a.clients.Installation(args.Installation)
	if err != nil {
		return err
	}
	unlock, err := a.db.Lock(ctx, "board:"+args.Owner+"/"+args.Repo)
	if err != nil {
		return err
	}
	defer unlock()
	login, err := a.clients.AppLogin(ctx)
	if err != nil {
		return err
	}
	return a.keepBoard(ctx, in, args.Owner, args.Repo, time.Now(), authoredBy(login), log)
}

// authoredBy accepts a labelled issue as the board issue only when app
// opened it: anyone who may label issues can label one, and the App
// rewrites no issue but its own.
func authoredBy(app string) func(gh.BoardIssue) bool {
	return func(is gh.BoardIssue) bool { return login.Equal(is.Author, app) }
}

// boardIssue is the oldest labelled issue owns accepts, or nil.
func boardIssue(labelled []gh.BoardIssue, owns func(gh.BoardIssue) bool) *gh.BoardIssue {
	for i := range labelled {
		if owns(labelled[i]) {
			return &labelled[i]
		}
	}
	return nil
}

// keepBoard is one board update: one read of the repository, the board
// built from it and the stored facts and saved for the web page, then at
// most one write: the board issue created (labelled and pinned, once) or
// its marked region rewritten, and nothing when the region is unchanged.
// The board issue is the oldest labelled issue owns accepts (authoredBy).
// A repository without milestones or attempts gets no board issue.
func (a *App) keepBoard(ctx context.Context, hub boardGitHub, owner, repo string, now time.Time, owns func(gh.BoardIssue) bool, log *slog.Logger) error {
	read, err := hub.Board(ctx, owner, repo)
	if err != nil {
		return err
	}
	facts, err := a.boardFacts(ctx, owner+"/"+repo)
	if err != nil {
		return err
	}
	b := board.Build(boardInput(owner+"/"+repo, read, facts, now, log))
	raw, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("board %s/%s: encode: %w", owner, repo, err)
	}
	if err := a.db.SaveBoard(ctx, owner+"/"+repo, raw, now); err != nil {
		return err
	}
	region, is := checks.BoardRegion(b), boardIssue(read.Labelled, owns)
	switch {
	case is == nil && len(read.Milestones) == 0 && len(facts) == 0:
		return nil
	case is == nil:
		created, err := hub.CreateBoardIssue(ctx, owner, repo, checks.BoardIssueBody(region))
		if err != nil {
			return err
		}
		log.Info("board issue created", "issue", created.Number)
		return a.pinBoard(ctx, hub, owner, repo, *created, log)
	}
	if !is.Pinned {
		if err := a.pinBoard(ctx, hub, owner, repo, *is, log); err != nil {
			return err
		}
	}
	if checks.BoardUnchanged(is.Body, region) {
		log.Debug("board unchanged", "issue", is.Number)
		return nil
	}
	log.Info("board rewritten", "issue", is.Number)
	return hub.EditIssueBody(ctx, owner, repo, is.Number, checks.MergeBoard(is.Body, region))
}

// pinBoard pins the board issue is, until GitHub pins it or refuses to
// (it pins at most three issues per repository). A refusal is recorded in
// the ledger and never asked again, so an unpinned board costs no write per
// update; a failure on the way (a 502, a rate limit) fails the board job,
// which the queue retries, and the next update asks again.
func (a *App) pinBoard(ctx context.Context, hub boardGitHub, owner, repo string, is gh.BoardIssue, log *slog.Logger) error {
	subject := fmt.Sprintf("%s/%s#%d", owner, repo, is.Number)
	refused, err := a.db.LedgerHasSubject(ctx, "board-pin:"+subject)
	if err != nil || refused {
		return err
	}
	err = hub.PinIssue(ctx, is.NodeID)
	var ge *gh.GraphQLError
	if !errors.As(err, &ge) {
		return err
	}
	log.Warn("board issue not pinned: GitHub refused", "issue", is.Number, "err", err)
	return writer.DBLedger{DB: a.db}.Record(ctx, store.Entry{Kind: "board_pin_refused", Subject: "board-pin:" + subject,
		Body: map[string]any{"repository": owner + "/" + repo, "issue": is.Number, "error": err.Error()}})
}

// boardFacts decodes the stored facts of repo's attempts; an unreadable
// one is skipped (the next evaluation writes it again).
func (a *App) boardFacts(ctx context.Context, repo string) (map[int]board.Fact, error) {
	raw, err := a.db.BoardFacts(ctx, repo)
	if err != nil {
		return nil, err
	}
	out := make(map[int]board.Fact, len(raw))
	for pr, r := range raw {
		var f board.Fact
		if json.Unmarshal(r, &f) == nil {
			out[pr] = f
		}
	}
	return out, nil
}

// boardInput is Build's input: the WIP limits and stall thresholds of the
// repository config, or the defaults while it is absent or invalid (the
// pull requests' aepgate/config says why).
func boardInput(repo string, read *gh.BoardRead, facts map[int]board.Fact, now time.Time, log *slog.Logger) board.Input {
	cfg := config.Default()
	if read.Config.Found {
		if c, err := config.Parse(config.DefaultPath, []byte(read.Config.Text)); err == nil {
			cfg = c
		} else {
			log.Warn("board uses the default limits: the config is invalid", "err", err)
		}
	}
	return board.Input{Repo: repo, URL: read.URL, Milestones: read.Milestones, Facts: facts,
		AttemptsPerUnit: cfg.Limits.AttemptsPerUnit, LanesPerIncrement: cfg.Limits.LanesPerIncrement,
		Stall: board.StallRule{SuspectAfter: cfg.Stall.SuspectAfter, StalledAfter: cfg.Stall.StalledAfter}, Now: now}
}
