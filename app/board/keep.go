package board

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/login"
)

// AuthoredBy accepts a labelled issue as the board issue only when app
// opened it: anyone who may label issues can label one, and the App
// rewrites no issue but its own.
func AuthoredBy(app string) func(gh.BoardIssue) bool {
	return func(is gh.BoardIssue) bool { return login.Equal(is.Author, app) }
}

// issueOf is the oldest labelled issue owns accepts, or nil.
func issueOf(labelled []gh.BoardIssue, owns func(gh.BoardIssue) bool) *gh.BoardIssue {
	for i := range labelled {
		if owns(labelled[i]) {
			return &labelled[i]
		}
	}
	return nil
}

// Keep is one board update: one read of the repository, the board built
// from it and the stored facts (the attempts', the closures', the
// increments') and saved for the web page, then at most
// one write: the board issue created (labelled and pinned, once) or its
// marked region rewritten, and nothing when the region is unchanged. The
// board issue is the oldest labelled issue owns accepts (AuthoredBy). A
// repository without milestones or attempts gets no board issue.
func (b *Boards) Keep(ctx context.Context, hub GitHub, owner, repo string, now time.Time, owns func(gh.BoardIssue) bool, log *slog.Logger) error {
	read, err := hub.Board(ctx, owner, repo)
	if err != nil {
		return err
	}
	facts, err := b.facts(ctx, owner+"/"+repo)
	if err != nil {
		return err
	}
	in := input(owner+"/"+repo, read, facts, now, log)
	if err := b.stored(ctx, owner+"/"+repo, read, &in); err != nil {
		return err
	}
	built := boardview.Build(in)
	raw, err := json.Marshal(built)
	if err != nil {
		return fmt.Errorf("board %s/%s: encode: %w", owner, repo, err)
	}
	if err := b.DB.SaveBoard(ctx, owner+"/"+repo, raw, now); err != nil {
		return err
	}
	region, is := checks.BoardRegion(built), issueOf(read.Labelled, owns)
	switch {
	case is == nil && len(read.Milestones) == 0 && len(facts) == 0:
		return nil
	case is == nil:
		created, err := hub.CreateBoardIssue(ctx, owner, repo, checks.BoardIssueBody(region))
		if err != nil {
			return err
		}
		log.Info("board issue created", "issue", created.Number)
		return b.pin(ctx, hub, owner, repo, *created, log)
	}
	if !is.Pinned {
		if err := b.pin(ctx, hub, owner, repo, *is, log); err != nil {
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

// pin pins the board issue is, until GitHub pins it or refuses to (it
// pins at most three issues per repository). A refusal is recorded in the
// ledger and never asked again, so an unpinned board costs no write per
// update; a failure on the way (a 502, a rate limit) fails the board job,
// which the queue retries, and the next update asks again.
func (b *Boards) pin(ctx context.Context, hub GitHub, owner, repo string, is gh.BoardIssue, log *slog.Logger) error {
	subject := fmt.Sprintf("board-pin:%s/%s#%d", owner, repo, is.Number)
	refused, err := b.Ledger.Has(ctx, subject)
	if err != nil || refused {
		return err
	}
	err = hub.PinIssue(ctx, is.NodeID)
	var ge *gh.GraphQLError
	if !errors.As(err, &ge) {
		return err
	}
	log.Warn("board issue not pinned: GitHub refused", "issue", is.Number, "err", err)
	return b.Ledger.Record(ctx, store.Entry{Kind: "board_pin_refused", Subject: subject,
		Body: map[string]any{"repository": owner + "/" + repo, "issue": is.Number, "error": err.Error()}})
}

// facts decodes the stored facts of repo's attempts; an unreadable one is
// skipped (the next evaluation writes it again).
func (b *Boards) facts(ctx context.Context, repo string) (map[int]boardview.Fact, error) {
	raw, err := b.DB.BoardFacts(ctx, repo)
	if err != nil {
		return nil, err
	}
	out := make(map[int]boardview.Fact, len(raw))
	for pr, r := range raw {
		var f boardview.Fact
		if json.Unmarshal(r, &f) == nil {
			out[pr] = f
		}
	}
	return out, nil
}

// input is Build's input: the WIP limits and stall thresholds of the
// repository config, or the defaults while it is absent or invalid (the
// pull requests' aepgate/config says why).
func input(repo string, read *gh.BoardRead, facts map[int]boardview.Fact, now time.Time, log *slog.Logger) boardview.Input {
	cfg := config.Default()
	if read.Config.Found {
		if c, err := verdict.Config(read.Config); err == nil { // resolved over its base
			cfg = c
		} else {
			log.Warn("board uses the default limits: the config is invalid", "err", err)
		}
	}
	return boardview.Input{Repo: repo, URL: read.URL, Milestones: read.Milestones, Facts: facts,
		AttemptsPerUnit: cfg.Limits.AttemptsPerUnit, LanesPerIncrement: cfg.Limits.LanesPerIncrement,
		Stall: boardview.StallRule{SuspectAfter: cfg.Stall.SuspectAfter, StalledAfter: cfg.Stall.StalledAfter}, Now: now,
		MergeCoordinators: cfg.Merge.Coordinators()}
}
