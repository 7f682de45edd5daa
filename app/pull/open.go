package pull

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
)

// asFanout lowers ctx's GitHub priority to gh.PriorityFanout: judging a
// repository's open pull requests after one event (a config change, a
// milestone edit, a control-issue change) waits behind a pull request's
// own new head and an owner's command, and stays behind them when a
// delivery job does it; the sweep's stays background.
func asFanout(ctx context.Context) context.Context {
	if gh.PriorityOf(ctx) <= gh.PriorityFanout {
		return ctx
	}
	return gh.WithPriority(ctx, gh.PriorityFanout)
}

// Open judges the repository's open pull requests that name a unit: when
// issue or milestones are set, only those whose unit they affect. Its
// judgements share the live roles they read (Roles): one read per person
// for the whole job.
func (j *Judge) Open(ctx context.Context, in Input, issue int, milestones []int) error {
	in.Answer = 0
	if in.Roles == nil {
		in.Roles = &Roles{}
	}
	var affected map[int]bool
	if issue > 0 || len(milestones) > 0 {
		var err error
		if affected, err = j.Reads.Snap.AffectedUnits(ctx, in.Owner, in.Repo, issue, milestones); err != nil {
			return err
		}
	}
	listedAt := time.Now()
	prs, err := j.Reads.Snap.OpenPullRequests(ctx, in.Owner, in.Repo)
	if err != nil {
		return err
	}
	if err := j.indexAttempts(ctx, in, prs, listedAt); err != nil {
		return err
	}
	for _, p := range prs {
		g := verdict.GuessUnits(p.Body, in.FullName())
		if len(g) == 0 || (affected != nil && !affected[g[0]]) {
			continue // names no single unit, or one this change does not touch
		}
		in.PR, in.Guesses = p.Number, g
		if err := j.Run(ctx, in); err != nil {
			return err
		}
	}
	return nil
}

// indexAttempts rebuilds the repository's attempt index from prs, the
// whole listing of its open pull requests begun at listedAt, which makes
// the index complete (store.DB.IndexAttempts).
func (j *Judge) indexAttempts(ctx context.Context, in Input, prs []gh.OpenPull, listedAt time.Time) error {
	if j.DB.Attempts == nil {
		return nil
	}
	open := map[int]int{}
	for _, p := range prs {
		if g := verdict.GuessUnits(p.Body, in.FullName()); len(g) == 1 {
			open[p.Number] = g[0]
		}
	}
	return j.DB.Attempts.IndexAttempts(ctx, in.FullName(), open, listedAt)
}
