package app

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// readbackTarget is a merge to read back: pull request PR (merged), or the
// pull requests merged as commit SHA (Guesses, from the commit message,
// are checked first), or every recent merge (Sweep).
type readbackTarget struct {
	PR      int
	SHA     string
	Guesses []int
	Sweep   bool
}

// readbacker reads merges back and issues certificates for one
// installation: a second, small evaluation path beside the pull-request
// pipeline, keyed on the merge SHA.
type readbacker struct {
	read  mergeReader
	find  mergeFinder
	label labeler
	w     writer.Writer
	locks prLocker
	log   *slog.Logger
	now   func() time.Time
	// audited says what the audit decided for a merged pull request.
	audited func(ctx context.Context, owner, repo string, m *gh.MergedPull) (auditRecord, error)
	cache   *ancestryCache
	// horizon is how long after a readback's deadline the sweep still
	// looks at a merge (two sweeps).
	horizon time.Duration
	// boards schedules a board update when a merge's readback or
	// certificate is written (its story is merged, then certified); nil
	// schedules none.
	boards boardKeeper
}

// readbackInput is one readback evaluation's context for the ledger.
type readbackInput struct {
	delivery, event, owner, repo string
}

// runReadback reads back what t names, with ev's publisher, ledger and
// logger.
func (a *App) runReadback(ctx context.Context, ev *evaluator, w where, t readbackTarget) error {
	in, err := a.clients.Installation(w.installation)
	if err != nil {
		return err
	}
	rb := &readbacker{read: in, find: in, label: in, w: ev.w, locks: ev.locks, log: ev.log,
		boards: ev.boards, now: time.Now, audited: a.audits.wrap(ev.auditOf, time.Now), cache: &a.ancestry, horizon: 2 * a.opts.ReconcileEvery}
	o := a.opts.readback
	if o.now != nil {
		rb.now = o.now
	}
	if o.audited != nil {
		rb.audited = o.audited
	}
	if o.reader != nil {
		rb.read = o.reader(rb.read)
	}
	rin := readbackInput{delivery: w.delivery, event: w.event, owner: w.owner, repo: w.repo}
	switch {
	case t.Sweep:
		return rb.sweep(ctx, rin)
	case t.PR > 0:
		return rb.judge(ctx, rin, t.PR, "")
	}
	return rb.judgeCommit(ctx, rin, t.SHA, t.Guesses)
}

// judgeCommit reads back the pull requests merged as sha: a guessed one
// whose merge commit is sha, else those GitHub associates with sha.
func (rb *readbacker) judgeCommit(ctx context.Context, in readbackInput, sha string, guesses []int) error {
	for _, n := range guesses {
		found, err := rb.judgeMerge(ctx, in, n, sha)
		if err != nil || found {
			return err
		}
	}
	prs, err := rb.find.PullsMergedAs(ctx, in.owner, in.repo, sha)
	if err != nil {
		return err
	}
	for _, n := range prs {
		if err := rb.judge(ctx, in, n, sha); err != nil {
			return err
		}
	}
	return nil
}

// judge reads back pull request pr (when sha is set, only if it merged as
// sha).
func (rb *readbacker) judge(ctx context.Context, in readbackInput, pr int, sha string) error {
	_, err := rb.judgeMerge(ctx, in, pr, sha)
	return err
}

// judgeMerge reads back pull request pr under its lock: one observation,
// nothing more when the readback is final, else the decision, its check
// run and ledger row, and the certificate when it is verified. found says
// the pull request merged into the default branch (as sha, when set).
func (rb *readbacker) judgeMerge(ctx context.Context, in readbackInput, pr int, sha string) (found bool, err error) {
	unlock, err := rb.locks.Lock(ctx, fmt.Sprintf("readback:%s/%s#%d", in.owner, in.repo, pr))
	if err != nil {
		return false, err
	}
	defer unlock()
	m, err := rb.read.MergedPull(ctx, in.owner, in.repo, pr)
	if err != nil {
		return false, err
	}
	log := rb.log.With("pr", pr)
	if m == nil || !m.Merged || m.MergeSHA == "" || (sha != "" && m.MergeSHA != sha) || m.BaseRef != m.DefaultBranch {
		log.Debug("not merged into the default branch; no readback")
		return false, nil
	}
	cfg, cfgErr := readbackConfig(m.Config)
	timeout := config.DefaultReadbackTimeout
	if cfg != nil {
		timeout = cfg.Readback.Timeout
	}
	if final(m.MergeRuns, m.MergedAt.Add(timeout), rb.now()) {
		log.Debug("readback final; nothing to do", "merge", m.MergeSHA)
		return true, nil
	}
	j, err := rb.observe(ctx, in, m, cfg, cfgErr, timeout)
	if err != nil {
		return true, err
	}
	return true, rb.act(ctx, in, m, j)
}

// final reports whether the readback on a merge is settled: a success
// with its certificate, or a failure past the deadline. Anything else is
// judged again (a re-run may still turn a failure green in time).
func final(runs []snapshot.ExistingRun, deadline, now time.Time) bool {
	rb := gh.Latest(runs, checks.NameReadback)
	if rb == nil || rb.Status != string(checks.StatusCompleted) {
		return false
	}
	if rb.Conclusion == string(checks.ConclusionSuccess) {
		return gh.Latest(runs, checks.NameCertificate) != nil
	}
	return now.After(deadline)
}

// readbackConfig parses the repository config as the pull-request pipeline
// does; a nil config comes with the reason.
func readbackConfig(f snapshot.ConfigFile) (*config.Config, error) {
	ev := newEvaluation(&snapshot.PR{Config: f})
	switch {
	case ev.cfg != nil:
		return ev.cfg, nil
	case ev.cfgErrs != nil:
		return nil, ev.cfgErrs
	}
	return nil, ev.cfgOther
}

// record appends a decision's ledger row.
func (rb *readbacker) record(ctx context.Context, in readbackInput, m *gh.MergedPull, name string, body map[string]any) error {
	body["event"], body["repository"], body["pull_request"] = in.event, in.owner+"/"+in.repo, m.Number
	body["merge_sha"], body["head_sha"], body["config_commit"] = m.MergeSHA, m.HeadSHA, m.Config.CommitSHA
	return rb.w.Record(ctx, store.Entry{Kind: "check_run:" + name, DeliveryID: in.delivery,
		Subject: fmt.Sprintf("%s/%s#%d@%s", in.owner, in.repo, m.Number, m.MergeSHA), Body: body})
}

// publish writes run unless existing already shows it; existing nil means
// the merge commit has no such run yet.
func (rb *readbacker) publish(ctx context.Context, in readbackInput, run checks.Run, existing *snapshot.ExistingRun) error {
	write := existing == nil || !checks.Unchanged(*existing, run)
	if _, err := rb.w.Publish(ctx, in.owner, in.repo, run, write, existing == nil); err != nil {
		return fmt.Errorf("publish %s on %s/%s@%s: %w", run.Name, in.owner, in.repo, run.HeadSHA, err)
	}
	if write && rb.boards != nil {
		// The board is a view: a failure is logged and the readback goes on.
		if err := rb.boards.schedule(ctx, in.owner, in.repo); err != nil {
			rb.log.Warn("board update not scheduled", "err", err)
		}
	}
	return nil
}
