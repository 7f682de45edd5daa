// Package ready keeps what the App's /readyz waits for besides its
// database: whether GitHub has accepted the App's credentials, checked
// once before serving and retried with backoff until it has.
package ready

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// Verification retry delays: the first, and the most between two.
const (
	verifyFirstRetry = time.Second
	verifyMaxRetry   = time.Minute
	// verifyFirstTimeout bounds the check AtStart makes before serving.
	verifyFirstTimeout = 5 * time.Second
)

// GitHub remembers whether GitHub has accepted the App's credentials
// (GET /app with its JWT), and who GitHub says the App is.
type GitHub struct {
	// Identity asks GitHub who the App is (gh.Clients.Identity).
	Identity func(ctx context.Context) (gh.AppInfo, error)
	// Log receives the retries' failures and the final success.
	Log *slog.Logger

	mu   sync.Mutex
	ok   bool
	info gh.AppInfo
}

// Verified reports whether GitHub accepted the credentials, and the App.
func (g *GitHub) Verified() (gh.AppInfo, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.info, g.ok
}

// Verify asks GitHub who the App is. On success /readyz may answer 200
// and the App's slug is known; a wrong key or App ID wraps
// gh.ErrCredentials.
func (g *GitHub) Verify(ctx context.Context) (gh.AppInfo, error) {
	info, err := g.Identity(ctx)
	if err != nil {
		return gh.AppInfo{}, err
	}
	g.mu.Lock()
	g.ok, g.info = true, info
	g.mu.Unlock()
	return info, nil
}

// AtStart checks the credentials once before the App serves (so that
// its login is known before the first delivery is judged), and when that
// fails retries in the background until ctx ends.
func (g *GitHub) AtStart(ctx context.Context) {
	if _, ok := g.Verified(); ok {
		return
	}
	vctx, cancel := context.WithTimeout(ctx, verifyFirstTimeout)
	_, err := g.Verify(vctx)
	cancel()
	if err != nil {
		go g.untilDone(ctx, err)
	}
}

// untilDone retries Verify with backoff until it succeeds or ctx ends,
// logging each failure (first, the one given; the delay in seconds).
func (g *GitHub) untilDone(ctx context.Context, err error) {
	wait := verifyFirstRetry
	for {
		if err == nil {
			info, _ := g.Verified()
			g.Log.Info("GitHub accepted the App's credentials", "app_slug", info.Slug)
			return
		}
		g.Log.Error("GitHub authentication failed; /readyz answers 503", "err", err,
			"credentials_refused", errors.Is(err, gh.ErrCredentials), "retry_in_seconds", wait.Seconds())
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, verifyMaxRetry)
		_, err = g.Verify(ctx)
	}
}
