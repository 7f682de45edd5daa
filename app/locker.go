package app

import (
	"context"
	"fmt"
	"hash/fnv"
	"sync"

	"github.com/aepgate/aepgate/internal/store"
)

// prLocker serialises evaluations of one pull request, so two jobs never
// race to write the same check run (each evaluation then reads what the
// one before it wrote).
type prLocker interface {
	lock(ctx context.Context, key string) (unlock func(), err error)
}

// newLocker returns an in-process lock for SQLite (one process owns the
// file) and a PostgreSQL advisory lock, shared by every replica, otherwise.
func newLocker(db *store.DB) prLocker {
	if db.Dialect == store.Postgres {
		return &pgLocker{db: db}
	}
	return &memLocker{held: map[string]chan struct{}{}}
}

// memLocker is a keyed mutex that honours context cancellation.
type memLocker struct {
	mu   sync.Mutex
	held map[string]chan struct{}
}

func (l *memLocker) lock(ctx context.Context, key string) (func(), error) {
	for {
		l.mu.Lock()
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

// pgLocker takes a session advisory lock on a dedicated connection.
type pgLocker struct{ db *store.DB }

func (l *pgLocker) lock(ctx context.Context, key string) (func(), error) {
	conn, err := l.db.Pool.Acquire(ctx)
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
