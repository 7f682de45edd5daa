package app

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/protocol/workunit"
	"github.com/aepgate/aepgate/review"
)

// snapshotter reads what an evaluation needs (gh.Installation).
type snapshotter interface {
	Snapshot(ctx context.Context, req gh.SnapshotRequest) (*snapshot.PR, error)
	OpenPullRequests(ctx context.Context, owner, repo string) ([]gh.OpenPull, error)
	AffectedUnits(ctx context.Context, owner, repo string, issue int, milestones []int) (map[int]bool, error)
}

// prLocker serialises evaluations of one pull request, so two jobs never
// race to write the same check run (each evaluation then reads what the
// one before it wrote). store.DB is one.
type prLocker interface {
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// evaluator judges pull requests for one installation with its checks.
type evaluator struct {
	checks []check
	snap   snapshotter
	// w publishes check runs and records decisions (one per installation).
	w      writer.Writer
	ans    answerer
	files  fileReader
	groups groupReader
	// appLogin returns the App's own login.
	appLogin func(ctx context.Context) (string, error)
	locks    prLocker
	log      *slog.Logger
	// boards keeps the board's facts; nil keeps none.
	boards boardKeeper
	// kept keeps accepted decisions (the App's store).
	kept keeper
	// fanouts asks for a repository's open pull requests to be judged once
	// at the end of a short window; nil asks for none.
	fanouts func(ctx context.Context, owner, repo string) error
	// roles reads auditors' live roles; pushers who pushed each head.
	roles   roleReader
	pushers pusherReader
	// auditRules decide which reviews count as audits (nil means
	// review.DefaultRules), gateRules what counts in the gate log (nil
	// means gatelog.DefaultRules).
	auditRules []review.Rule
	gateRules  []gatelog.Rule
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

// judgeOpen judges the repository's open pull requests that name a unit:
// when issue or milestones are set, only those whose unit they affect.
func (e *evaluator) judgeOpen(ctx context.Context, in evalInput, issue int, milestones []int) error {
	in.answer = 0
	var affected map[int]bool
	if issue > 0 || len(milestones) > 0 {
		var err error
		if affected, err = e.snap.AffectedUnits(ctx, in.owner, in.repo, issue, milestones); err != nil {
			return err
		}
	}
	prs, err := e.snap.OpenPullRequests(ctx, in.owner, in.repo)
	if err != nil {
		return err
	}
	for _, p := range prs {
		g := guessUnits(p.Body, in.owner+"/"+in.repo)
		if len(g) == 0 || (affected != nil && !affected[g[0]]) {
			continue // names no single unit, or one this change does not touch
		}
		in.pr, in.guesses = p.Number, g
		if err := e.evaluatePR(ctx, in); err != nil {
			return err
		}
	}
	return nil
}

// evalInput is one evaluation's context for the ledger.
type evalInput struct {
	delivery, event, owner, repo string
	pr                           int
	guesses                      []int
	// answer is the comment or review whose requests this evaluation
	// answers (0: none), the one the delivery was about.
	answer int64
	// siblings asks for the unit's other open pull requests to be judged
	// after this one (the conversation changed).
	siblings bool
	// witness is the delivery's created comment as GitHub sent it, nil
	// for none.
	witness *witness
	// sweep is set for the periodic sweep's evaluations, which also answer
	// the comments whose deliveries were lost.
	sweep bool
}

// needs is what the evaluator's checks read together.
func (e *evaluator) needs() snapshot.Needs {
	var n snapshot.Needs
	for _, c := range e.checks {
		n = n.Union(c.needs)
	}
	return n
}

// evaluatePR runs every check on the pull request's head (judgePR). When
// in.siblings is set (a comment or review changed the conversation), the
// unit's other open pull requests the snapshot found are judged next, each
// under its own lock once this one is released.
func (e *evaluator) evaluatePR(ctx context.Context, in evalInput) error {
	others, err := e.judgePR(ctx, in)
	if err != nil || !in.siblings {
		return err
	}
	for _, n := range others {
		next := in
		next.pr, next.answer, next.siblings = n, 0, false
		if _, err := e.judgePR(ctx, next); err != nil {
			return err
		}
	}
	return nil
}

// judgePR runs every check on the pull request's head: lock, one snapshot,
// evaluate each check, write only what changed, one ledger row per
// decision. A closed pull request is left alone. It returns the unit's other
// open pull requests the snapshot saw.
func (e *evaluator) judgePR(ctx context.Context, in evalInput) ([]int, error) {
	log := e.log.With("pr", in.pr)
	unlock, err := e.locks.Lock(ctx, fmt.Sprintf("%s/%s#%d", in.owner, in.repo, in.pr))
	if err != nil {
		return nil, err
	}
	defer unlock()
	snap, err := e.snap.Snapshot(ctx, gh.SnapshotRequest{Owner: in.owner, Repo: in.repo, PR: in.pr, Guesses: in.guesses, Needs: e.needs(), Marks: e.marks(in)})
	if err != nil {
		return nil, err
	}
	if snap.Pull == nil || snap.Pull.State != "OPEN" {
		log.Debug("pull request not open; nothing to judge")
		return nil, nil
	}
	ev, err := e.prepare(ctx, in, snap, unitOf(snap))
	if err != nil {
		return nil, err
	}
	// Accepted decisions are kept before any check is published on them.
	if snap.Has.Conversation && ev.gateLog() != nil {
		if err := e.keepDecisions(ctx, in, ev); err != nil {
			return nil, err
		}
	}
	var judged []string
	var shown []shownRun
	for _, c := range e.checks {
		out := c.eval(ev)
		if out.skip {
			continue
		}
		write := mustWrite(snap.Pull, out.run)
		// The decision is recorded before it is acted on, so a crash between
		// the two leaves the ledger saying what was decided.
		if err := e.w.Record(ctx, entry(in, ev, c.name, out, write)); err != nil {
			return nil, err
		}
		id, err := e.publishID(ctx, in, out.run, write, absent(snap.Pull, out.run))
		if err != nil {
			return nil, err
		}
		shown = append(shown, shownRun{run: out.run, id: id})
		judged = append(judged, fmt.Sprintf("%s=%s", c.name, out.run.Conclusion))
	}
	if err := e.afterGates(ctx, in, ev); err != nil {
		return nil, err
	}
	e.keepBoardFact(ctx, in, ev, shown)
	log.Info("pull request judged", "head", snap.Pull.HeadSHA, "checks", strings.Join(judged, " "))
	return attemptNumbers(ev), nil
}

// attemptNumbers are the unit's other open pull requests the evaluation saw.
func attemptNumbers(ev *evaluation) []int {
	var out []int
	for _, a := range ev.attempts() {
		out = append(out, a.Number)
	}
	return out
}

// prepare parses the config and, when the snapshot holds the
// conversation, reads the live role of every reviewer who wrote an
// aep-audit block and of every owner and coordinator who wrote in it (one
// read per login and evaluation, roleOf), who pushed the pull request's
// commits, and the App's login. A failed look-up fails the evaluation, to
// be retried: it never counts as permission.
func (e *evaluator) prepare(ctx context.Context, in evalInput, snap *snapshot.PR, unit int) (*evaluation, error) {
	ev := newEvaluation(snap)
	ev.unit, ev.rules, ev.gateRules = unit, auditRules(e.auditRules), gateRules(e.gateRules)
	ev.witness = in.witness
	if !snap.Has.Conversation || ev.cfg == nil {
		return ev, nil
	}
	ev.roles = map[string]string{}
	if err := e.readAuditAccess(ctx, in, ev); err != nil {
		return nil, err
	}
	if err := e.fetchBundles(ctx, in, ev); err != nil {
		return nil, err
	}
	login, err := e.appLogin(ctx)
	if err != nil {
		return nil, err
	}
	ev.appLogin = login
	if err := e.loadKept(ctx, in, ev); err != nil {
		return nil, err
	}
	for _, o := range ownerAuthors(snap, append(slices.Clone(ev.cfg.Owners), ev.cfg.Coordinators...), unit, ev.kept) {
		if _, err := e.roleOf(ctx, in, ev, o); err != nil {
			return nil, err
		}
	}
	ev.perms = gatelog.Permissions(ev.roles)
	return ev, nil
}

// roleOf is login's live role on the repository (gh.Installation.Role:
// admin, maintain, write, triage, read or none), read once per evaluation
// whoever asks (the gates for owners and coordinators, the audit for
// reviewers). A failed look-up fails the evaluation, to be retried: it
// never counts as a role.
func (e *evaluator) roleOf(ctx context.Context, in evalInput, ev *evaluation, login string) (string, error) {
	if r, ok := ev.roles[login]; ok {
		return r, nil
	}
	r, err := e.roles.Role(ctx, in.owner, in.repo, login)
	if err != nil {
		return "", err
	}
	ev.roles[login] = r
	return r, nil
}

// mustWrite reports whether run must be published: unless the head's
// newest run of its name already shows it (checks.Unchanged). A run with
// annotations the summary does not list is always handed to the publisher,
// which compares annotations too.
func mustWrite(pull *snapshot.Pull, run checks.Run) bool {
	if !pull.RunsKnown {
		return true
	}
	old := pull.Latest(run.Name)
	return old == nil || !checks.Unchanged(*old, run) || !summaryListsAnnotations(run)
}

// summaryListsAnnotations reports whether every annotation's message is in
// the summary, so equal summaries mean equal annotations.
func summaryListsAnnotations(run checks.Run) bool {
	for _, a := range run.Annotations {
		if !strings.Contains(run.Summary, a.Message) {
			return false
		}
	}
	return true
}

// entry is a decision's ledger row: the inputs' IDs and SHAs, the check's
// own facts and the result.
func entry(in evalInput, ev *evaluation, name string, out outcome, write bool) store.Entry {
	snap := ev.snap
	body := map[string]any{
		"config_valid": ev.configValid(),
		"event":        in.event, "repository": in.owner + "/" + in.repo, "pull_request": in.pr,
		"head_sha": snap.Pull.HeadSHA, "config_commit": snap.Config.CommitSHA,
		"conclusion": out.run.Conclusion, "title": out.run.Title, "write": write,
	}
	for k, v := range out.facts {
		body[k] = v
	}
	return store.Entry{
		Kind: "check_run:" + name, DeliveryID: in.delivery,
		Subject: fmt.Sprintf("%s/%s#%d@%s", in.owner, in.repo, in.pr, snap.Pull.HeadSHA),
		Body:    body,
	}
}

// absent reports whether the snapshot showed that the head has no run of
// run's name and external ID, so publishing needs no search for one.
func absent(pull *snapshot.Pull, run checks.Run) bool {
	if !pull.RunsKnown {
		return false
	}
	for _, r := range pull.Runs {
		if r.Name == run.Name && r.ExternalID == run.ExternalID {
			return false
		}
	}
	return true
}

// publish writes run when write is set (the head does not already show
// exactly it); fresh says the head has no such run yet.
func (e *evaluator) publish(ctx context.Context, in evalInput, run checks.Run, write, fresh bool) error {
	_, err := e.publishID(ctx, in, run, write, fresh)
	return err
}

// publishID is publish that returns the written run's ID (0 when nothing
// was written).
func (e *evaluator) publishID(ctx context.Context, in evalInput, run checks.Run, write, fresh bool) (int64, error) {
	id, err := e.w.Publish(ctx, in.owner, in.repo, run, write, fresh)
	if err != nil {
		return 0, fmt.Errorf("pull request #%d: %w", in.pr, err)
	}
	return id, nil
}
