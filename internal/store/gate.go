package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"time"

	"modernc.org/sqlite"
)

// SQLite lets one connection write at a time. A connection that finds the
// write lock taken waits in SQLite's busy handler, which sleeps on a fixed
// schedule whatever happens meanwhile (1, 2, 5, 10, 15, 20, 25, 25, 25, 50,
// 50, 100 ms: SQLite's sqliteDefaultBusyCallback, which modernc.org/sqlite
// keeps): a webhook batch that found River's connection writing slept on
// long after the lock was free (docs/app.md, "The write gate, jobs that
// give way…": its BEGIN took 9 to 19 ms at the 99th percentile at 1,000
// deliveries/s, for statements that hold the lock for a millisecond or
// two).
//
// Between this process's own connections the write gate takes the place
// of that wait: a connection takes the gate before anything that takes
// SQLite's write lock (every transaction, _txlock=immediate, and every
// statement outside one that is not a SELECT) and gives it back when the
// lock is released (commit, rollback, the statement's end), and the next
// waiter, first come first served, runs at once. busy_timeout stays as it
// was for other processes on the same file and for what the gate does not
// see (a prepared statement run outside a transaction).
//
// writeGate is a one-slot semaphore: a blocked send on a Go channel is
// served in the order it came.
type writeGate chan struct{}

// gateWait bounds a wait for the gate, as busy_timeout bounds a wait for
// SQLite's lock.
const gateWait = busyTimeout

// errGateWait is what a write that waited gateWait for the gate gets, as
// SQLite answers SQLITE_BUSY after busy_timeout.
var errGateWait = fmt.Errorf("sqlite: database is locked: no write lock within %v", gateWait)

func newWriteGate() writeGate { return make(writeGate, 1) }

// acquire takes the gate, waiting at most gateWait and until ctx ends.
func (g writeGate) acquire(ctx context.Context) error {
	select {
	case g <- struct{}{}:
		return nil
	default:
	}
	t := time.NewTimer(gateWait)
	defer t.Stop()
	select {
	case g <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("sqlite: wait for the write lock: %w", ctx.Err())
	case <-t.C:
		return errGateWait
	}
}

func (g writeGate) release() { <-g }

// openGated opens the SQLite database dsn names with connections that take
// gate before writing; a nil gate opens it plainly.
func openGated(dsn string, gate writeGate) (*sql.DB, error) {
	base, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	if gate == nil {
		return sql.OpenDB(base), nil
	}
	return sql.OpenDB(gatedConnector{Connector: base, gate: gate}), nil
}

// sqliteConn is what every connection modernc.org/sqlite opens implements;
// a wrapper that hid one of them would make database/sql fall back to the
// context-free methods (modernc.org/sqlite's NewConnector documents it).
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// gatedConnector opens connections that take gate before writing.
type gatedConnector struct {
	driver.Connector
	gate writeGate
}

func (c gatedConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := conn.(sqliteConn)
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("sqlite: connection %T lacks a method the write gate forwards", conn)
	}
	return &gatedConn{sqliteConn: sc, gate: c.gate, stmts: newStmtCache(stmtCacheSize)}, nil
}

// gatedConn is a connection that holds the gate while it holds, or may
// take, SQLite's write lock. database/sql uses a connection from one
// goroutine at a time, so held needs no lock.
type gatedConn struct {
	sqliteConn
	gate writeGate
	// held: this connection holds the gate (in a transaction, or while an
	// autocommit query's rows are open).
	held bool
	// stmts are the statements the connection keeps prepared
	// (stmtcache.go).
	stmts *stmtCache
}

// Unwrap is the connection the gate wraps (modernc.org/sqlite's Limit
// looks through a wrapper this way).
func (c *gatedConn) Unwrap() driver.Conn { return c.sqliteConn }

func (c *gatedConn) take(ctx context.Context) error {
	if err := c.gate.acquire(ctx); err != nil {
		return err
	}
	c.held = true
	return nil
}

func (c *gatedConn) give() {
	if c.held {
		c.held = false
		c.gate.release()
	}
}

