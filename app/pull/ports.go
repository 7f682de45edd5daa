package pull

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/instructed"
	"github.com/aepgate/aepgate/app/owners"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Snapshotter reads what a judgement needs (gh.Installation).
type Snapshotter interface {
	Snapshot(ctx context.Context, req gh.SnapshotRequest) (*snapshot.PR, error)
	OpenPullRequests(ctx context.Context, owner, repo string) ([]gh.OpenPull, error)
	AffectedUnits(ctx context.Context, owner, repo string, issue int, milestones []int) (map[int]bool, error)
}

// Locker serialises the judgements of one pull request, so two jobs never
// race to write the same check run (each judgement then reads what the one
// before it wrote). store.DB is one.
type Locker interface {
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// FileReader reads files at a commit (gh.Installation.ReadFiles).
type FileReader interface {
	ReadFiles(ctx context.Context, owner, repo, sha string, paths []string) ([]gh.BlobFile, error)
}

// RoleReader reads a user's live role on a repository (gh.Installation).
type RoleReader interface {
	Role(ctx context.Context, owner, repo, login string) (string, error)
}

// PusherReader returns who was recorded pushing commits (store.DB).
type PusherReader interface {
	Pushers(ctx context.Context, repo string, shas []string) ([]store.Pusher, error)
}

// GroupReader reads the workflow runs at a commit (gh.Installation).
type GroupReader interface {
	WorkflowRunsAt(ctx context.Context, owner, repo, sha string) ([]snapshot.WorkflowRun, string, error)
}

// KeptReader reads the decisions the App kept and how far it read each
// long thread before (store.DB; app/gates keeps them).
type KeptReader interface {
	KeptDecisions(ctx context.Context, repo string) ([]store.Kept, error)
	ThreadMark(ctx context.Context, repo string, number int) (int64, error)
}

// Boards keeps the board's facts and schedules board updates of one
// installation.
type Boards interface {
	// SaveFact stores an attempt's facts and reports whether they changed.
	SaveFact(ctx context.Context, repo string, f boardview.Fact) (bool, error)
	// Schedule asks for one board update of owner/repo soon, however many
	// judgements ask before it runs.
	Schedule(ctx context.Context, owner, repo string) error
}

// Gates is what the owner gates do around a judgement (app/gates): Keep
// the decisions the gate log accepted before any check is published on
// them, and Act on what the gates ask beyond the check runs (answers,
// review requests, the status comment) once they are published.
type Gates interface {
	Keep(ctx context.Context, in Input, ev *verdict.Evaluation) error
	Act(ctx context.Context, in Input, ev *verdict.Evaluation) error
}

// Then is what another feature does once a judgement's checks are
// published and the gates acted (app/merge): it sees the evaluation and
// the check runs shown on the head.
type Then interface {
	Judged(ctx context.Context, in Input, ev *verdict.Evaluation, shown []verdict.Shown) error
}

// Reads is what the read phase reads through besides the snapshot: each
// check's declared reads (verdict.Reads) and what every judgement reads.
type Reads struct {
	Snap      Snapshotter
	Files     FileReader
	Roles     RoleReader
	Pushers   PusherReader
	People    owners.Reader
	Timelines instructed.Timelines
	Kept      KeptReader
	// Units reads the stored closure facts and the App's evidence.
	Units closure.Facts
	// Contracts is the one reader of the units' contracts, kept as first
	// judged.
	Contracts contract.Keeper
	// AppLogin returns the App's own login.
	AppLogin func(ctx context.Context) (string, error)
}

// AttemptIndex is the index of each unit's open pull requests (store.DB,
// internal/store attempt.go): read by the snapshot (gh.AttemptIndex), kept
// from pull_request deliveries (RecordAttempt) and rebuilt, complete, by
// every full listing of a repository's open pull requests (Open).
type AttemptIndex interface {
	UnitAttempts(ctx context.Context, repo string, unit int) ([]int, bool, error)
	ForgetAttemptIndex(ctx context.Context, repo string) error
	RecordAttempt(ctx context.Context, repo string, pr, unit int, open bool, now time.Time) error
	IndexAttempts(ctx context.Context, repo string, open map[int]int, listedAt time.Time) error
}

// repoAttempts is one repository's attempt index as the snapshot reads it
// (gh.AttemptIndex).
type repoAttempts struct {
	idx  AttemptIndex
	repo string
}

func (r repoAttempts) UnitAttempts(ctx context.Context, unit int) ([]int, bool, error) {
	return r.idx.UnitAttempts(ctx, r.repo, unit)
}

func (r repoAttempts) ForgetAttempts(ctx context.Context) error {
	return r.idx.ForgetAttemptIndex(ctx, r.repo)
}

// attempts is in's repository's attempt index for the snapshot (nil when
// the judge has none).
func (j *Judge) attempts(in Input) gh.AttemptIndex {
	if j.DB.Attempts == nil {
		return nil
	}
	return repoAttempts{j.DB.Attempts, in.FullName()}
}
