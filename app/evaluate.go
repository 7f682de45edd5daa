package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"

	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/workunit"
)

const configPath = gh.ConfigPath

// snapshotter reads what a work-unit evaluation needs (one GraphQL query).
type snapshotter interface {
	WorkUnitSnapshot(ctx context.Context, owner, repo string, pr int, guesses []int) (*gh.WorkUnitSnapshot, error)
	OpenPullRequests(ctx context.Context, owner, repo string) ([]gh.PullRequest, error)
	AffectedUnits(ctx context.Context, owner, repo string, issue int, milestones []int) (map[int]bool, error)
}

// publisher writes one check run idempotently (gh.CheckPublisher).
type publisher interface {
	Publish(ctx context.Context, owner, repo string, run checks.Run) (int64, error)
}

// ledger appends one decision.
type ledger interface {
	record(ctx context.Context, e store.Entry) error
}

// evaluator judges pull requests against their work units for one
// installation.
type evaluator struct {
	snap    snapshotter
	pub     publisher
	ledger  ledger
	locks   prLocker
	metrics *metrics
	log     *slog.Logger
}

// guessUnits returns the same-repository units a body names, as the
// snapshot's guess (the body is re-read from GitHub and checked).
func guessUnits(body, repo string) []int {
	var out []int
	for _, r := range workunit.ParseRefs(body, repo) {
		if r.Repo == "" {
			out = append(out, r.Number)
		}
	}
	if len(out) > 1 {
		return nil // several units fail anyway; nothing to fetch
	}
	return out
}

// evalInput is one evaluation's context for the ledger.
type evalInput struct {
	delivery, event, owner, repo string
	pr                           int
	guesses                      []int
}

// evaluatePR posts aepgate/work-unit (and aepgate/config when needed) on
// the pull request's head and records the decision. A closed pull request
// is left alone.
func (e *evaluator) evaluatePR(ctx context.Context, in evalInput) error {
	log := e.log.With("pr", in.pr)
	unlock, err := e.locks.lock(ctx, fmt.Sprintf("%s/%s#%d", in.owner, in.repo, in.pr))
	if err != nil {
		return err
	}
	defer unlock()
	snap, err := e.snap.WorkUnitSnapshot(ctx, in.owner, in.repo, in.pr, in.guesses)
	if err != nil {
		return err
	}
	pr := snap.PR
	if pr == nil || pr.State != "OPEN" {
		log.Debug("pull request not open; nothing to judge")
		return nil
	}
	refs := workunit.ParseRefs(pr.Body, in.owner+"/"+in.repo)
	unit, err := e.unitFor(ctx, in, snap, refs)
	if err != nil {
		return err
	}
	d := judge(snap, refs, unit)
	write := !pr.RunsKnown || !showing(pr.Runs, d.run)
	// The decision is recorded before it is acted on, so a crash between
	// the two leaves the ledger saying what was decided.
	if err := e.ledger.record(ctx, d.entry(in, snap, write)); err != nil {
		return err
	}
	if err := e.publish(ctx, in, d.run, write); err != nil {
		return err
	}
	if err := e.publishConfig(ctx, in, pr, snap, d.cfgErrs, d.cfgOther); err != nil {
		return err
	}
	log.Info("work unit judged", "head", pr.HeadSHA, "unit", d.verdict.Unit, "conclusion", d.run.Conclusion, "written", write)
	return nil
}

// decision is one evaluation's outcome.
type decision struct {
	verdict  workunit.Verdict
	run      checks.Run
	cfgErrs  config.Errors
	cfgOther error
}

// judge evaluates the pull request in snap against unit and renders the
// check run; an invalid repository config fails it.
func judge(snap *gh.WorkUnitSnapshot, refs []workunit.Ref, unit *workunit.Issue) decision {
	d := decision{verdict: workunit.Evaluate(workunit.Input{Refs: refs, Unit: unit})}
	d.cfgErrs, d.cfgOther = parseConfig(snap.Config)
	if d.cfgErrs != nil || d.cfgOther != nil {
		d.verdict.OK = false
		d.verdict.Reasons = append(d.verdict.Reasons, fmt.Sprintf("the repository config %s on %s is invalid or unreadable; see the %s check", configPath, snap.DefaultBranch, ConfigCheck))
	}
	title := ""
	if unit != nil {
		title = unit.Title
	}
	d.run = workUnitRun(snap.PR.HeadSHA, d.verdict, title)
	if !snap.NativeBlockers {
		d.run.Summary += noNativeBlockers
	}
	return d
}

