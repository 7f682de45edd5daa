package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"

	aclosure "github.com/aepgate/aepgate/app/closure"
	acontract "github.com/aepgate/aepgate/app/contract"

	"github.com/aepgate/aepgate/app/instructed"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/rundocs"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/closure"
	"github.com/aepgate/aepgate/protocol/config"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/snapshot"
	"github.com/aepgate/aepgate/review"
)

// snapshotter reads what an evaluation needs (gh.Installation).
type snapshotter interface {
	Snapshot(ctx context.Context, req gh.SnapshotRequest) (*snapshot.PR, error)
	OpenPullRequests(ctx context.Context, owner, repo string) ([]gh.OpenPull, error)
	AffectedUnits(ctx context.Context, owner, repo string, issue int, milestones []int) (map[int]bool, error)
}

// teamReader reads a team's members live (gh.Installation).
type teamReader = owners.Teams

// prLocker serialises evaluations of one pull request, so two jobs never
// race to write the same check run (each evaluation then reads what the
// one before it wrote). store.DB is one.
type prLocker interface {
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// evaluator judges pull requests for one installation with its checks.
type evaluator struct {
	checks []verdict.Check
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
	// roles reads auditors' live roles; pushers who pushed each head;
	// people resolves the config's people (app/owners).
	roles   roleReader
	pushers pusherReader
	people  owners.Reader
	// timelines reads the unit issue's assignments when a listed agent
	// made the pull request (app/instructed).
	timelines instructed.Timelines
	// auditRules decide which reviews count as audits (nil means
	// review.DefaultRules), gateRules what counts in the gate log (nil
	// means gatelog.DefaultRules).
	auditRules []review.Rule
	gateRules  []gatelog.Rule
	// mergeRules resolve the config over its base (nil means
	// config.DefaultMergeRules).
	mergeRules []config.MergeRule
	// issues reads and answers unit closures; units is the App's store of
	// closure facts and evidence; closureRules judge them.
	issues       aclosure.Issues
	units        unitStore
	closureRules closure.Rules
	// contracts is the one reader of the units' contracts, kept as first judged.
	contracts acontract.Keeper
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
		g := verdict.GuessUnits(p.Body, in.owner+"/"+in.repo)
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
	witness *verdict.Witness
	// sweep is set for the periodic sweep's evaluations, which also answer
	// the comments whose deliveries were lost.
	sweep bool
	// once answers only an item never answered (an edited comment).
	once bool
}

// origin is where the evaluation's ledger rows come from.
func (in evalInput) origin() verdict.Origin {
	return verdict.Origin{Delivery: in.delivery, Event: in.event, Owner: in.owner, Repo: in.repo, PR: in.pr}
}

// needs is what the evaluator's checks read together: of the snapshot, and
// besides it.
func (e *evaluator) needs() (snapshot.Needs, verdict.Reads) {
	var n snapshot.Needs
	var r verdict.Reads
	for _, c := range e.checks {
		n, r = n.Union(c.Needs), r.Union(c.Reads)
	}
	return n, r
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
	ev, err := e.evaluation(ctx, in)
	if err != nil || ev == nil {
		return nil, err
	}
	snap := ev.Snap
	// Accepted decisions are kept before any check is published on them.
	if snap.Has.Conversation && ev.GateLog() != nil {
		if err := e.keepDecisions(ctx, in, ev); err != nil {
			return nil, err
		}
	}
	shown, judged, err := e.publishChecks(ctx, in, ev)
	if err != nil {
		return nil, err
	}
	if err := e.afterGates(ctx, in, ev); err != nil {
		return nil, err
	}
	e.keepBoardFact(ctx, in, ev, shown)
	log.Info("pull request judged", "head", snap.Pull.HeadSHA, "checks", strings.Join(judged, " "))
	return verdict.AttemptNumbers(ev), nil
}

// evaluation reads the open pull request's snapshot with what the checks
// need and prepares its evaluation; nil when the pull request is not open
// (a closed one is left alone).
func (e *evaluator) evaluation(ctx context.Context, in evalInput) (*verdict.Evaluation, error) {
	needs, reads := e.needs()
	snap, err := e.snap.Snapshot(ctx, gh.SnapshotRequest{Owner: in.owner, Repo: in.repo, PR: in.pr, Guesses: in.guesses, Needs: needs, Marks: e.marks(in)})
	if err != nil {
		return nil, err
	}
	if snap.Pull == nil || snap.Pull.State != "OPEN" {
		e.log.Debug("pull request not open; nothing to judge", "pr", in.pr)
		return nil, nil
	}
	return e.prepare(ctx, in, snap, verdict.UnitOf(snap), reads)
}

// publishChecks evaluates every check on ev and publishes what changed:
// the check runs shown, and "name=conclusion" of each for the log.
func (e *evaluator) publishChecks(ctx context.Context, in evalInput, ev *verdict.Evaluation) ([]verdict.Shown, []string, error) {
	var judged []string
	var shown []verdict.Shown
	for _, c := range e.checks {
		out := ev.Published(c.Eval(ev))
		if out.Skip {
			continue
		}
		write := verdict.MustWrite(ev.Snap.Pull, out.Run)
		// The decision is recorded before it is acted on, so a crash between
		// the two leaves the ledger saying what was decided.
		if err := e.w.Record(ctx, verdict.Entry(in.origin(), ev, c.Name, out, write)); err != nil {
			return nil, nil, err
		}
		id, err := e.publishID(ctx, in, out.Run, write, verdict.Absent(ev.Snap.Pull, out.Run))
		if err != nil {
			return nil, nil, err
		}
		shown = append(shown, verdict.Shown{Run: out.Run, ID: id})
		judged = append(judged, fmt.Sprintf("%s=%s", c.Name, out.Run.Conclusion))
	}
	return shown, judged, nil
}

// prepare parses the config and, with the conversation, reads what the
// checks declared (verdict.Reads): for the audit, reviewers' live roles,
// pushers and evidence bundles; for the gate log, readDecisions; for
// both, who instructed the agents that made the pull request
// (app/instructed). A failed look-up fails the evaluation, to be retried.
func (e *evaluator) prepare(ctx context.Context, in evalInput, snap *snapshot.PR, unit int, reads verdict.Reads) (*verdict.Evaluation, error) {
	ev := verdict.NewWith(snap, e.mergeRules)
	ev.Unit, ev.Rules, ev.GateRules = unit, verdict.AuditRules(e.auditRules), verdict.GateRules(e.gateRules)
	ev.Witness = in.witness
	if err := e.loadClosures(ctx, in, ev); err != nil {
		return nil, err
	}
	if !snap.Has.Conversation || ev.Cfg == nil {
		return ev, e.contracts.Evaluation(ctx, in.delivery, in.owner+"/"+in.repo, ev)
	}
	if err := e.readPeople(ctx, in, ev); err != nil || ev.Cfg == nil {
		return ev, err
	}
	if err := e.contracts.Evaluation(ctx, in.delivery, in.owner+"/"+in.repo, ev); err != nil {
		return nil, err
	}
	if reads.Instructors {
		if err := instructed.Read(ctx, e.timelines, in.owner, in.repo, ev); err != nil {
			return nil, err
		}
	}
	ev.Roles = map[string]string{}
	if reads.Audits {
		if err := e.readAuditAccess(ctx, in, ev); err != nil {
			return nil, err
		}
		if err := e.fetchBundles(ctx, in, ev); err != nil {
			return nil, err
		}
	}
	if reads.Decisions {
		if err := e.readDecisions(ctx, in, ev); err != nil {
			return nil, err
		}
	}
	ev.Perms = gatelog.Permissions(ev.Roles)
	return ev, nil
}

// readDecisions reads what the gate log is derived from besides the
// snapshot: the App's login, the kept decisions, the changed execution
// guides at base and head (app/rundocs), and the live role of every listed
// owner, coordinator and auditor who wrote in the conversation.
func (e *evaluator) readDecisions(ctx context.Context, in evalInput, ev *verdict.Evaluation) error {
	login, err := e.appLogin(ctx)
	if err != nil {
		return err
	}
	ev.AppLogin = login
	if err := errors.Join(e.loadKept(ctx, in, ev), rundocs.Read(ctx, e.files, in.owner, in.repo, ev)); err != nil {
		return err
	}
	for _, o := range verdict.OwnerAuthors(ev.Snap, slices.Concat(ev.Cfg.AllOwners(), ev.Cfg.Coordinators, ev.Cfg.Auditors), ev.Unit, ev.Kept) {
		if _, err := e.roleOf(ctx, in, ev, o); err != nil {
			return err
		}
	}
	return nil
}

// roleOf is login's live role on the repository (gh.Installation.Role:
// admin, maintain, write, triage, read or none), read once per evaluation
// whoever asks (the gates for owners and coordinators, the audit for
// reviewers). A failed look-up fails the evaluation, to be retried: it
// never counts as a role.
func (e *evaluator) roleOf(ctx context.Context, in evalInput, ev *verdict.Evaluation, login string) (string, error) {
	if r, ok := ev.Roles[login]; ok {
		return r, nil
	}
	r, err := e.roles.Role(ctx, in.owner, in.repo, login)
	if err != nil {
		return "", err
	}
	ev.Roles[login] = r
	return r, nil
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
