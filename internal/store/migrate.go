package store

import (
	"context"
	"fmt"
)

// migration is one schema step, written per dialect.
type migration struct {
	sqlite, postgres []string
}

// migrations are the App's own tables, applied in order and recorded in
// aepgate_migration. River's tables are migrated by River (rivermigrate).
var migrations = []migration{
	{
		sqlite: []string{
			`CREATE TABLE aepgate_delivery (
				delivery_id TEXT PRIMARY KEY,
				event TEXT NOT NULL,
				received_at TEXT NOT NULL)`,
			`CREATE TABLE aepgate_ledger (
				seq INTEGER PRIMARY KEY,
				at TEXT NOT NULL,
				kind TEXT NOT NULL,
				delivery_id TEXT NOT NULL,
				subject TEXT NOT NULL,
				body TEXT NOT NULL,
				prev_hash TEXT NOT NULL,
				hash TEXT NOT NULL)`,
		},
		postgres: []string{
			`CREATE TABLE aepgate_delivery (
				delivery_id TEXT PRIMARY KEY,
				event TEXT NOT NULL,
				received_at TEXT NOT NULL)`,
			`CREATE TABLE aepgate_ledger (
				seq BIGINT PRIMARY KEY,
				at TEXT NOT NULL,
				kind TEXT NOT NULL,
				delivery_id TEXT NOT NULL,
				subject TEXT NOT NULL,
				body TEXT NOT NULL,
				prev_hash TEXT NOT NULL,
				hash TEXT NOT NULL)`,
		},
	},
	{
		// Ledger look-ups by subject (LedgerHasSubject).
		sqlite:   []string{`CREATE INDEX aepgate_ledger_subject ON aepgate_ledger (subject)`},
		postgres: []string{`CREATE INDEX aepgate_ledger_subject ON aepgate_ledger (subject)`},
	},
	{
		// The owner's board: the latest board per repository and each
		// pull request's board facts (board.go).
		sqlite:   boardTables,
		postgres: boardTables,
	},
	{
		// Kept decisions (kept.go): accepted HOLDs, gates, resumes and
		// resolves as they were accepted, and each thread's read mark.
		sqlite:   keptTables,
		postgres: keptTables,
	},
	{
		// Who pushed each head (pusher.go).
		sqlite:   pusherTables,
		postgres: pusherTables,
	},
	{
		// Signed ledger heads (ledger_head.go).
		sqlite:   ledgerHeadTables,
		postgres: ledgerHeadTables,
	},
	{
		// The SHA-256 of each accepted webhook body (body.go).
		sqlite:   bodyTables,
		postgres: bodyTables,
	},
	{
		// Requests to judge a pull request again, coalesced (rejudge.go).
		sqlite:   rejudgeTables,
		postgres: rejudgeTables,
	},
	{
		// Deployment protection requests (deploy.go).
		sqlite:   deployTables,
		postgres: deployTables,
	},
	{
		// Unit closures and the App's own evidence per attempt (closure.go).
		sqlite:   closureTables,
		postgres: closureTables,
	},
	{
		// The board's kept increment judgements (board_increment.go).
		sqlite:   boardIncrementTables,
		postgres: boardIncrementTables,
	},
	{
		// Kept unit contracts and increment definitions (contract.go).
		sqlite:   contractTables,
		postgres: contractTables,
	},
	{
		// The attempt index: each unit's open pull requests (attempt.go).
		sqlite:   attemptTables,
		postgres: attemptTables,
	},
}

// boardTables are the board's tables, the same on both engines.
var boardTables = []string{
	`CREATE TABLE aepgate_board (
		repo TEXT PRIMARY KEY,
		board TEXT NOT NULL,
		saved_at TEXT NOT NULL)`,
	`CREATE TABLE aepgate_board_fact (
		repo TEXT NOT NULL,
		pr INTEGER NOT NULL,
		fact TEXT NOT NULL,
		saved_at TEXT NOT NULL,
		PRIMARY KEY (repo, pr))`,
}

// migrateLock is the PostgreSQL advisory lock key that keeps two replicas
// from migrating at once ("aepgate" in ASCII).
const migrateLock = 0x6165706761746500

// Migrate brings the App's own tables up to date. It is safe to run from
// several replicas at once.
func (db *DB) Migrate(ctx context.Context) error {
	return db.InTx(ctx, func(tx Tx) error {
		if db.Dialect == Postgres {
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(migrateLock)); err != nil {
				return fmt.Errorf("migrate: lock: %w", err)
			}
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS aepgate_migration (version INTEGER PRIMARY KEY)`); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		var have int
		if err := tx.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM aepgate_migration`).Scan(&have); err != nil {
			return fmt.Errorf("migrate: read version: %w", err)
		}
		if have > len(migrations) {
			return fmt.Errorf("migrate: the database is at version %d, newer than this aepgate (%d); upgrade aepgate", have, len(migrations))
		}
		for v := have + 1; v <= len(migrations); v++ {
			m := migrations[v-1]
			stmts := m.sqlite
			if db.Dialect == Postgres {
				stmts = m.postgres
			}
			for _, s := range stmts {
				if _, err := tx.Exec(ctx, s); err != nil {
					return fmt.Errorf("migrate to version %d: %w", v, err)
				}
			}
			if _, err := tx.Exec(ctx, `INSERT INTO aepgate_migration (version) VALUES ($1)`, v); err != nil {
				return fmt.Errorf("migrate to version %d: %w", v, err)
			}
		}
		return nil
	})
}
