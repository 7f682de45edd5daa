package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// GitHub says nothing, on a commit, about who pushed it: a commit's
// author and committer are whatever the pusher wrote into it. The App
// therefore keeps the sender of every delivery that moved a branch
// (pull_request opened and synchronize, push) with the SHA it moved the
// branch to, and the audit counts each as an author of that commit. It
// keeps with each the push's time as the delivery states it (GitHub's
// server time, which the pusher does not write): who instructed an
// agent's push is judged by it (app/instructed), never by the commit's
// own dates.

// pusherTables is the pushers' table, the same on both engines.
var pusherTables = []string{
	`CREATE TABLE aepgate_pusher (
		repo TEXT NOT NULL,
		sha TEXT NOT NULL,
		login TEXT NOT NULL,
		recorded_at TEXT NOT NULL,
		PRIMARY KEY (repo, sha, login))`,
}

// Pusher is one recorded push: Login moved a branch of the repository to
// SHA at At (the zero time when the delivery stated none).
type Pusher struct {
	SHA, Login string
	At         time.Time
}

// RecordPusher records that login pushed sha to repo ("owner/name") at
// at, the push's time as its delivery states it (zero: it stated none);
// a push recorded before changes nothing, so the first delivery's time is
// kept. SHAs are kept in lower case and logins as GitHub spells them.
func (db *DB) RecordPusher(ctx context.Context, repo, sha, login string, at time.Time) error {
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO aepgate_pusher (repo, sha, login, recorded_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (repo, sha, login) DO NOTHING`, repo, strings.ToLower(sha), login, at.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return fmt.Errorf("record pusher of %s@%s: %w", repo, sha, err)
	}
	return nil
}

// Pushers returns who pushed each of shas to repo and when, ordered by
// SHA and login. A SHA nobody was recorded pushing has no row; a time
// that does not read back is the zero time (unknown).
func (db *DB) Pushers(ctx context.Context, repo string, shas []string) ([]Pusher, error) {
	if len(shas) == 0 {
		return nil, nil
	}
	args := []any{repo}
	marks := make([]string, len(shas))
	for i, s := range shas {
		args = append(args, strings.ToLower(s))
		marks[i] = fmt.Sprintf("$%d", i+2)
	}
	rows, err := db.read(ctx, `SELECT sha, login, recorded_at FROM aepgate_pusher WHERE repo = $1 AND sha IN (`+strings.Join(marks, ", ")+`) ORDER BY sha, login`, args...)
	if err != nil {
		return nil, fmt.Errorf("pushers of %s: %w", repo, err)
	}
	defer rows.Close()
	var out []Pusher
	for rows.Next() {
		var p Pusher
		var at string
		if err := rows.Scan(&p.SHA, &p.Login, &at); err != nil {
			return nil, fmt.Errorf("pushers of %s: %w", repo, err)
		}
		if t, err := time.Parse(timeFormat, at); err == nil && t.Year() > 1 {
			p.At = t
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("pushers of %s: %w", repo, err)
	}
	return out, nil
}