// entry is the decision's ledger row: the inputs' IDs and SHAs and the result.
func (d decision) entry(in evalInput, snap *gh.WorkUnitSnapshot, write bool) store.Entry {
	return store.Entry{
		Kind: "check_run:" + WorkUnitCheck, DeliveryID: in.delivery,
		Subject: fmt.Sprintf("%s/%s#%d@%s", in.owner, in.repo, in.pr, snap.PR.HeadSHA),
		Body: map[string]any{
			"event": in.event, "repository": in.owner + "/" + in.repo, "pull_request": in.pr,
			"head_sha": snap.PR.HeadSHA, "unit": d.verdict.Unit, "config_commit": snap.Config.CommitSHA,
			"config_valid": d.cfgErrs == nil && d.cfgOther == nil,
			"conclusion":   d.run.Conclusion, "reasons": d.verdict.Reasons, "write": write,
		},
	}
}

// unitFor returns the one named unit, reading it again when the body
// named another unit than the guess.
func (e *evaluator) unitFor(ctx context.Context, in evalInput, snap *gh.WorkUnitSnapshot, refs []workunit.Ref) (*workunit.Issue, error) {
	if len(refs) != 1 || refs[0].Repo != "" {
		return nil, nil
	}
	n := refs[0].Number
	if u, ok := snap.Units[n]; ok {
		return u, nil
	}
	again, err := e.snap.WorkUnitSnapshot(ctx, in.owner, in.repo, 0, []int{n})
	if err != nil {
		return nil, err
	}
	return again.Units[n], nil
}

func parseConfig(f gh.ConfigFile) (config.Errors, error) {
	switch {
	case f.Unreadable != "":
		return nil, fmt.Errorf("the App cannot read it (%s); grant the App \"Contents: read\" on this repository", f.Unreadable)
	case !f.Found:
		return nil, nil // no file: the defaults apply
	case f.Truncated:
		return nil, errors.New("the file is too large for GitHub to return inline")
	}
	_, err := config.Parse(configPath, []byte(f.Text))
	var errs config.Errors
	switch {
	case err == nil:
		return nil, nil
	case errors.As(err, &errs):
		return errs, nil
	default:
		return nil, err
	}
}

// publish writes run when write is set (the head does not already show
// exactly it).
func (e *evaluator) publish(ctx context.Context, in evalInput, run checks.Run, write bool) error {
	if !write {
		e.metrics.writes.WithLabelValues(run.Name, "unchanged").Inc()
		return nil
	}
	if _, err := e.pub.Publish(ctx, in.owner, in.repo, run); err != nil {
		return fmt.Errorf("publish %s on %s/%s#%d: %w", run.Name, in.owner, in.repo, in.pr, err)
	}
	e.metrics.writes.WithLabelValues(run.Name, "written").Inc()
	return nil
}

// publishConfig posts aepgate/config when the config is broken, and a
// success over an earlier failure once it is fixed; a valid config on a
// head that never showed a failure needs no run.
func (e *evaluator) publishConfig(ctx context.Context, in evalInput, pr *gh.PullRequest, snap *gh.WorkUnitSnapshot, errs config.Errors, other error) error {
	run := configRun(pr.HeadSHA, snap.DefaultBranch, errs, other)
	if errs == nil && other == nil && pr.RunsKnown && !slices.ContainsFunc(pr.Runs, func(r gh.ExistingRun) bool { return r.Name == ConfigCheck }) {
		return nil
	}
	return e.publish(ctx, in, run, !showing(pr.Runs, run))
}

// showing reports whether the newest run of run's name (GitHub shows only
// that one) already has the same state and output. The summary lists every
// annotation's message, so equal summaries mean equal annotations.
func showing(runs []gh.ExistingRun, run checks.Run) bool {
	run = checks.Fit(run)
	var last *gh.ExistingRun
	for i := range runs {
		if runs[i].Name == run.Name && (last == nil || runs[i].ID > last.ID) {
			last = &runs[i]
		}
	}
	return last != nil && last.ExternalID == run.ExternalID && last.Status == string(run.EffectiveStatus()) &&
		last.Conclusion == string(run.Conclusion) && last.Title == run.Title && last.Summary == run.Summary && last.Text == run.Text
}
