package gates

import (
	"context"
	"log/slog"
	"time"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// Judge is the pull-request judge the gates judge and read through
// (pull.Judge).
type Judge interface {
	// Run judges one pull request (in.PR).
	Run(ctx context.Context, in pull.Input) error
	// Thread reads and prepares an issue's conversation, the caller
	// holding its lock.
	Thread(ctx context.Context, in pull.Input, number int, control bool) (*verdict.Evaluation, error)
	// ControlIssue reads the repository's control issue afresh.
	ControlIssue(ctx context.Context, owner, repo string) (*snapshot.ControlIssue, error)
}

var _ Judge = (*pull.Judge)(nil)

// Kept keeps the decisions the App accepted (store.DB), so an edit or
// deletion of their source comment never lifts them (docs/gates.md, "Kept
// decisions"), and how far each long thread was read.
type Kept interface {
	Keep(ctx context.Context, k store.Kept, e store.Entry, now time.Time) (bool, error)
	LedgerTamper(ctx context.Context, repo string, review bool, id int64, change string, e store.Entry, now time.Time) (bool, error)
	MarkTampered(ctx context.Context, repo string, commentID int64, change, by string, at time.Time) (bool, error)
	SetThreadMark(ctx context.Context, repo string, number int, id int64, now time.Time) error
}

// Ledger records decisions and says whether one about a subject exists
// (writer.Writer).
type Ledger interface {
	Record(ctx context.Context, e store.Entry) error
	Has(ctx context.Context, subject string) (bool, error)
}

// Replier writes the App's answers to commands (gh.Installation).
type Replier interface {
	React(ctx context.Context, owner, repo string, commentID int64, content string) error
	Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error)
	EditComment(ctx context.Context, owner, repo string, id int64, body string) error
	RequestReviews(ctx context.Context, owner, repo string, number int, logins []string) error
	CreateControlIssue(ctx context.Context, owner, repo, title, body string) (number int, url string, err error)
}

// Locker serialises the work on one thread (store.DB).
type Locker interface {
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// Gates keeps and answers the owners' decisions of one installation.
type Gates struct {
	Judge  Judge
	Kept   Kept
	Ledger Ledger
	Reply  Replier
	Locks  Locker
	// Fanout asks for a repository's open pull requests to be judged once
	// at the end of a short window; nil asks for none.
	Fanout func(ctx context.Context, owner, repo string) error
	// Redelivered is how far back GitHub may still redeliver a webhook:
	// the sweep answers the missed comments no older than that.
	Redelivered time.Duration
	Log         *slog.Logger
}

var _ pull.Gates = (*Gates)(nil)

// fanout asks for the open pull requests of in's repository to be judged
// once, at the end of the current window.
func (g *Gates) fanout(ctx context.Context, in pull.Input) error {
	if g.Fanout == nil {
		return nil
	}
	return g.Fanout(ctx, in.Owner, in.Repo)
}
