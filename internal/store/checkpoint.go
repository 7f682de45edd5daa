package store

import (
	"context"
	"database/sql"
	"fmt"
	"sync/atomic"
	"time"
)

// checkpointEvery is how often the WAL is copied back into the database.
const checkpointEvery = time.Second

// checkpointer copies SQLite's write-ahead log back into the database from
// its own connection, in PASSIVE mode, which never waits for or blocks the
// connection serving requests.
type checkpointer struct {
	db *sql.DB
	// passes counts successful checkpoints (for tests).
	passes atomic.Int64
	cancel context.CancelFunc
	done   chan struct{}
}

func startCheckpointer(path string) (*checkpointer, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(1000)")
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s for checkpoints: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	ctx, cancel := context.WithCancel(context.Background())
	c := &checkpointer{db: db, cancel: cancel, done: make(chan struct{})}
	go c.run(ctx)
	return c, nil
}

func (c *checkpointer) run(ctx context.Context) {
	defer close(c.done)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			// A failed pass (the database busy) is retried on the next tick.
			if _, err := c.db.ExecContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`); err == nil {
				c.passes.Add(1)
			}
		}
	}
}

// stop ends the loop and takes a last checkpoint.
func (c *checkpointer) stop() {
	c.cancel()
	<-c.done
	c.db.Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
	c.db.Close()
}
