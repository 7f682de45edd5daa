package appcmd

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/store"
)

// Delays between two attempts to open an unreachable PostgreSQL at start:
// the first, doubling up to the last.
const (
	dbFirstRetry = time.Second
	dbMaxRetry   = 10 * time.Second
)

// openApp opens the App. A PostgreSQL database that fails is tried again
// with backoff until wait has passed since the first attempt (a database
// started beside the App may answer seconds after it); SQLite is opened
// once.
func openApp(ctx context.Context, opts app.Options, wait time.Duration) (*app.App, error) {
	deadline := time.Now().Add(wait)
	delay := dbFirstRetry
	for attempt := 1; ; attempt++ {
		a, err := app.New(ctx, opts)
		if err == nil || strings.HasPrefix(opts.Database, "sqlite:") {
			return a, err
		}
		left := time.Until(deadline)
		if left <= 0 {
			return nil, fmt.Errorf("database %s did not open within --database-wait %s (%d attempts): %w", store.Redact(opts.Database), wait, attempt, err)
		}
		delay = min(delay, left)
		opts.Logger.Warn("database unreachable; retrying", "database", store.Redact(opts.Database), "attempt", attempt,
			"retry_in_seconds", delay.Seconds(), "err", err)
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("database %s: %w", store.Redact(opts.Database), context.Cause(ctx))
		case <-time.After(delay):
		}
		delay = min(2*delay, dbMaxRetry)
	}
}

// checkCredentials asks GitHub who the App is, within githubCheckTimeout.
// Refused credentials are the error that ends serve; a GitHub that does not
// answer is logged, and the App retries while /readyz answers 503.
func checkCredentials(ctx context.Context, a *app.App, opts app.Options) error {
	vctx, cancel := context.WithTimeout(ctx, githubCheckTimeout)
	defer cancel()
	info, err := a.VerifyGitHub(vctx)
	switch {
	case err == nil:
		opts.Logger.Info("GitHub accepted the App's credentials", "app_id", info.ID, "app_slug", info.Slug)
		return nil
	case errors.Is(err, gh.ErrCredentials):
		return fmt.Errorf("GitHub refused the credentials of App %d: the private key is not this App's, or --app-id is wrong (%v)", opts.AppID, err)
	}
	opts.Logger.Warn("GitHub did not answer the start-up check; retrying, /readyz answers 503 until it does",
		"timeout_seconds", githubCheckTimeout.Seconds(), "err", err)
	return nil
}
