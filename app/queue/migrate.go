package queue

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/aepgate/aepgate/internal/store"
)

// migrate applies River's own migrations; on PostgreSQL an advisory lock
// keeps replicas from migrating at once.
func migrate[TTx any](ctx context.Context, db *store.DB, driver riverdriver.Driver[TTx]) error {
	if db.Dialect == store.Postgres {
		conn, err := db.Pool.Acquire(ctx)
		if err != nil {
			return fmt.Errorf("queue migrate: %w", err)
		}
		defer conn.Release()
		const key = 0x7269766572 // "river"
		if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, int64(key)); err != nil {
			return fmt.Errorf("queue migrate: lock: %w", err)
		}
		defer conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, int64(key))
	}
	m, err := rivermigrate.New(driver, nil)
	if err != nil {
		return fmt.Errorf("queue migrate: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("queue migrate: %w", err)
	}
	return nil
}

// riverLogger passes River's warnings and errors through; its routine
// chatter stays out of the App's log.
func riverLogger(l *slog.Logger) *slog.Logger {
	return slog.New(levelFilter{l.Handler(), slog.LevelWarn}).With("component", "river")
}

type levelFilter struct {
	slog.Handler
	min slog.Level
}

func (f levelFilter) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= f.min && f.Handler.Enabled(ctx, l)
}

func (f levelFilter) WithAttrs(as []slog.Attr) slog.Handler {
	return levelFilter{f.Handler.WithAttrs(as), f.min}
}

func (f levelFilter) WithGroup(name string) slog.Handler {
	return levelFilter{f.Handler.WithGroup(name), f.min}
}
