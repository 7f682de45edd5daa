package app

import (
	"log/slog"

	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/gates"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/internal/gh"
)

// snapshotter reads snapshots (the Options' seam; pull.Snapshotter).
type snapshotter = pull.Snapshotter

// teamReader reads a team's members live (the Options' seam; owners.Teams).
type teamReader = owners.Teams

// keeper is the store of kept decisions (the Options' seam; store.DB):
// what the pull judge reads of it and what the gates write.
type keeper interface {
	pull.KeptReader
	gates.Kept
}

// judges are one installation's pull judge and gates, and what the
// installation's other judges share with them.
type judges struct {
	gh    *gh.Installation
	pull  *pull.Judge
	gates *gates.Gates
	// kept is the store of kept decisions, people the one resolver of
	// people, contracts the one reader of the units' contracts.
	kept      keeper
	people    owners.Reader
	contracts contract.Keeper
	w         writer.Writer
	boards    boardJobs
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
	j := &judges{gh: in, kept: a.keeper(), people: a.people(in), contracts: contract.Keeper{Store: a.db, Rules: a.opts.Seams.ContractRules},
		w: a.writer(in.CheckPublisher()), boards: boardJobs{b: a.boards(), installation: installation}, log: log}
	j.pull = &pull.Judge{Checks: a.checks, W: j.w, Locks: a.db, Groups: in, Boards: j.boards, Log: log,
		Reads: pull.Reads{Snap: a.snapshotter(in), Files: in, Roles: in, Pushers: a.db, People: j.people, Timelines: in, Kept: j.kept,
			Units: a.db, Contracts: j.contracts, AppLogin: a.clients.AppLogin},
		Rules: pull.Rules{Audit: a.opts.Seams.AuditRules, Gate: a.opts.Seams.GateRules, Merge: a.opts.Seams.MergeRules, Closure: a.closureRules()}}
	j.gates = &gates.Gates{Judge: j.pull, Kept: j.kept, Ledger: j.w, Reply: in, Locks: a.db, Fanout: a.fanouts(installation),
		Redelivered: deliveryMemory, Log: log}
	j.pull.Gates = j.gates
	return j, nil
}

// snapshotter reads snapshots through in, unless a test put a variant in
// Options.
func (a *App) snapshotter(in snapshotter) snapshotter {
	if a.opts.Seams.Snapshots != nil {
		return a.opts.Seams.Snapshots(in)
	}
	return in
}

// people resolves people through in (app/owners), with the variants a
// test put in Options.
func (a *App) people(in owners.Source) owners.Reader {
	r := owners.Reader{Files: in, Teams: in, Resolve: a.opts.Seams.People}
	if a.opts.Seams.Teams != nil {
		r.Teams = a.opts.Seams.Teams(in)
	}
	return r
}

// keeper is where accepted decisions are kept: the database, unless a test
// put a variant in Options.
func (a *App) keeper() keeper {
	if a.opts.Seams.Keeper != nil {
		return a.opts.Seams.Keeper(a.db)
	}
	return a.db
}

// writer is the one Writer of an installation's judges: its check-run
// publisher, the App's ledger and the written/unchanged counts.
func (a *App) writer(pub writer.Publisher) writer.Writer {
	return writer.Writer{Pub: pub, Ledger: writer.DBLedger{DB: a.db},
		Count: func(name, outcome string) { a.metrics.Write(name, outcome) }}
}

// input is the judgement context of work done for w.
func input(w route.Where) pull.Input {
	return pull.Input{Delivery: w.Delivery, Event: w.Event, Owner: w.Owner, Repo: w.Repo, Sweep: w.Sweep}
}