func (c *gatedConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	if err := c.take(ctx); err != nil {
		return nil, err
	}
	tx, err := c.sqliteConn.BeginTx(ctx, opts)
	if err != nil {
		c.give()
		return nil, err
	}
	return gatedTx{Tx: tx, c: c}, nil
}

// Begin is BeginTx without a context (driver.Conn's, which database/sql
// calls only for a driver without ConnBeginTx).
func (c *gatedConn) Begin() (driver.Tx, error) {
	return c.BeginTx(context.Background(), driver.TxOptions{})
}

func (c *gatedConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	if c.held || readOnly(query) {
		return c.stmts.exec(ctx, c.sqliteConn, query, args)
	}
	if err := c.take(ctx); err != nil {
		return nil, err
	}
	defer c.give()
	return c.stmts.exec(ctx, c.sqliteConn, query, args)
}

func (c *gatedConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	if c.held || readOnly(query) {
		return c.stmts.query(ctx, c.sqliteConn, query, args)
	}
	if err := c.take(ctx); err != nil {
		return nil, err
	}
	rows, err := c.stmts.query(ctx, c.sqliteConn, query, args)
	if err != nil {
		c.give()
		return nil, err
	}
	r, ok := rows.(sqliteRows)
	if !ok {
		// Not expected of modernc.org/sqlite: rows that cannot be
		// wrapped without hiding their column types. Give the gate back
		// now; a writer that meets the statement still holding the lock
		// waits under busy_timeout, as without the gate.
		c.give()
		return rows, nil
	}
	return &gatedRows{sqliteRows: r, c: c}, nil
}

// Close gives the gate back if the connection is dropped holding it
// (database/sql discards a connection whose transaction's context ended).
func (c *gatedConn) Close() error {
	c.give()
	c.stmts.close()
	return c.sqliteConn.Close()
}

// gatedTx gives the gate back when the transaction ends, whatever way.
type gatedTx struct {
	driver.Tx
	c *gatedConn
}

func (t gatedTx) Commit() error {
	defer t.c.give()
	return t.Tx.Commit()
}

func (t gatedTx) Rollback() error {
	defer t.c.give()
	return t.Tx.Rollback()
}

// sqliteRows is what modernc.org/sqlite's rows implement.
type sqliteRows interface {
	driver.Rows
	driver.RowsColumnTypeDatabaseTypeName
	driver.RowsColumnTypeLength
	driver.RowsColumnTypeNullable
	driver.RowsColumnTypePrecisionScale
	driver.RowsColumnTypeScanType
}

// gatedRows are an autocommit statement's rows: the statement holds the
// write lock until they close.
type gatedRows struct {
	sqliteRows
	c *gatedConn
}

func (r *gatedRows) Close() error {
	defer r.c.give()
	return r.sqliteRows.Close()
}

// readOnly reports whether query, outside a transaction, cannot take the
// write lock: it starts (after blanks and comments) with SELECT or EXPLAIN.
// Anything else (a WITH that may update, PRAGMA, INSERT…) takes the gate;
// a read taken for a write only waits when it need not have.
func readOnly(query string) bool {
	q := skipComments(query)
	for _, kw := range []string{"SELECT", "EXPLAIN"} {
		if len(q) >= len(kw) && strings.EqualFold(q[:len(kw)], kw) && (len(q) == len(kw) || !isWordByte(q[len(kw)])) {
			return true
		}
	}
	return false
}

// skipComments drops leading blanks, "-- …" lines and "/* … */" blocks (the
// queries River generates with sqlc start with a "-- name:" line).
func skipComments(q string) string {
	for {
		q = strings.TrimLeft(q, " \t\r\n")
		switch {
		case strings.HasPrefix(q, "--"):
			i := strings.IndexByte(q, '\n')
			if i < 0 {
				return ""
			}
			q = q[i+1:]
		case strings.HasPrefix(q, "/*"):
			i := strings.Index(q, "*/")
			if i < 0 {
				return ""
			}
			q = q[i+2:]
		default:
			return q
		}
	}
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}
