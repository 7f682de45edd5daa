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
	info, err := a.clients.Auth().AppIdentity(ctx)
	if err != nil {
		return gh.AppInfo{}, err
	}
	a.github.mu.Lock()
	a.github.ok, a.github.info = true, info
	a.github.mu.Unlock()
	return info, nil
}

// verifyUntilDone retries VerifyGitHub with backoff until it succeeds or
// ctx ends, logging each failure (the delay in seconds). Run starts it
// when the credentials were not verified before.
func (a *App) verifyUntilDone(ctx context.Context) {
	wait := verifyFirstRetry
	for {
		info, err := a.VerifyGitHub(ctx)
		if err == nil {
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
	}
}
