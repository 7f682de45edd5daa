package pull

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/protocol/approval"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/review"
)

// Judge judges pull requests for one installation with its checks.
type Judge struct {
	Checks []verdict.Check
	Reads  Reads
	Rules  Rules
	// W publishes check runs and records decisions (one per installation).
	W writer.Writer
	// DB is what the judge keeps in the App's database.
	DB     DB
	Groups GroupReader
	// Boards keeps the board's facts; nil keeps none.
	Boards Boards
	// Gates keeps and acts on the owners' decisions (app/gates); nil does
	// neither.
	Gates Gates
	// Then is what another feature does after each judgement (app/merge);
	// nil does nothing.
	Then Then
	Log  *slog.Logger
}

// DB is what a Judge keeps in the App's database: each pull request's
// lock while it is judged, and the attempt index (nil: none; a unit's
// mentions beyond the snapshot's window are then paged through on GitHub).
type DB struct {
	Locks    Locker
	Attempts AttemptIndex
}

// Rules are the rules the pipeline's pure parts judge by.
type Rules struct {
	// Audit decide which reviews count as audits (nil means
	// review.DefaultRules), Gate what counts in the gate log (nil means
	// gatelog.DefaultRules).
	Audit []review.Rule
	Gate  []gatelog.Rule
	// Merge resolve the config over its base (nil means
	// config.DefaultMergeRules).
	Merge []config.MergeRule
	// Closure judge when a unit counts as done.
	Closure closurerules.Rules
	// Approvals join owners' answers into people when a gate needs more
	// than one (the zero value: every rule of protocol/approval).
	Approvals approval.Rules
}

// needs is what the judge's checks read together: of the snapshot, and
// besides it.
func (j *Judge) needs() (snapshot.Needs, verdict.Reads) {
	var n snapshot.Needs
	var r verdict.Reads
	for _, c := range j.Checks {
		n, r = n.Union(c.Needs), r.Union(c.Reads)
	}
	return n, r
}

// Run runs every check on the pull request's head. When in.Siblings is set
// (a comment or review changed the conversation), the unit's other open
// pull requests the snapshot found are judged next, each under its own
// lock once this one is released.
func (j *Judge) Run(ctx context.Context, in Input) error {
	others, err := j.judge(ctx, in)
	if err != nil || !in.Siblings {
		return err
	}
	for _, n := range others {
		next := in
		next.PR, next.Answer, next.Siblings = n, 0, false
		if _, err := j.judge(ctx, next); err != nil {
			return err
		}
	}
	return nil
}

// judge runs every check on the pull request's head: lock, one snapshot,
// evaluate each check, write only what changed, one ledger row per
// decision. A closed pull request is left alone. It returns the unit's
// other open pull requests the snapshot saw.
func (j *Judge) judge(ctx context.Context, in Input) ([]int, error) {
	log := j.Log.With("pr", in.PR)
	unlock, err := j.DB.Locks.Lock(ctx, fmt.Sprintf("%s/%s#%d", in.Owner, in.Repo, in.PR))
	if err != nil {
		return nil, err
	}
	defer unlock()
	ev, err := j.evaluation(ctx, in)
	if err != nil || ev == nil {
		return nil, err
	}
	snap := ev.Snap
	// Accepted decisions are kept before any check is published on them.
	if j.Gates != nil && snap.Has.Conversation && ev.GateLog() != nil {
		if err := j.Gates.Keep(ctx, in, ev); err != nil {
			return nil, err
		}
	}
	shown, judged, err := j.publishChecks(ctx, in, ev)
	if err != nil {
		return nil, err
	}
	if j.Gates != nil {
		if err := j.Gates.Act(ctx, in, ev); err != nil {
			return nil, err
		}
	}
	if j.Then != nil {
		if err := j.Then.Judged(ctx, in, ev, shown); err != nil {
			return nil, err
		}
	}
	j.keepBoardFact(ctx, in, ev, shown)
	log.Info("pull request judged", "head", snap.Pull.HeadSHA, "checks", strings.Join(judged, " "))
	return verdict.AttemptNumbers(ev), nil
}

// publishChecks evaluates every check on ev and publishes what changed:
// the check runs shown, and "name=conclusion" of each for the log.
func (j *Judge) publishChecks(ctx context.Context, in Input, ev *verdict.Evaluation) ([]verdict.Shown, []string, error) {
	var judged []string
	var shown []verdict.Shown
	for _, c := range j.Checks {
		out := ev.Published(c.Eval(ev))
		if out.Skip {
			continue
		}
		write := verdict.MustWrite(ev.Snap.Pull, out.Run)
		// The decision is recorded before it is acted on, so a crash between
		// the two leaves the ledger saying what was decided.
		if err := j.W.Record(ctx, verdict.Entry(in.Origin(), ev, c.Name, out, write)); err != nil {
			return nil, nil, err
		}
		id, err := j.publish(ctx, in, out.Run, write, verdict.Absent(ev.Snap.Pull, out.Run))
		if err != nil {
			return nil, nil, err
		}
		shown = append(shown, verdict.Shown{Run: out.Run, ID: id})
		judged = append(judged, fmt.Sprintf("%s=%s", c.Name, out.Run.Conclusion))
	}
	return shown, judged, nil
}

// publish writes run when write is set (the head does not already show
// exactly it) and returns the written run's ID (0 when nothing was
// written); fresh says the head has no such run yet.
func (j *Judge) publish(ctx context.Context, in Input, run checks.Run, write, fresh bool) (int64, error) {
	id, err := j.W.Publish(ctx, in.Owner, in.Repo, run, write, fresh)
	if err != nil {
		return 0, fmt.Errorf("pull request #%d: %w", in.PR, err)
	}
	return id, nil
}

// keepBoardFact stores what this judgement derived for the board and,
// when it changed, schedules a board update. The board is a view: a
// failure is logged and the judgement goes on.
func (j *Judge) keepBoardFact(ctx context.Context, in Input, ev *verdict.Evaluation, shown []verdict.Shown) {
	if j.Boards == nil || ev.Unit == 0 {
		return
	}
	changed, err := j.Boards.SaveFact(ctx, in.FullName(), verdict.BoardFact(ev, shown))
	if err == nil && changed {
		err = j.Boards.Schedule(ctx, in.Owner, in.Repo)
	}
	if err != nil {
		j.Log.Warn("board facts not kept", "pr", in.PR, "err", err)
	}
}
