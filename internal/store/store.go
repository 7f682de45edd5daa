// Package store is the App's database: embedded SQLite (modernc.org/sqlite)
// by default or PostgreSQL (pgx) for several replicas. It holds the
// delivery IDs already accepted, the append-only hash-chained ledger and
// the App's own migrations; River keeps its queue in the same database.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/attest"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// Dialect names the database engine.
type Dialect string

// The supported engines.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
)

// DB is an open App database. Exactly one of SQL (SQLite) and Pool
// (PostgreSQL) is set.
type DB struct {
	Dialect Dialect
	SQL     *sql.DB
	Pool    *pgxpool.Pool
	// Where is the database's location for messages (no credentials).
	Where string
	// HeadSigner signs the ledger's head after every append batch
	// (SealHead); nil signs none.
	HeadSigner *attest.Signer

	checkpoint *checkpointer
	// writer is the webhook edge's own SQLite connection (InWriteTx); nil
	// on PostgreSQL and in memory. walSync syncs its commits' log.
	writer  *sql.DB
	walSync *walSyncer
	locks   keyedMutex
}

// Open connects to the database named by url: "sqlite:PATH" (also
// "sqlite://PATH"; PATH ":memory:" for a throwaway database) or
// "postgres://…" / "postgresql://…".
func Open(ctx context.Context, url string) (*DB, error) {
	switch {
	case strings.HasPrefix(url, "sqlite:"):
		return openSQLite(ctx, strings.TrimPrefix(strings.TrimPrefix(url, "sqlite:"), "//"), createPrivate)
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		return openPostgres(ctx, url)
	default:
		return nil, fmt.Errorf("database %q: use sqlite:PATH or postgres://USER@HOST/DB", Redact(url))
	}
}

// busyTimeout is how long a connection waits for SQLite's write lock held
// by another process (busy_timeout), or for the write gate (gate.go).
const busyTimeout = 10 * time.Second

// walSizeLimit is the size SQLite's write-ahead log is cut back to once
// it has been checkpointed.
const walSizeLimit = 16 << 20

// openSQLite opens the SQLite database at path, calling create first for
// a file database (Open passes createPrivate; the negative-control test a
// create that does nothing).
func openSQLite(ctx context.Context, path string, create func(path string) error) (*DB, error) {
	if path == "" {
		return nil, errors.New("database sqlite: a path is required, e.g. sqlite:aepgate.db")
	}
	if path != ":memory:" {
		if err := create(path); err != nil {
			return nil, err
		}
	}
	dsn := sqliteDSN(path)
	memory := path == ":memory:"
	if memory {
		dsn = fmt.Sprintf("file::memory:?_pragma=busy_timeout(%d)&_txlock=immediate", busyTimeout.Milliseconds())
	}
	// The shared connection and the edge's (openWriter) take one write
	// gate (gate.go) rather than wait for each other in SQLite's busy
	// handler; in memory there is one connection and nothing to wait for.
	var gate writeGate
	if !memory {
		gate = newWriteGate()
	}
	db, err := openGated(dsn, gate)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	// One connection: SQLite allows one writer, and River's SQLite driver
	// asks for a single-connection pool to avoid SQLITE_BUSY. The webhook
	// edge's group commit has one of its own (openWriter, InWriteTx).
	db.SetMaxOpenConns(1)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	out := &DB{Dialect: SQLite, SQL: db, Where: "sqlite:" + path}
	if !memory {
		cp, err := startCheckpointer(path)
		if err != nil {
			db.Close()
			return nil, err
		}
		out.checkpoint = cp
		if out.writer, err = openWriter(ctx, sqliteDSN(path), path, gate); err != nil {
			out.Close()
			return nil, err
		}
		out.walSync = newWALSyncer(path)
	}
	return out, nil
}

// sqliteDSN is the DSN of a connection to the SQLite file at path, with
// PRAGMA synchronous NORMAL. Checkpoints are taken off the
// connections that serve requests (see checkpointer): a commit that also
// copied the WAL back into the database and synced it would stall every
// webhook queued behind it. The first commit after a complete checkpoint
// cuts the WAL file back to walSizeLimit, so a burst does not leave it
// large for good. In WAL mode NORMAL syncs the log only at
// checkpoints: a commit survives a crash of the process but not always a
// power loss or an operating-system crash. The webhook writer's commits
// are synced after they commit, once per batch or fewer (walsync.go): a
// 2xx promises GitHub the delivery is kept, and GitHub does not send it
// again. That sync also makes durable whatever the shared connection
// committed before it, in the log ahead of it; the shared connection's own
// commits (River's job states, the App's records) are not waited for: what
// a power loss takes of them is a job run again.
func sqliteDSN(path string) string {
	return fmt.Sprintf("file:%s?_pragma=journal_mode(WAL)&_pragma=busy_timeout(%d)&_pragma=synchronous(NORMAL)"+
		"&_pragma=wal_autocheckpoint(0)&_pragma=journal_size_limit(%d)&_txlock=immediate", path, busyTimeout.Milliseconds(), walSizeLimit)
}

// createPrivate creates the database file empty with mode 0600 unless
// something is already there. Left to SQLite, it would be created with
// whatever the umask allows (0644, usually), and its -wal and -shm files
// take the database file's mode: the ledger and stored deliveries would
// be readable by every local user.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("create sqlite %s: %w", path, err)
	}
	return f.Close()
}

