// Package readback reads merges back on the default branch and issues the
// completion certificate: a second, small evaluation path beside the App's
// pull-request pipeline, keyed on the merge SHA. It writes aepgate/readback
// and aepgate/certificate through the App's one writer.Writer and takes the
// rest of the App (the audit of a merged head, the config parser, the lock,
// the board) as the small interfaces and func fields of Judge.
package readback

import (
	"context"
	"fmt"
	"github.com/aepgate/aepgate/app/owners"
	"log/slog"
	"time"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/attest"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Target is a merge to read back: pull request PR (merged), or the pull
// requests merged as commit SHA (Guesses, from the commit message, are
// checked first), or every recent merge (Sweep).
type Target struct {
	PR      int
	SHA     string
	Guesses []int
	Sweep   bool
}

// Input is one readback evaluation's context for the ledger: the delivery
// and event it runs for ("" and the sweep's event for the sweep) and the
// repository.
type Input struct {
	Delivery, Event, Owner, Repo string
}

// Judge reads merges back and issues certificates for one installation.
// Every field but Boards is required.
type Judge struct {
	// GitHub is what the judge reads from and answers on GitHub.
	GitHub GitHub
	// W publishes the check runs and records each decision.
	W     writer.Writer
	Locks Locker
	Log   *slog.Logger
	// Now is the clock readback deadlines are judged by.
	Now func() time.Time
	// Rules decide what a merge's readback rests on.
	Rules Rules
	Cache *Ancestry
	// Coverage compares a merge's tree with git's replay of the audited
	// change (Clones); nil observes none, and every readback that needs
	// the comparison fails as unverifiable.
	Coverage CoverageSource
	// Horizon is how long after a readback's deadline the sweep still
	// looks at a merge (two sweeps).
	Horizon time.Duration
	// After is what follows a verified readback.
	After After
}

// GitHub are the installation's reads and answers a readback uses.
type GitHub struct {
	Read  MergeReader
	Find  MergeFinder
	Label Labeler
	// Roles reads an accepting owner's live role (authority.go).
	Roles RoleReader
	// Attest uploads a signed certificate's bundle to GitHub's
	// attestations API (best effort); nil uploads none.
	Attest Attester
	// React answers the owner's accept-merge that released a certificate;
	// nil answers none.
	React Reactor
}

// Rules decide what a merge's readback rests on.
type Rules struct {
	// Audited says what the audit decided for a merged pull request.
	Audited AuditFunc
	// Config parses the repository config as the pull-request pipeline
	// does; a nil config comes with the reason.
	Config func(snapshot.ConfigFile) (*config.Config, error)
	// Authority judges who merged; nil is merge.Authority.
	Authority AuthorityRule
	// People resolves the owners merge authority names (app/owners, the
	// one resolver: teams and CODEOWNERS).
	People owners.Reader
}

// After is what follows a verified readback: the certificate's
// signature, the board, the evidence kept for closure.
type After struct {
	// Boards schedules a board update when a merge's readback or
	// certificate is written (its story is merged, then certified); nil
	// schedules none.
	Boards func(ctx context.Context, owner, repo string) error
	// Signer signs each certificate as an in-toto statement in a DSSE
	// envelope, attached to the certificate run; nil signs none.
	Signer *attest.Signer
	// Evidence receives what the App wrote for a merged attempt of unit
	// once its readback is verified; nil keeps nothing.
	Evidence func(ctx context.Context, owner, repo string, unit int, a closurerules.Attempt) error
}

// Run reads back what t names.
func (j *Judge) Run(ctx context.Context, in Input, t Target) error {
	switch {
	case t.Sweep:
		return j.sweep(ctx, in)
	case t.PR > 0:
		return j.judge(ctx, in, t.PR, "")
	}
	return j.judgeCommit(ctx, in, t.SHA, t.Guesses)
}

// judgeCommit reads back the pull requests merged as sha: a guessed one
// whose merge commit is sha, else those GitHub associates with sha.
func (j *Judge) judgeCommit(ctx context.Context, in Input, sha string, guesses []int) error {
	for _, n := range guesses {
		found, err := j.judgeMerge(ctx, in, n, sha)
		if err != nil || found {
			return err
		}
	}
	prs, err := j.GitHub.Find.PullsMergedAs(ctx, in.Owner, in.Repo, sha)
	if err != nil {
		return err
	}
	for _, n := range prs {
		if err := j.judge(ctx, in, n, sha); err != nil {
			return err
		}
	}
	return nil
}

// judge reads back pull request pr (when sha is set, only if it merged as
// sha).
func (j *Judge) judge(ctx context.Context, in Input, pr int, sha string) error {
	_, err := j.judgeMerge(ctx, in, pr, sha)
	return err
}

// judgeMerge reads back pull request pr under its lock: one observation,
// nothing more when the readback is final, else the decision, its check
// run and ledger row, and the certificate when it is verified. found says
// the pull request merged into the default branch (as sha, when set).
func (j *Judge) judgeMerge(ctx context.Context, in Input, pr int, sha string) (found bool, err error) {
	unlock, err := j.Locks.Lock(ctx, fmt.Sprintf("readback:%s/%s#%d", in.Owner, in.Repo, pr))
	if err != nil {
		return false, err
	}
	defer unlock()
	m, err := j.GitHub.Read.MergedPull(ctx, in.Owner, in.Repo, pr)
	if err != nil {
		return false, err
	}
	log := j.Log.With("pr", pr)
	if m == nil || !m.Merged || m.MergeSHA == "" || (sha != "" && m.MergeSHA != sha) || m.BaseRef != m.DefaultBranch {
		log.Debug("not merged into the default branch; no readback")
		return false, nil
	}
	cfg, cfgErr := j.Rules.Config(m.Config)
	timeout := config.DefaultReadbackTimeout
	if cfg != nil {
		timeout = cfg.Readback.Timeout
	}
	retro, err := j.retro(ctx, in, m, cfg)
	if err != nil {
		return true, err
	}
	if err := j.owe(ctx, in, m, retro); err != nil {
		return true, err
	}
	if final(m.MergeRuns, m.MergedAt.Add(timeout), j.Now()) {
		log.Debug("readback final; nothing to do", "merge", m.MergeSHA)
		return true, nil
	}
	d, err := j.observe(ctx, in, m, cfg, cfgErr, timeout)
	if err != nil {
		return true, err
	}
	d.retro = retro
	if d.auth, err = j.authority(ctx, in, m, cfg); err != nil {
		return true, err
	}
	return true, j.act(ctx, in, m, d)
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

// record appends a decision's ledger row.
func (j *Judge) record(ctx context.Context, in Input, m *gh.MergedPull, name string, body map[string]any) error {
	body["event"], body["repository"], body["pull_request"] = in.Event, in.Owner+"/"+in.Repo, m.Number
	body["merge_sha"], body["head_sha"], body["config_commit"] = m.MergeSHA, m.HeadSHA, m.Config.CommitSHA
	return j.W.Record(ctx, store.Entry{Kind: "check_run:" + name, DeliveryID: in.Delivery,
		Subject: fmt.Sprintf("%s/%s#%d@%s", in.Owner, in.Repo, m.Number, m.MergeSHA), Body: body})
}

// publish writes run unless existing already shows it; existing nil means
// the merge commit has no such run yet.
func (j *Judge) publish(ctx context.Context, in Input, run checks.Run, existing *snapshot.ExistingRun) error {
	write := existing == nil || !checks.Unchanged(*existing, run)
	if _, err := j.W.Publish(ctx, in.Owner, in.Repo, run, write, existing == nil); err != nil {
		return fmt.Errorf("publish %s on %s/%s@%s: %w", run.Name, in.Owner, in.Repo, run.HeadSHA, err)
	}
	if write && j.After.Boards != nil {
		// The board is a view: a failure is logged and the readback goes on.
		if err := j.After.Boards(ctx, in.Owner, in.Repo); err != nil {
			j.Log.Warn("board update not scheduled", "err", err)
		}
	}
	return nil
}
