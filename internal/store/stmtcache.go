package store

import (
	"container/list"
	"context"
	"database/sql/driver"
)

// modernc.org/sqlite prepares a statement anew for every Exec and Query
// run on a connection (its conn.exec and conn.query prepare, run and
// finalize), and parsing is most of what a short statement costs: at 1,000
// webhook deliveries a second, a tenth of serve's CPU went to preparing the
// same few statements, the group commit's admission and job inserts and
// River's fetches and completions (docs/app.md, "Group commit and
// throughput"). A connection opened by openGated keeps its last
// stmtCacheSize statements prepared, by their exact text, and runs a
// statement it keeps through modernc.org/sqlite's own prepared-statement
// path (bind, step, reset), which is the one conn.exec and conn.query take
// after preparing. SQLite recompiles a kept statement by itself when the
// schema changed under it (sqlite3_prepare_v2).

// stmtCacheSize bounds the statements one connection keeps: the multi-row
// statements of a webhook batch differ by their number of rows (up to 64
// in practice at 2,000 deliveries a second, four statements each), and
// River's few dozen queries.
const stmtCacheSize = 256

// sqliteStmt is what modernc.org/sqlite's prepared statements implement.
type sqliteStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// stmtCache is one connection's kept statements, most recently used first.
// database/sql uses a connection from one goroutine at a time, so it needs
// no lock.
type stmtCache struct {
	size    int
	byQuery map[string]*list.Element
	order   list.List
}

// keptStmt is a kept statement; busy while rows it returned are open, when
// running it again would reset them, so a second use meanwhile prepares
// its own.
type keptStmt struct {
	query string
	stmt  sqliteStmt
	busy  bool
}

func newStmtCache(size int) *stmtCache {
	return &stmtCache{size: size, byQuery: map[string]*list.Element{}}
}

// get returns the kept statement of query, preparing it on conn if it is
// not kept yet, or nil when it is busy or cannot be kept (the caller runs
// query unprepared).
func (sc *stmtCache) get(ctx context.Context, conn driver.ConnPrepareContext, query string) (*keptStmt, error) {
	if e, ok := sc.byQuery[query]; ok {
		k := e.Value.(*keptStmt)
		if k.busy {
			return nil, nil
		}
		sc.order.MoveToFront(e)
		return k, nil
	}
	st, err := conn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s, ok := st.(sqliteStmt)
	if !ok {
		st.Close()
		return nil, nil
	}
	sc.evict()
	k := &keptStmt{query: query, stmt: s}
	sc.byQuery[query] = sc.order.PushFront(k)
	return k, nil
}

// evict finalizes the least recently used statements that are not busy
// until there is room for one more.
func (sc *stmtCache) evict() {
	for e := sc.order.Back(); e != nil && sc.order.Len() >= sc.size; {
		prev := e.Prev()
		if k := e.Value.(*keptStmt); !k.busy {
			k.stmt.Close()
			sc.order.Remove(e)
			delete(sc.byQuery, k.query)
		}
		e = prev
	}
}

// close finalizes every kept statement (the connection is closing).
func (sc *stmtCache) close() {
	for e := sc.order.Front(); e != nil; e = e.Next() {
		e.Value.(*keptStmt).stmt.Close()
	}
	sc.order.Init()
	clear(sc.byQuery)
}

// exec runs query on conn, through its kept statement when it can.
func (sc *stmtCache) exec(ctx context.Context, conn sqliteConn, query string, args []driver.NamedValue) (driver.Result, error) {
	k, err := sc.get(ctx, conn, query)
	if err != nil {
		return nil, err
	}
	if k == nil {
		return conn.ExecContext(ctx, query, args)
	}
	return k.stmt.ExecContext(ctx, args)
}

// query runs query on conn, through its kept statement when it can; the
// statement is busy until the rows close.
func (sc *stmtCache) query(ctx context.Context, conn sqliteConn, query string, args []driver.NamedValue) (driver.Rows, error) {
	k, err := sc.get(ctx, conn, query)
	if err != nil {
		return nil, err
	}
	if k == nil {
		return conn.QueryContext(ctx, query, args)
	}
	rows, err := k.stmt.QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	k.busy = true
	r, ok := rows.(sqliteRows)
	if !ok {
		// Not expected of modernc.org/sqlite: rows without the column
		// type methods, kept without them.
		return &keptPlainRows{Rows: rows, k: k}, nil
	}
	return &keptRows{sqliteRows: r, k: k}, nil
}

// keptRows are the rows of a kept statement, which is free again once
// they close.
type keptRows struct {
	sqliteRows
	k *keptStmt
}

func (r *keptRows) Close() error {
	defer func() { r.k.busy = false }()
	return r.sqliteRows.Close()
}

// keptPlainRows are keptRows of a driver whose rows lack sqliteRows'
// methods.
type keptPlainRows struct {
	driver.Rows
	k *keptStmt
}

func (r *keptPlainRows) Close() error {
	defer func() { r.k.busy = false }()
	return r.Rows.Close()
}
