package store

import (
	"context"
	"fmt"
)

// QueueStat is the count of one River queue's jobs in one state and, for
// the jobs ready to run (available), how long the oldest has waited.
type QueueStat struct {
	Queue, State string
	Jobs         int64
	// OldestSeconds is how long ago the oldest job became ready to run
	// (its scheduled time); 0 for the other states.
	OldestSeconds float64
}

// queueAge is, per engine, the SQL for how many seconds ago the oldest of
// a group's jobs was scheduled.
var queueAge = map[Dialect]string{
	SQLite:   `(julianday('now') - julianday(MIN(scheduled_at))) * 86400.0`,
	Postgres: `EXTRACT(EPOCH FROM (now() - MIN(scheduled_at)))::float8`,
}

// QueueStats counts River's unfinished jobs by queue and state (River
// keeps its jobs in this database, table river_job).
func (db *DB) QueueStats(ctx context.Context) ([]QueueStat, error) {
	rows, err := db.read(ctx, `SELECT queue, state, COUNT(*), `+queueAge[db.Dialect]+` FROM river_job
		WHERE state IN ('available', 'pending', 'retryable', 'running', 'scheduled') GROUP BY queue, state`)
	if err != nil {
		return nil, fmt.Errorf("queue stats: %w", err)
	}
	defer rows.Close()
	var out []QueueStat
	for rows.Next() {
		var s QueueStat
		var age *float64
		if err := rows.Scan(&s.Queue, &s.State, &s.Jobs, &age); err != nil {
			return nil, fmt.Errorf("queue stats: %w", err)
		}
		if age != nil && s.State == "available" {
			s.OldestSeconds = max(*age, 0)
		}
		out = append(out, s)
	}
	return out, rows.Err()
}
