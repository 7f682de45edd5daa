package increment

import (
	"context"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Source is what an increment's judgement reads from GitHub and writes
// back to it (gh.Installation).
type Source interface {
	// Snapshot, asked for no pull request with Needs.Conversation, reads
	// the config on the default branch and the control issue.
	Snapshot(ctx context.Context, req gh.SnapshotRequest) (*snapshot.PR, error)
	// Milestone reads a milestone with its issues.
	Milestone(ctx context.Context, owner, repo string, number int) (*gh.Milestone, error)
	// OpenMilestones numbers the repository's open milestones;
	// ClosedMilestones lists its closed ones with when each was closed.
	OpenMilestones(ctx context.Context, owner, repo string) ([]int, error)
	ClosedMilestones(ctx context.Context, owner, repo string) ([]gh.ClosedMilestone, error)
	// StoryMerges reads each story's merged attempts with their merge
	// commits.
	StoryMerges(ctx context.Context, owner, repo string, number int) (map[int][]gh.StoryMerge, error)
	// BranchCommits lists the newest commits of branch, newest first.
	BranchCommits(ctx context.Context, owner, repo, branch string) ([]string, error)
	// ContainsCommit reports whether base is head or its ancestor.
	ContainsCommit(ctx context.Context, owner, repo, base, head string) (bool, error)
	// MainRuns lists the workflow runs on branch at sha.
	MainRuns(ctx context.Context, owner, repo, sha, branch string) ([]readbackrules.Run, error)
	// AppCheckRuns lists this App's runs called name on sha.
	AppCheckRuns(ctx context.Context, owner, repo, sha, name string) ([]snapshot.ExistingRun, error)
	// Role is login's live permission on the repository.
	Role(ctx context.Context, owner, repo, login string) (string, error)
	Evidence
	// Comment posts on an issue; React reacts to a comment;
	// CreateControlIssue opens the control issue; ReopenMilestone reopens
	// a milestone.
	Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error)
	React(ctx context.Context, owner, repo string, commentID int64, content string) error
	CreateControlIssue(ctx context.Context, owner, repo, title, body string) (int, string, error)
	ReopenMilestone(ctx context.Context, owner, repo string, number int) error
}

// Evidence reads a demonstration's evidence back: "" when GitHub shows
// it, else why not.
type Evidence interface {
	RunEvidence(ctx context.Context, owner, repo string, id int64) (string, error)
	DeploymentEvidence(ctx context.Context, owner, repo string, id int64) (string, error)
	ReleaseEvidence(ctx context.Context, owner, repo, tag string) (string, error)
}

var _ Source = (*gh.Installation)(nil)

// Store reads the stories' closures, the App's evidence of their
// attempts and the kept decisions a HOLD comes from, and serialises
// judgements (store.DB).
type Store interface {
	Closures(ctx context.Context, repo string) (map[int][]byte, error)
	UnitEvidence(ctx context.Context, repo string) (map[int][][]byte, error)
	KeptDecisions(ctx context.Context, repo string) ([]store.Kept, error)
	// Lock holds key until unlock is called.
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

var _ Store = (*store.DB)(nil)

// Checks reads this App's check runs on a commit (gh.Installation); the
// deployment judge asks Complete through it.
type Checks interface {
	AppCheckRuns(ctx context.Context, owner, repo, sha, name string) ([]snapshot.ExistingRun, error)
}

// Board keeps a milestone's judged stage for the owner's board (the App's
// boards on the installation, app/board): it stores the fact and, when it
// changed, schedules a board update.
type Board interface {
	KeepIncrement(ctx context.Context, owner, repo string, f boardview.IncrementFact) error
}
