// Package ready keeps what the App's /readyz waits for besides its
// database: whether GitHub accepts the App's credentials, checked once
// before serving, retried with backoff until GitHub accepts them, and
// checked again every few minutes after that, so that a key revoked while
// the App runs turns /readyz to 503.
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
	// verifyTimeout bounds each later check.
	verifyTimeout = 30 * time.Second
)

// DefaultRecheck is how often the App asks GitHub again whether its
// credentials still work once GitHub has accepted them: /readyz answers
// from the last answer, so a probe never waits for GitHub.
const DefaultRecheck = 5 * time.Minute

// GitHub remembers whether GitHub accepts the App's credentials (GET /app
// with its JWT), and who GitHub says the App is.
type GitHub struct {
	// Identity asks GitHub who the App is (gh.Clients.Identity).
	Identity func(ctx context.Context) (gh.AppInfo, error)
	// Log receives the retries' failures and the final success.
	Log *slog.Logger
	// Recheck is how often accepted credentials are checked again (0:
	// DefaultRecheck; negative: never).
	Recheck time.Duration

	mu      sync.Mutex
	ok      bool
	info    gh.AppInfo
	refusal error
}

// Verified reports whether GitHub accepted the credentials at the last
// check, and the App.
func (g *GitHub) Verified() (gh.AppInfo, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.info, g.ok
}

// Refusal is GitHub's refusal of the credentials at the last check (it
// wraps gh.ErrCredentials), or nil when GitHub has not refused them.
func (g *GitHub) Refusal() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.refusal
}

// Verify asks GitHub who the App is. On success /readyz may answer 200
// and the App's slug is known; a wrong or revoked key or App ID wraps
// gh.ErrCredentials and makes /readyz answer 503 until a later check
// succeeds. Any other failure (GitHub unreachable, a 5xx) is returned
// and leaves the last answer standing: it says nothing about the key.
func (g *GitHub) Verify(ctx context.Context) (gh.AppInfo, error) {
	info, err := g.Identity(ctx)
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case err == nil:
		g.ok, g.info, g.refusal = true, info, nil
	case errors.Is(err, gh.ErrCredentials):
		g.ok, g.refusal = false, err
	}
	return info, err
}

// AtStart checks the credentials once before the App serves (so that
// its login is known before the first delivery is judged), then keeps
// checking them in the background until ctx ends: with backoff until
// GitHub accepts them, and every Recheck after that.
func (g *GitHub) AtStart(ctx context.Context) {
	var err error
	if _, ok := g.Verified(); !ok {
		vctx, cancel := context.WithTimeout(ctx, verifyFirstTimeout)
		_, err = g.Verify(vctx)
		cancel()
	}
	if err == nil && g.Recheck < 0 {
		return
	}
	go g.watch(ctx, err)
}

// watch checks the credentials until ctx ends, logging each change and
// failure. After err (the last check's) it waits with backoff; after a
// success, Recheck, or it stops when Recheck is negative.
func (g *GitHub) watch(ctx context.Context, err error) {
	wait, failing := verifyFirstRetry, err != nil
	for {
		if err == nil {
			if failing {
				info, _ := g.Verified()
				g.Log.Info("GitHub accepted the App's credentials", "app_slug", info.Slug)
			}
			if g.Recheck < 0 {
				return
			}
			failing, wait = false, verifyFirstRetry
		} else {
			g.logFailure(err, wait)
			failing = true
		}
		next := g.Recheck
		if next == 0 {
			next = DefaultRecheck
		}
		if failing {
			next, wait = wait, min(2*wait, verifyMaxRetry)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(next):
		}
		vctx, cancel := context.WithTimeout(ctx, verifyTimeout)
		_, err = g.Verify(vctx)
		cancel()
	}
}

// logFailure logs a failed check: a refusal (or a failure before GitHub
// ever accepted the credentials) as an error that /readyz reflects, any
// other failure as a warning that leaves /readyz as it was.
func (g *GitHub) logFailure(err error, retry time.Duration) {
	refused := errors.Is(err, gh.ErrCredentials)
	if _, ok := g.Verified(); ok {
		g.Log.Warn("GitHub could not be asked whether the App's credentials still work; /readyz keeps its last answer",
			"err", err, "retry_in_seconds", retry.Seconds())
		return
	}
	g.Log.Error("GitHub authentication failed; /readyz answers 503", "err", err,
		"credentials_refused", refused, "retry_in_seconds", retry.Seconds())
}
