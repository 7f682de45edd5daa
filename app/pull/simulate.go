package pull

import (
	"context"
	"log/slog"

	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/instructed"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// SimulateSource is what a simulation reads through: the App's own reads
// of a repository (gh.Installation; gh.NewReadInstallation with a token).
type SimulateSource interface {
	Snapshotter
	RoleReader
	FileReader
	owners.Teams
	instructed.Timelines
	BaseAttacher
}

// BaseAttacher reads the base policy a config file extends into it
// (gh.Installation.AttachBase), as the App's snapshot does for the default
// branch's file.
type BaseAttacher interface {
	AttachBase(ctx context.Context, f *snapshot.ConfigFile) error
}

// Simulation names the pull request a simulation judges.
type Simulation struct {
	Owner, Repo string
	PR          int
	// Config, when set, is judged instead of the default branch's
	// .github/aepgate.yml.
	Config []byte
	// AppLogin is the App's login, by which its own comments are found
	// ("" finds none).
	AppLogin string
}

// Simulate judges one open pull request as the App would, through the
// App's own pipeline (the same snapshot, reads and checks, advisory mode
// included), and returns the check runs it would publish, in the order of
// verdict.DefaultChecks. It writes nothing: no check run, reaction, reply or
// ledger row, and keeps no decision. It knows only what GitHub shows: not
// the decisions the App kept (a HOLD edited after the App kept it counts as
// GitHub now shows it), who pushed which commit (recorded by the App from
// push events) nor the closures it judged (a closed dependency blocks, and
// a closed story holds its WIP lane). A pull request that is not open has
// no runs.
func Simulate(ctx context.Context, src SimulateSource, s Simulation) ([]checks.Run, error) {
	j := &Judge{Checks: verdict.DefaultChecks(), DB: DB{Locks: unlocked{}}, Log: slog.New(slog.DiscardHandler), Rules: Rules{Closure: closurerules.DefaultRules()},
		Reads: Reads{Snap: configured{src, src, s.Config}, Files: src, Roles: src, People: owners.Reader{Files: src, Teams: src}, Timelines: src,
			Pushers: unrecorded{}, Kept: unkept{}, Units: noClosures{}, Contracts: contract.Keeper{Store: contract.Unkept{}},
			AppLogin: func(context.Context) (string, error) { return s.AppLogin, nil }}}
	ev, err := j.evaluation(ctx, Input{Event: "simulate", Owner: s.Owner, Repo: s.Repo, PR: s.PR})
	if err != nil || ev == nil {
		return nil, err
	}
	var runs []checks.Run
	for _, c := range j.Checks {
		if out := ev.Published(c.Eval(ev)); !out.Skip {
			runs = append(runs, out.Run)
		}
	}
	return runs, nil
}

// configured is a Snapshotter whose snapshots carry config (nil: the
// repository's own) as the default branch's config file, with the base it
// extends read through bases.
type configured struct {
	Snapshotter
	bases  BaseAttacher
	config []byte
}

func (c configured) Snapshot(ctx context.Context, req gh.SnapshotRequest) (*snapshot.PR, error) {
	snap, err := c.Snapshotter.Snapshot(ctx, req)
	if err != nil || c.config == nil {
		return snap, err
	}
	snap.Config = snapshot.ConfigFile{Found: true, Text: string(c.config), CommitSHA: "(local file)"}
	if err := c.bases.AttachBase(ctx, &snap.Config); err != nil {
		return nil, err
	}
	return snap, nil
}

// unrecorded knows no pushers; unkept knows no kept decision or thread
// mark; noClosures knows no closure judged by the App (a closed dependency
// then blocks, as one the App never saw closing does); unlocked locks
// nothing: a simulation's store.
type (
	unrecorded struct{}
	unkept     struct{}
	noClosures struct{}
	unlocked   struct{}
)

func (noClosures) Closures(context.Context, string) (map[int][]byte, error)       { return nil, nil }
func (noClosures) UnitEvidence(context.Context, string) (map[int][][]byte, error) { return nil, nil }

func (unrecorded) Pushers(context.Context, string, []string) ([]store.Pusher, error) { return nil, nil }

func (unkept) KeptDecisions(context.Context, string) ([]store.Kept, error) { return nil, nil }
func (unkept) ThreadMark(context.Context, string, int) (int64, error)      { return 0, nil }
func (unlocked) Lock(context.Context, string) (func(), error)              { return func() {}, nil }
