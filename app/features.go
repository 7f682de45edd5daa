package app

import (
	"context"
	"log/slog"
	"time"

	"github.com/aepgate/aepgate/app/board"
	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/deploy"
	"github.com/aepgate/aepgate/app/gates"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/app/merge"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/release"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/writer"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// Feature is one feature of the App: the event families it owns (the
// manifest subscribes to their events) and the registration of who does
// its work, given one installation's judges.
type Feature struct {
	Name     string
	Families []route.Family
	Register func(h *route.Handlers, in *Installation)
}

// Installation is one installation's judges and the App's shared parts,
// as a feature registers its handlers with them.
type Installation struct {
	a *App
	j *judges
}

// Writer is the installation's one writer of check runs and ledger entries.
func (in *Installation) Writer() writer.Writer { return in.j.w }

// Log is the installation's logger.
func (in *Installation) Log() *slog.Logger { return in.j.log }

// Features are the App's features, one line each: adding a feature is
// adding its line.
func Features() []Feature {
	return []Feature{
		{Name: "pull", Families: []route.Family{pull.PullRequestFamily(), pull.ReviewFamily(), pull.ChecksFamily(), pull.MergeGroupFamily(), pull.IssuesFamily(), pull.PushFamily()}, Register: registerPull},
		{Name: "gates", Families: []route.Family{gates.ConversationFamily()}, Register: func(h *route.Handlers, in *Installation) { gates.Register(h, in.j.gates) }},
		{Name: "release", Families: []route.Family{release.Family()}, Register: registerRelease},
		{Name: "deploy", Families: []route.Family{deploy.Family()}, Register: registerDeploy},
		{Name: "readback", Register: registerReadback},
		{Name: "increment", Register: registerIncrement},
		{Name: "closure", Register: registerClosure},
		{Name: "heldwork", Register: registerHeldWork},
		{Name: "contract", Register: func(h *route.Handlers, in *Installation) { contract.Register(h, in.j.contracts) }},
		{Name: "merge", Register: func(_ *route.Handlers, in *Installation) { merge.Attach(in.j.pull, in.j.gh, in.j.w, in.j.log) }},
	}
}

// Families is the App's table of event families: those of its Features.
func Families() route.Table { return families(Features()) }

func families(fs []Feature) route.Table {
	var t route.Table
	for _, f := range fs {
		t = append(t, f.Families...)
	}
	return t
}

// Events is every webhook event the App handles, sorted: the events of its
// family table (Families), which the manifest subscribes to.
func Events() []string { return EventsOf(nil) }

// EventsOf is the events of fs's families, sorted (nil fs: the App's).
func EventsOf(fs []Feature) []string {
	if fs == nil {
		fs = Features()
	}
	return families(fs).Events()
}

// handlers are who does each kind of work for one installation's judges:
// each feature registers its own.
func (a *App) handlers(j *judges) *route.Handlers {
	h, in := new(route.Handlers), &Installation{a: a, j: j}
	for _, f := range a.features.list {
		f.Register(h, in)
	}
	return h
}

// run does ws for w through the handlers of w's installation.
func (a *App) run(ctx context.Context, w route.Where, ws []route.Work, log *slog.Logger) error {
	j, err := a.judges(w.Installation, log)
	if err != nil {
		return err
	}
	return a.handlers(j).Run(ctx, w, ws)
}

// sweep is what the periodic sweep does for each repository: judge the
// open pull requests, verify the Latest release (GitHub sends no event
// when an asset changes), read back recent merges, judge the deployments
// still waiting and the increments (lost closures too, unless
// Seams.OpenMilestonesOnly, a negative control).
func (a *App) sweep() []route.Work {
	return []route.Work{pull.JudgeOpen{}, release.JudgeRelease{Latest: true}, readback.ReadBack{Sweep: true}, deploy.JudgeDeploys{Sweep: true},
		increment.JudgeIncrements{Open: true, Closed: !a.opts.Seams.OpenMilestonesOnly}}
}

// runReconcile is the periodic sweep (queue.Sweep): for every installation
// and every repository it can see, it does the sweep's work (sweep), which
// repairs whatever lost or failed deliveries (or asset changes, which send
// none) left behind, and updates its board.
func (a *App) runReconcile(ctx context.Context) error {
	s := queue.Sweep{DB: a.db, Installations: a.clients.Installations, Installation: a.reconcileInstallation, Job: a.metrics.Job, Log: a.log}
	return s.Run(ctx)
}

// reconcileInstallation sweeps installation id's repositories
// (queue.Repos). The board shows each open attempt's health as of its
// update, so the sweep updates it too, at once: its window (the one before
// now) has ended. Nothing is written when the board is the same.
func (a *App) reconcileInstallation(ctx context.Context, id int64) error {
	log := a.log.With("installation", id, "sweep", true)
	j, err := a.judges(id, log)
	if err != nil {
		return err
	}
	return queue.Repos(ctx, j.gh.Repositories, func(ctx context.Context, r gh.Repository) error {
		return a.handlers(j).Run(ctx, route.Where{Installation: id, Owner: r.Owner, Repo: r.Name, Event: store.SweepEvent, Sweep: true}, a.sweep())
	}, func(ctx context.Context, r gh.Repository) error {
		return board.Insert(ctx, a.queue, board.Args{Installation: id, Owner: r.Owner, Repo: r.Name, Slot: board.Slot(time.Now(), a.opts.BoardDelay) - 1})
	}, log)
}
