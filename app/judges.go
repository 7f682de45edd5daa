package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/deploy"
	"github.com/aepgate/aepgate/app/gates"
	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/release"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// Snapshotter reads pull-request snapshots (gh.Installation); Seams.Snapshots wraps it.
type Snapshotter = pull.Snapshotter

// Keeper keeps accepted decisions (store.DB); Seams.Keeper wraps it: what
// the pull judge reads of it and what the gates write.
type Keeper interface {
	pull.KeptReader
	gates.Kept
}

// judges are one installation's pull judge and gates, and what the
// installation's other judges share with them: the kept decisions, the
// one resolver of people, the one reader of the units' contracts.
type judges struct {
	gh        *gh.Installation
	pull      *pull.Judge
	gates     *gates.Gates
	kept      Keeper
	people    owners.Reader
	contracts contract.Keeper
	w         writer.Writer
	boards    board.Installation
	log       *slog.Logger
}

// judges builds the pull judge and the gates of one installation from
// the Options: the gates answer through the pull judge, which keeps and
// acts on decisions through the gates.
func (a *App) judges(installation int64, log *slog.Logger) (*judges, error) {
	in, err := a.clients.Installation(installation)
	if err != nil {
		return nil, err
	}
	s := a.opts.Seams
	j := &judges{gh: in, kept: Keeper(a.db), people: owners.Reader{Files: in, Teams: in, Resolve: s.People},
		contracts: contract.Keeper{Store: a.db, Rules: s.ContractRules}, w: a.writer(in.CheckPublisher()), boards: a.boards().For(installation), log: log}
	var snap Snapshotter = in
	if s.Snapshots != nil {
		snap = s.Snapshots(in)
	}
	if s.Teams != nil {
		j.people.Teams = s.Teams(in)
	}
	if s.Keeper != nil {
		j.kept = s.Keeper(a.db)
	}
	j.pull = &pull.Judge{Checks: a.features.checks, W: j.w, DB: pull.DB{Locks: a.db, Attempts: a.db}, Groups: in, Boards: j.boards, Log: log,
		Reads: pull.Reads{Snap: snap, Files: in, Roles: in, Pushers: a.db, People: j.people, Timelines: in, Kept: j.kept,
			Units: a.db, Contracts: j.contracts, AppLogin: a.clients.AppLogin},
		Rules: pull.Rules{Audit: s.AuditRules, Gate: s.GateRules, Merge: s.MergeRules, Closure: closure.RulesOr(s.ClosureRules), Approvals: s.Approvals}}
	j.gates = &gates.Gates{Judge: j.pull, Kept: j.kept, Ledger: j.w, Reply: in, Locks: a.db, Fanout: pull.Fanouts(a.queue, a.opts.FanoutWindow, installation),
		Redelivered: queue.DeliveryMemory, Log: log}
	j.pull.Gates = j.gates
	return j, nil
}

// writer is the one Writer of an installation's judges: its check-run
// publisher, the App's ledger and the written/unchanged counts.
func (a *App) writer(pub writer.Publisher) writer.Writer {
	return writer.Writer{Pub: pub, Ledger: writer.DBLedger{DB: a.db}, Count: a.metrics.Write}
}

func registerPull(h *route.Handlers, in *Installation) {
	a := in.a
	pull.Register(h, in.j.pull, pull.Wiring{Rejudges: a.queue, Delay: a.opts.CoalesceDelay, Coalesced: a.metrics.Coalesce, Pushers: a.db})
}

func registerRelease(h *route.Handlers, in *Installation) {
	release.Register(h, release.Judge{Src: in.j.gh, W: in.j.w, Download: in.a.clients.DownloadClient(), Locks: in.a.db, Log: in.j.log})
}

func registerIncrement(h *route.Handlers, in *Installation) {
	a, j := in.a, in.j
	increment.Register(h, increment.Judge{Src: j.gh, Store: a.db, W: j.w, Rules: a.opts.Seams.IncrementRules, People: j.people, ClosureRules: closure.RulesOr(a.opts.Seams.ClosureRules),
		Board: j.boards, Signer: a.opts.Signer, Attest: j.gh, Log: j.log, Contracts: j.contracts}, a.clients.AppLogin)
}

func registerDeploy(h *route.Handlers, in *Installation) {
	a, j := in.a, in.j
	deploy.Register(h, a.db, deploy.Judge{Src: j.gh, Store: a.db, W: j.w, Increments: increment.Deployable{Checks: j.gh}, Rules: a.opts.Seams.DeployRules, Distinct: a.opts.Seams.Approvals, Log: j.log, People: j.people}, a.clients.AppLogin)
}

// closures is the closure judge of j's installation: it judges the
// affected pull requests again through the pull judge.
func (in *Installation) closures(w route.Where) *closure.Judge {
	a, j := in.a, in.j
	return &closure.Judge{Issues: j.gh, Roles: j.gh, Store: closure.WithKept(a.db, j.kept), Ledger: j.w, Rules: closure.RulesOr(a.opts.Seams.ClosureRules),
		Log: j.log, People: j.people, Contracts: j.contracts,
		JudgeOpen: func(ctx context.Context, unit int) error { return j.pull.Open(ctx, pull.InputAt(w), unit, nil) }}
}

func registerClosure(h *route.Handlers, in *Installation) { closure.Register(h, in.closures) }

func registerHeldWork(h *route.Handlers, in *Installation) {
	heldwork.Register(h, heldwork.Judge{Issues: in.j.gh, Kept: in.j.kept, Ledger: in.j.w, Rules: in.a.opts.Seams.HeldWorkRules, Log: in.j.log})
}

// registerReadback registers readback (app/readback) with the audits the
// pull judge decides (pull.Judge.Audited) and the closures' evidence.
func registerReadback(h *route.Handlers, in *Installation) {
	a, j := in.a, in.j
	audited := func(ctx context.Context, owner, repo string, m *gh.MergedPull) (readback.Audit, error) {
		au, err := j.pull.Audited(ctx, owner, repo, m)
		return readback.Audit(au), err
	}
	readback.Register(h, func(_ context.Context, w route.Where) (*readback.Judge, error) {
		return a.opts.Seams.Readback.Apply(&readback.Judge{GitHub: readback.GitHub{Read: j.gh, Find: j.gh, Label: j.gh, Attest: j.gh, Roles: j.gh, React: j.gh},
			W: j.w, Locks: a.db, Log: j.log, Now: time.Now, Cache: &a.memory.Ancestry, Horizon: 2 * a.opts.ReconcileEvery, Coverage: readback.ClonesOf(a.clients, j.gh.ID),
			Rules: readback.Rules{Audited: a.memory.Audits.Wrap(audited, time.Now), Config: verdict.Config, Authority: a.opts.Seams.Readback.Authority, People: j.people},
			After: readback.After{Signer: a.opts.Signer, Boards: j.boards.Schedule,
				Evidence: func(ctx context.Context, owner, repo string, unit int, at closurerules.Attempt) error {
					return in.closures(w).Evidence(ctx, closure.InputAt(w), unit, at)
				}}}), nil
	})
}
