package closure

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// Issues reads and answers a unit's issue (gh.Installation).
type Issues interface {
	// IssueClosure reads the issue with the repository config.
	IssueClosure(ctx context.Context, owner, repo string, number int) (*gh.IssueClosure, error)
	// ReopenIssue reopens it.
	ReopenIssue(ctx context.Context, owner, repo string, number int) error
	// Comment posts on it and returns the comment's ID.
	Comment(ctx context.Context, owner, repo string, number int, body string) (int64, error)
	// React adds a reaction to a comment.
	React(ctx context.Context, owner, repo string, commentID int64, content string) error
}

var _ Issues = (*gh.Installation)(nil)

// Roles reads an account's live permission on the repository
// (gh.Installation).
type Roles interface {
	Role(ctx context.Context, owner, repo, login string) (string, error)
}

// Store keeps closure facts and the App's own evidence, and reads the kept
// decisions a HOLD comes from (store.DB).
type Store interface {
	SaveClosure(ctx context.Context, repo string, unit int, facts []byte, e store.Entry, now time.Time) error
	Closures(ctx context.Context, repo string) (map[int][]byte, error)
	MarkClosureCommented(ctx context.Context, repo string, unit int, key string) (bool, error)
	UnitEvidence(ctx context.Context, repo string) (map[int][][]byte, error)
	SaveUnitEvidence(ctx context.Context, repo string, unit, pr int, attempt []byte, now time.Time) error
	KeptDecisions(ctx context.Context, repo string) ([]store.Kept, error)
}

var _ Store = (*store.DB)(nil)

// Ledger records decisions and says whether one about a subject exists
// (writer.Writer).
type Ledger interface {
	Record(ctx context.Context, e store.Entry) error
	Has(ctx context.Context, subject string) (bool, error)
}

// KeptReader reads the kept decisions a HOLD comes from (the App's kept
// store, which a test may wrap).
type KeptReader interface {
	KeptDecisions(ctx context.Context, repo string) ([]store.Kept, error)
}

// WithKept is s with its kept decisions read through k.
func WithKept(s Store, k KeptReader) Store { return keptStore{s, k} }

type keptStore struct {
	Store
	kept KeptReader
}

func (s keptStore) KeptDecisions(ctx context.Context, repo string) ([]store.Kept, error) {
	return s.kept.KeptDecisions(ctx, repo)
}
