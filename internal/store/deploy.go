package store

import (
	"context"
	"fmt"
	"time"
)

// deployTables keep the deployment protection requests the App has seen
// (app/deploy): one row per workflow run and environment, pending until it
// is answered, then the answer. A pending row is what the reconcile sweep
// and the owner's answer on the control issue judge again.
var deployTables = []string{
	`CREATE TABLE aepgate_deploy (
		repo TEXT NOT NULL,
		run_id BIGINT NOT NULL,
		environment TEXT NOT NULL,
		installation BIGINT NOT NULL,
		sha TEXT NOT NULL,
		requested_at TEXT NOT NULL,
		state TEXT NOT NULL,
		reason TEXT NOT NULL,
		answered_at TEXT NOT NULL,
		PRIMARY KEY (repo, run_id, environment))`,
}

// DeployPending is the state of a request not answered yet.
const DeployPending = "pending"

// Deploy is one deployment protection request: run RunID's deployment of
// SHA to Environment in Repo ("owner/name"), first seen at Requested.
type Deploy struct {
	Repo         string
	RunID        int64
	Environment  string
	Installation int64
	SHA          string
	Requested    time.Time
	// State is DeployPending or the answer ("approved", "rejected");
	// Reason says why.
	State, Reason string
}

// RecordDeploy keeps d as pending unless the request is known, and returns
// the request as kept: a redelivery keeps the first time it was seen, and
// its answer.
func (db *DB) RecordDeploy(ctx context.Context, d Deploy) (Deploy, error) {
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO aepgate_deploy (repo, run_id, environment, installation, sha, requested_at, state, reason, answered_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, '', '') ON CONFLICT (repo, run_id, environment) DO NOTHING`,
			d.Repo, d.RunID, d.Environment, d.Installation, d.SHA, d.Requested.UTC().Format(timeFormat), DeployPending)
		return err
	})
	if err != nil {
		return Deploy{}, fmt.Errorf("record deploy %s run %d: %w", d.Repo, d.RunID, err)
	}
	got, err := db.deploys(ctx, `WHERE repo = $1 AND run_id = $2 AND environment = $3`, d.Repo, d.RunID, d.Environment)
	if err != nil || len(got) == 0 {
		return Deploy{}, fmt.Errorf("record deploy %s run %d: not kept: %v", d.Repo, d.RunID, err)
	}
	return got[0], nil
}

// PendingDeploys are repo's requests not answered yet, oldest first.
func (db *DB) PendingDeploys(ctx context.Context, repo string) ([]Deploy, error) {
	return db.deploys(ctx, `WHERE repo = $1 AND state = $2`, repo, DeployPending)
}

// AnswerDeploy moves a pending request to state with reason, and reports
// whether it did: false when it was answered already, so each request is
// answered once whoever gets there first. Unanswer returns it to pending
// when the answer could not be delivered.
func (db *DB) AnswerDeploy(ctx context.Context, d Deploy, state, reason string, now time.Time) (bool, error) {
	var n int64
	err := db.InTx(ctx, func(tx Tx) error {
		var err error
		n, err = tx.Exec(ctx, `UPDATE aepgate_deploy SET state = $1, reason = $2, answered_at = $3
			WHERE repo = $4 AND run_id = $5 AND environment = $6 AND state = $7`,
			state, reason, now.UTC().Format(timeFormat), d.Repo, d.RunID, d.Environment, DeployPending)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("answer deploy %s run %d: %w", d.Repo, d.RunID, err)
	}
	return n == 1, nil
}

// Unanswer returns an answered request to pending (its answer did not
// reach GitHub).
func (db *DB) Unanswer(ctx context.Context, d Deploy) error {
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `UPDATE aepgate_deploy SET state = $1, reason = '', answered_at = ''
			WHERE repo = $2 AND run_id = $3 AND environment = $4`, DeployPending, d.Repo, d.RunID, d.Environment)
		return err
	})
	if err != nil {
		return fmt.Errorf("unanswer deploy %s run %d: %w", d.Repo, d.RunID, err)
	}
	return nil
}

// deploys reads the requests matching where.
func (db *DB) deploys(ctx context.Context, where string, args ...any) ([]Deploy, error) {
	rows, err := db.read(ctx, `SELECT repo, run_id, environment, installation, sha, requested_at, state, reason FROM aepgate_deploy `+where+` ORDER BY requested_at, run_id, environment`, args...)
	if err != nil {
		return nil, fmt.Errorf("read deploys: %w", err)
	}
	defer rows.Close()
	var out []Deploy
	for rows.Next() {
		var d Deploy
		var at string
		if err := rows.Scan(&d.Repo, &d.RunID, &d.Environment, &d.Installation, &d.SHA, &at, &d.State, &d.Reason); err != nil {
			return nil, fmt.Errorf("read deploys: %w", err)
		}
		if d.Requested, err = time.Parse(timeFormat, at); err != nil {
			return nil, fmt.Errorf("read deploys: requested_at %q: %w", at, err)
		}
		out = append(out, d)
	}
	return out, rows.Err()
}
