package readback

import (
	"context"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/certificate"
	"github.com/aepgate/aepgate/protocol/readbackrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// MergeReader reads what readback observes (gh.Installation).
type MergeReader interface {
	MergedPull(ctx context.Context, owner, repo string, number int) (*gh.MergedPull, error)
	MainRuns(ctx context.Context, owner, repo, sha, branch string) ([]readbackrules.Run, error)
	ContainsCommit(ctx context.Context, owner, repo, base, head string) (bool, error)
}

// MergeFinder finds merged pull requests (gh.Installation).
type MergeFinder interface {
	PullsMergedAs(ctx context.Context, owner, repo, sha string) ([]int, error)
	RecentMerges(ctx context.Context, owner, repo string, since func(snapshot.ConfigFile) time.Time) (*gh.RecentMerges, error)
}

// Labeler puts a label on an issue (gh.Installation).
type Labeler interface {
	AddLabel(ctx context.Context, owner, repo string, number int, label string) error
}

// Attester stores a Sigstore bundle as an artifact attestation of the
// repository (gh.Installation).
type Attester interface {
	CreateAttestation(ctx context.Context, owner, repo string, bundle []byte) (int64, error)
}

// Locker serialises the evaluations of one key (the App's database).
type Locker interface {
	Lock(ctx context.Context, key string) (unlock func(), err error)
}

// Audit is what the audit decided for a merged pull request: the head it
// passed, the auditor's login, the review that carried it and the verdict,
// and for a pull request a listed agent made, who did what (the
// certificate's independence; nil otherwise).
type Audit struct {
	SHA          string
	Auditor      string
	ReviewID     int64
	Verdict      string
	Independence *certificate.Independence
}

// AuditFunc says what the audit decided for merged pull request m.
type AuditFunc func(ctx context.Context, owner, repo string, m *gh.MergedPull) (Audit, error)
