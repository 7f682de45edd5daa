package store

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"
)

// Lock takes the lock named key, waiting until it is free or ctx ends, and
// returns the function that releases it. On PostgreSQL it is a session
// advisory lock on a dedicated connection, shared by every replica on the
// database; on SQLite (one process owns the file) an in-process keyed mutex.
// The App serialises the evaluations of one pull request with it.
func (db *DB) Lock(ctx context.Context, key string) (unlock func(), err error) {
	if db.Dialect == Postgres {
		return db.advisoryLock(ctx, key)
	}
	return db.locks.lock(ctx, key)
}

// keyedMutex is a keyed mutex that honours context cancellation.
type keyedMutex struct {
	mu   sync.Mutex
	held map[string]chan struct{}
}

func (l *keyedMutex) lock(ctx context.Context, key string) (func(), error) {
	for {
		l.mu.Lock()
		if l.held == nil {
			l.held = map[string]chan struct{}{}
		}
		ch, busy := l.held[key]
		if !busy {
			ch = make(chan struct{})
			l.held[key] = ch
			l.mu.Unlock()
			return func() {
				l.mu.Lock()
				delete(l.held, key)
				l.mu.Unlock()
				close(ch)
			}, nil
		}
		l.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// advisoryLock takes a session advisory lock on a dedicated connection.
func (db *DB) advisoryLock(ctx context.Context, key string) (func(), error) {
	conn, err := db.Pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", key, err)
	}
	k := lockKey(key)
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, k); err != nil {
		conn.Release()
		return nil, fmt.Errorf("lock %s: %w", key, err)
	}
	return func() {
		if _, err := conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, k); err != nil {
			// A connection in doubt must not return to the pool still holding the lock.
			conn.Conn().Close(context.WithoutCancel(ctx))
		}
		conn.Release()
	}, nil
}

func lockKey(key string) int64 {
	h := fnv.New64a()
	h.Write([]byte("aepgate-pr:" + key))
	return int64(h.Sum64())
}
