package queue

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/aepgate/aepgate/internal/store"
)

// migrate applies River's own migrations; on PostgreSQL an advisory lock
// keeps replicas from migrating at once, and River's GIN indexes are
// tuned once migrated (see ginDirect). A tuning refused (a database user
// that does not own River's indexes) is logged to log as a warning: the
// App works without it, with a slower tail under bursts.
func migrate[TTx any](ctx context.Context, db *store.DB, driver riverdriver.Driver[TTx], log *slog.Logger) error {
	return migrateTuning(ctx, db, driver, riverGINIndexes, log)
}

// migrateTuning is migrate turning fastupdate off on the GIN indexes gin.
func migrateTuning[TTx any](ctx context.Context, db *store.DB, driver riverdriver.Driver[TTx], gin []string, log *slog.Logger) error {
	var conn *pgxpool.Conn
	if db.Dialect == store.Postgres {
		var err error
		if conn, err = db.Pool.Acquire(ctx); err != nil {
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
	if conn == nil {
		return nil
	}
	if err := ginDirect(ctx, conn, gin); err != nil {
		log.Warn("River's GIN indexes on river_job keep PostgreSQL's fastupdate: under a burst an insert may wait while one merges its pending list (docs/app.md)", "err", err)
	}
	return nil
}

// riverGINIndexes are the GIN indexes River's migrations put on
// river_job's args and metadata.
var riverGINIndexes = []string{"river_job_args_index", "river_job_metadata_index"}

// ginDirect turns PostgreSQL's fastupdate off on each of the GIN indexes
// named that exists and has it on. With fastupdate on (PostgreSQL's
// default) a GIN index gathers new entries in a pending list, and the
// insert that finds the list past gin_pending_list_limit (4 MB) merges it
// into the index before it returns ("GIN Fast Update Technique",
// PostgreSQL's documentation, chapter GIN Indexes). At 1,000 deliveries a
// second that insert was one delivery batch in about every 5 s: its
// River job insert took 60 to 340 ms, and every delivery queued behind it
// waited as long (docs/app.md has the figures). Off, each insert updates
// the index itself, a little more each and never all at once. The list
// an index already holds is merged once here (gin_clean_pending_list), so
// no later insert meets it. An index River has dropped, or that is
// already off, is left alone: on a database already tuned this reads
// pg_class and writes nothing.
func ginDirect(ctx context.Context, conn *pgxpool.Conn, indexes []string) error {
	for _, name := range indexes {
		var on bool
		err := conn.QueryRow(ctx, `SELECT NOT ('fastupdate=off' = ANY(COALESCE(reloptions, '{}'))) FROM pg_class WHERE oid = to_regclass($1)`, name).Scan(&on)
		if errors.Is(err, pgx.ErrNoRows) || err == nil && !on {
			continue
		}
		if err != nil {
			return fmt.Errorf("queue migrate: read %s: %w", name, err)
		}
		ident := pgx.Identifier{name}.Sanitize()
		if _, err := conn.Exec(ctx, `ALTER INDEX `+ident+` SET (fastupdate = off)`); err != nil {
			return fmt.Errorf("queue migrate: %s fastupdate off: %w", name, err)
		}
		if _, err := conn.Exec(ctx, `SELECT gin_clean_pending_list($1::regclass)`, name); err != nil {
			return fmt.Errorf("queue migrate: %s pending list: %w", name, err)
		}
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
