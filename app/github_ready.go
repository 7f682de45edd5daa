package app

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// githubAuth remembers whether GitHub has accepted the App's credentials
// (GET /app with its JWT), and who GitHub says the App is.
type githubAuth struct {
	mu   sync.Mutex
	ok   bool
	info gh.AppInfo
}

// verified reports whether GitHub accepted the credentials, and the App.
func (g *githubAuth) verified() (gh.AppInfo, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.info, g.ok
}

// Verification retry delays: the first, and the most between two.
const (
	verifyFirstRetry = time.Second
	verifyMaxRetry   = time.Minute
)

// VerifyGitHub asks GitHub who the App is (GET /app with its JWT). On
// success /readyz may answer 200 and the App's slug is known; a wrong key
// or App ID wraps gh.ErrCredentials.
func (a *App) VerifyGitHub(ctx context.Context) (gh.AppInfo, error) {
	info, err := a.clients.Identity(ctx)
	if err != nil {
		return gh.AppInfo{}, err
	}
	a.github.mu.Lock()
	a.github.ok, a.github.info = true, info
	a.github.mu.Unlock()
	return info, nil
}

// verifyFirstTimeout bounds the check Run makes before serving.
const verifyFirstTimeout = 5 * time.Second

// verifyAtStart checks the credentials once before Run serves (so that the
// App's login is known before the first delivery is judged), and when that
// fails retries in the background until ctx ends.
func (a *App) verifyAtStart(ctx context.Context) {
	if _, ok := a.github.verified(); ok {
		return
	}
	vctx, cancel := context.WithTimeout(ctx, verifyFirstTimeout)
	_, err := a.VerifyGitHub(vctx)
	cancel()
	if err != nil {
		go a.verifyUntilDone(ctx, err)
	}
}

// verifyUntilDone retries VerifyGitHub with backoff until it succeeds or
// ctx ends, logging each failure (first, the one given; the delay in
// seconds).
func (a *App) verifyUntilDone(ctx context.Context, err error) {
	wait := verifyFirstRetry
	for {
		if err == nil {
			info, _ := a.github.verified()
			a.log.Info("GitHub accepted the App's credentials", "app_slug", info.Slug)
			return
		}
		a.log.Error("GitHub authentication failed; /readyz answers 503", "err", err,
			"credentials_refused", errors.Is(err, gh.ErrCredentials), "retry_in_seconds", wait.Seconds())
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, verifyMaxRetry)
		_, err = a.VerifyGitHub(ctx)
	}
}
