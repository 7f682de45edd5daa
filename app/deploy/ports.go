package deploy

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/deployrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Source is what a deployment's judgement reads from GitHub and writes
// back to it (gh.Installation).
type Source interface {
	// Snapshot, asked for no pull request with Needs.Conversation, reads
	// the config on the default branch and the control issue.
	Snapshot(ctx context.Context, req gh.SnapshotRequest) (*snapshot.PR, error)
	// AppCheckRuns lists this App's runs called name on sha.
	AppCheckRuns(ctx context.Context, owner, repo, sha, name string) ([]snapshot.ExistingRun, error)
	// Compare is GitHub's comparison base...head.
	Compare(ctx context.Context, owner, repo, base, head string) (deployrules.Comparison, error)
	// Role is login's live permission on the repository.
	Role(ctx context.Context, owner, repo, login string) (string, error)
	// ReviewDeployment answers the App's deployment protection rule.
	ReviewDeployment(ctx context.Context, owner, repo string, runID int64, environment, state, comment string) error
	// PendingDeployments names the environments a run still waits for.
	PendingDeployments(ctx context.Context, owner, repo string, runID int64) ([]string, error)
	// Comment posts on an issue and returns the comment's ID; React adds
	// a reaction to a comment.
	Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error)
	React(ctx context.Context, owner, repo string, commentID int64, content string) error
	// CreateControlIssue opens the control issue.
	CreateControlIssue(ctx context.Context, owner, repo, title, body string) (int, string, error)
}

var _ Source = (*gh.Installation)(nil)

// Store keeps the requests and reads the kept decisions (store.DB).
type Store interface {
	RecordDeploy(ctx context.Context, d store.Deploy) (store.Deploy, error)
	PendingDeploys(ctx context.Context, repo string) ([]store.Deploy, error)
	AnswerDeploy(ctx context.Context, d store.Deploy, state, reason string, now time.Time) (bool, error)
	Unanswer(ctx context.Context, d store.Deploy) error
	KeptDecisions(ctx context.Context, repo string) ([]store.Kept, error)
	// LastApprovedDeploy is the newest request to environment the App
	// approved, false when none.
	LastApprovedDeploy(ctx context.Context, repo, environment string) (store.Deploy, bool, error)
	// UnitEvidence is what the App wrote for each unit's merged attempts.
	UnitEvidence(ctx context.Context, repo string) (map[int][][]byte, error)
	// Lock holds key until unlock is called.
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

var _ Store = (*store.DB)(nil)

// Increments says whether a commit is the integrated candidate of a
// complete increment (aepgate/increment). The App has no such judge yet:
// a nil Increments makes require: increment reject with that reason.
type Increments interface {
	Complete(ctx context.Context, owner, repo, sha string) (bool, error)
}
