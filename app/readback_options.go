package app

import (
	"context"
	"sync"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/readback"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// readbackOptions are the readback path's injected parts; the zero value
// is what the App runs with.
type readbackOptions struct {
	// now is the clock readback deadlines are judged by (nil: time.Now).
	now func() time.Time
	// audited replaces the audit judged from the pull request's reviews
	// (nil: evaluator.auditOf).
	audited func(ctx context.Context, owner, repo string, m *gh.MergedPull) (auditRecord, error)
	// reader wraps the installation's reads (nil: used as they are); a
	// test hands in observations GitHub can give but the fake cannot make.
	reader func(mergeReader) mergeReader
}

// mergeReader reads what readback observes (gh.Installation).
type mergeReader interface {
	MergedPull(ctx context.Context, owner, repo string, number int) (*gh.MergedPull, error)
	MainRuns(ctx context.Context, owner, repo, sha, branch string) ([]readback.Run, error)
	ContainsCommit(ctx context.Context, owner, repo, base, head string) (bool, error)
}

// mergeFinder finds merged pull requests (gh.Installation).
type mergeFinder interface {
	PullsMergedAs(ctx context.Context, owner, repo, sha string) ([]int, error)
	RecentMerges(ctx context.Context, owner, repo string, since func(snapshot.ConfigFile) time.Time) (*gh.RecentMerges, error)
}

// labeler puts a label on an issue (gh.Installation).
type labeler interface {
	AddLabel(ctx context.Context, owner, repo string, number int, label string) error
}

// ancestryCache remembers which commit contains which (git history never
// changes what a SHA contains), so a readback waiting on a squash or
// rebase merge compares the two commits once.
type ancestryCache struct {
	mu   sync.Mutex
	seen map[string]bool
}

// maxAncestry bounds the cache; when full it starts again empty.
const maxAncestry = 4096

func (c *ancestryCache) get(key string) (contains, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	contains, ok = c.seen[key]
	return contains, ok
}

func (c *ancestryCache) put(key string, contains bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil || len(c.seen) >= maxAncestry {
		c.seen = map[string]bool{}
	}
	c.seen[key] = contains
}
