package store

import (
	"context"
	"database/sql"
	"fmt"
)

// The webhook edge's group commit writes through a SQLite connection of
// its own (DB.InWriteTx). Everything else, River included, shares the
// other one, and database/sql gives a free connection to a random one of
// its waiters: with the workers, River's producer and its completer
// waiting too, a batch waited behind a random queue of their statements
// (10 ms on average and up to half a second at 200 deliveries/s measured
// on a loaded machine, more than the commit itself). On its own connection
// it waits only for the one write transaction running, SQLite's lock being
// taken by every transaction up front (_txlock=immediate) and waited for
// at the write gate both connections share (gate.go).

// openWriter opens the edge's connection to the SQLite database dsn
// names.
func openWriter(ctx context.Context, dsn, path string, gate writeGate) (*sql.DB, error) {
	w, err := openGated(dsn, gate)
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s for the webhook writer: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite %s for the webhook writer: %w", path, err)
	}
	return w, nil
}

// InWriteTx is InTx for the webhook edge's group commit: on a SQLite file
// it runs on the edge's own connection, so a batch never queues behind the
// statements of River and the jobs on the shared one, and returns once the
// commit is on disk (InWriteTxNoSync and its wait); on PostgreSQL and on an
// in-memory SQLite database (where a second connection would open another
// database) it is InTx.
func (db *DB) InWriteTx(ctx context.Context, fn func(Tx) error) error {
	wait, err := db.InWriteTxNoSync(ctx, fn)
	if err != nil {
		return err
	}
	return wait(ctx)
}

// InWriteTxNoSync is InWriteTx returning once fn's transaction committed,
// before the commit is on disk, with the wait for that (walsync.go): the
// caller can start its next transaction while the disk syncs this one. The
// wait's error means the commit may not survive a power loss or an
// operating-system crash; it does survive the process. On PostgreSQL and
// in memory the wait returns at once (PostgreSQL's commit is durable when
// it returns).
func (db *DB) InWriteTxNoSync(ctx context.Context, fn func(Tx) error) (wait func(context.Context) error, err error) {
	if db.writer == nil {
		return durable, db.InTx(ctx, fn)
	}
	if err := inSQLTx(ctx, db.writer, fn); err != nil {
		return nil, err
	}
	ticket := db.walSync.ticket()
	return func(ctx context.Context) error { return db.walSync.wait(ctx, ticket) }, nil
}

// durable is the wait for a commit that is durable when it returns.
func durable(context.Context) error { return nil }