// defaultPoolSize is the PostgreSQL pool size unless the URL sets
// pool_max_conns: each running job may hold one connection for its pull
// request's advisory lock and briefly another for the ledger, and the
// webhook edge and River need their own.
const defaultPoolSize = 40

func openPostgres(ctx context.Context, url string) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open postgres %s: %w", Redact(url), err)
	}
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = defaultPoolSize
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open postgres %s: %w", Redact(url), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open postgres %s: %w", Redact(url), err)
	}
	return &DB{Dialect: Postgres, Pool: pool, Where: Redact(url)}, nil
}

// Redact drops the passwords from a database URL for messages: the one in
// its user info and any *password* parameter (pgx reads password= and
// sslpassword= from the query).
func Redact(url string) string {
	rest, query, hasQuery := strings.Cut(url, "?")
	if hasQuery {
		params := strings.Split(query, "&")
		for i, p := range params {
			if k, _, ok := strings.Cut(p, "="); ok && strings.Contains(strings.ToLower(k), "password") {
				params[i] = k + "=***"
			}
		}
		query = strings.Join(params, "&")
	}
	at := strings.LastIndex(rest, "@")
	scheme := strings.Index(rest, "://")
	if at >= 0 && scheme >= 0 && at > scheme {
		if user, _, ok := strings.Cut(rest[scheme+3:at], ":"); ok {
			rest = rest[:scheme+3] + user + ":***" + rest[at:]
		}
	}
	if hasQuery {
		return rest + "?" + query
	}
	return rest
}

// Close releases the connections.
func (db *DB) Close() {
	if db.checkpoint != nil {
		db.checkpoint.stop()
	}
	if db.writer != nil {
		db.writer.Close()
	}
	if db.SQL != nil {
		db.SQL.Close()
	}
	if db.Pool != nil {
		db.Pool.Close()
	}
}

// Ping checks the database answers.
func (db *DB) Ping(ctx context.Context) error {
	if db.Pool != nil {
		return db.Pool.Ping(ctx)
	}
	return db.SQL.PingContext(ctx)
}

// Tx is one transaction on either engine. Raw is the engine's own
// transaction (*sql.Tx for SQLite, pgx.Tx for PostgreSQL), which River's
// InsertTx takes.
type Tx interface {
	Exec(ctx context.Context, q string, args ...any) (int64, error)
	QueryRow(ctx context.Context, q string, args ...any) Row
	Query(ctx context.Context, q string, args ...any) (Rows, error)
	Raw() any
}

// Row is one result row.
type Row interface{ Scan(dest ...any) error }

// Rows is a result set.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// read runs one query outside any transaction: a single statement sees a
// consistent snapshot on both engines, and on SQLite it takes no write
// lock (a transaction here would, as the pool begins IMMEDIATE ones), so
// it can run beside a live App.
func (db *DB) read(ctx context.Context, q string, args ...any) (Rows, error) {
	if db.Pool != nil {
		return db.Pool.Query(ctx, q, args...)
	}
	r, err := db.SQL.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{r}, nil
}

// InTx runs fn in a transaction and commits it when fn returns nil.
func (db *DB) InTx(ctx context.Context, fn func(Tx) error) error {
	if db.Pool != nil {
		tx, err := db.Pool.Begin(ctx)
		if err != nil {
			return fmt.Errorf("begin: %w", err)
		}
		defer tx.Rollback(ctx)
		if err := fn(pgTx{tx}); err != nil {
			return err
		}
		return tx.Commit(ctx)
	}
	return inSQLTx(ctx, db.SQL, fn)
}

// inSQLTx runs fn in a transaction on the SQLite connection pool c.
func inSQLTx(ctx context.Context, c *sql.DB, fn func(Tx) error) error {
	tx, err := c.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(sqlTx{tx}); err != nil {
		return err
	}
	return tx.Commit()
}

// sqlTx is a Tx on SQLite (database/sql).
type sqlTx struct{ tx *sql.Tx }

func (t sqlTx) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	r, err := t.tx.ExecContext(ctx, q, args...)
	if err != nil {
		return 0, err
	}
	return r.RowsAffected()
}
func (t sqlTx) QueryRow(ctx context.Context, q string, args ...any) Row {
	return t.tx.QueryRowContext(ctx, q, args...)
}
func (t sqlTx) Query(ctx context.Context, q string, args ...any) (Rows, error) {
	r, err := t.tx.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return sqlRows{r}, nil
}
func (t sqlTx) Raw() any { return t.tx }

type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }

// pgTx is a Tx on PostgreSQL (pgx).
type pgTx struct{ tx pgx.Tx }

func (t pgTx) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := t.tx.Exec(ctx, q, args...)
	return tag.RowsAffected(), err
}
func (t pgTx) QueryRow(ctx context.Context, q string, args ...any) Row {
	return t.tx.QueryRow(ctx, q, args...)
}
func (t pgTx) Query(ctx context.Context, q string, args ...any) (Rows, error) {
	return t.tx.Query(ctx, q, args...)
}
func (t pgTx) Raw() any { return t.tx }
