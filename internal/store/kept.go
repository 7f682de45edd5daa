package store

import (
	"context"
	"fmt"
	"time"

	"github.com/aepgate/aepgate/protocol/ledger"
)

// Kept decisions: any writer can edit or delete any GitHub comment, so the
// App keeps each decision it accepted (a HOLD, an opened gate, a resume, a
// resolve) as it was accepted, and replays it from this copy whatever later
// happens to its source (docs/gates.md, "Kept decisions"). The table is a
// system of record: back it up with the ledger, which holds a row for every
// decision kept and every tampering seen.
var keptTables = []string{
	`CREATE TABLE aepgate_kept (
		repo TEXT NOT NULL,
		review INTEGER NOT NULL,
		item_id BIGINT NOT NULL,
		unit INTEGER NOT NULL,
		item TEXT NOT NULL,
		body_sha256 TEXT NOT NULL,
		kept_at TEXT NOT NULL,
		ledger_seq BIGINT NOT NULL,
		tamper TEXT NOT NULL,
		tampered_by TEXT NOT NULL,
		tampered_at TEXT NOT NULL,
		tamper_ledgered TEXT NOT NULL,
		PRIMARY KEY (repo, review, item_id))`,
	`CREATE TABLE aepgate_thread_mark (
		repo TEXT NOT NULL,
		number INTEGER NOT NULL,
		through_id BIGINT NOT NULL,
		saved_at TEXT NOT NULL,
		PRIMARY KEY (repo, number))`,
}

// Kept is one kept decision's row (protocol/ledger).
type Kept = ledger.Kept

// Keep stores k unless its item is kept already, and appends e to the
// ledger in the same transaction; it reports whether k was new.
func (db *DB) Keep(ctx context.Context, k Kept, e Entry, now time.Time) (bool, error) {
	var fresh bool
	err := db.InTx(ctx, func(tx Tx) error {
		var one int
		err := tx.QueryRow(ctx, `SELECT 1 FROM aepgate_kept WHERE repo = $1 AND review = $2 AND item_id = $3`, k.Repo, boolInt(k.Review), k.ItemID).Scan(&one)
		switch {
		case err == nil:
			return nil
		case !isNoRows(err):
			return err
		}
		seq, err := Append(ctx, tx, db.Dialect, e, now)
		if err != nil {
			return err
		}
		if err := db.SealHead(ctx, tx); err != nil {
			return err
		}
		fresh = true
		_, err = tx.Exec(ctx, `INSERT INTO aepgate_kept (repo, review, item_id, unit, item, body_sha256, kept_at, ledger_seq, tamper, tampered_by, tampered_at, tamper_ledgered)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, '', '', '', '')`,
			k.Repo, boolInt(k.Review), k.ItemID, k.Unit, string(k.Item), k.BodySHA256, now.UTC().Format(timeFormat), seq)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("keep decision %s/%d: %w", k.Repo, k.ItemID, err)
	}
	return fresh, nil
}

// KeptDecisions returns repo's kept decisions, oldest first.
func (db *DB) KeptDecisions(ctx context.Context, repo string) ([]Kept, error) {
	rows, err := db.read(ctx, `SELECT review, item_id, unit, item, body_sha256, kept_at, ledger_seq, tamper, tampered_by, tampered_at, tamper_ledgered
		FROM aepgate_kept WHERE repo = $1 ORDER BY kept_at, item_id`, repo)
	if err != nil {
		return nil, fmt.Errorf("kept decisions %s: %w", repo, err)
	}
	defer rows.Close()
	var out []Kept
	for rows.Next() {
		k := Kept{Repo: repo}
		var review int
		var item, keptAt, tamperedAt string
		if err := rows.Scan(&review, &k.ItemID, &k.Unit, &item, &k.BodySHA256, &keptAt, &k.LedgerSeq, &k.Tamper, &k.TamperedBy, &tamperedAt, &k.TamperLedgered); err != nil {
			return nil, fmt.Errorf("kept decisions %s: %w", repo, err)
		}
		k.Review, k.Item = review == 1, []byte(item)
		k.KeptAt, _ = time.Parse(timeFormat, keptAt)
		k.TamperedAt, _ = time.Parse(timeFormat, tamperedAt)
		out = append(out, k)
	}
	return out, rows.Err()
}

// MarkTampered records that GitHub reported the source of a kept comment
// edited or deleted (change), by whom; a deletion is never overwritten by a
// later edit report. It reports whether the item is kept.
func (db *DB) MarkTampered(ctx context.Context, repo string, commentID int64, change, by string, at time.Time) (bool, error) {
	var n int64
	err := db.InTx(ctx, func(tx Tx) error {
		var err error
		n, err = tx.Exec(ctx, `UPDATE aepgate_kept SET tamper = $1, tampered_by = $2, tampered_at = $3
			WHERE repo = $4 AND review = 0 AND item_id = $5 AND tamper <> 'deleted'`,
			change, by, at.UTC().Format(timeFormat), repo, commentID)
		if err != nil || n > 0 {
			return err
		}
		var one int
		switch err := tx.QueryRow(ctx, `SELECT 1 FROM aepgate_kept WHERE repo = $1 AND review = 0 AND item_id = $2`, repo, commentID).Scan(&one); {
		case err == nil:
			n = 1
		case !isNoRows(err):
			return err
		}
		return nil
	})
	if err != nil {
		return false, fmt.Errorf("mark kept decision %s/%d %s: %w", repo, commentID, change, err)
	}
	return n > 0, nil
}

// LedgerTamper appends e to the ledger once per change of a kept item: it
// does nothing when that change was ledgered already, and reports whether
// it wrote.
func (db *DB) LedgerTamper(ctx context.Context, repo string, review bool, id int64, change string, e Entry, now time.Time) (bool, error) {
	var wrote bool
	err := db.InTx(ctx, func(tx Tx) error {
		var done string
		err := tx.QueryRow(ctx, `SELECT tamper_ledgered FROM aepgate_kept WHERE repo = $1 AND review = $2 AND item_id = $3`, repo, boolInt(review), id).Scan(&done)
		if err != nil || done == change {
			if isNoRows(err) {
				return nil
			}
			return err
		}
		if _, err := Append(ctx, tx, db.Dialect, e, now); err != nil {
			return err
		}
		if err := db.SealHead(ctx, tx); err != nil {
			return err
		}
		wrote = true
		_, err = tx.Exec(ctx, `UPDATE aepgate_kept SET tamper_ledgered = $1 WHERE repo = $2 AND review = $3 AND item_id = $4`, change, repo, boolInt(review), id)
		return err
	})
	if err != nil {
		return false, fmt.Errorf("ledger tampering of %s/%d: %w", repo, id, err)
	}
	return wrote, nil
}

// ThreadMark is the newest comment ID up to which thread number of repo was
// read whole and its decisions kept (0: never).
func (db *DB) ThreadMark(ctx context.Context, repo string, number int) (int64, error) {
	rows, err := db.read(ctx, `SELECT through_id FROM aepgate_thread_mark WHERE repo = $1 AND number = $2`, repo, number)
	if err != nil {
		return 0, fmt.Errorf("thread mark %s#%d: %w", repo, number, err)
	}
	defer rows.Close()
	var id int64
	if rows.Next() {
		if err := rows.Scan(&id); err != nil {
			return 0, fmt.Errorf("thread mark %s#%d: %w", repo, number, err)
		}
	}
	return id, rows.Err()
}

// SetThreadMark raises thread number's mark to id (never lowers it).
func (db *DB) SetThreadMark(ctx context.Context, repo string, number int, id int64, now time.Time) error {
	err := db.InTx(ctx, func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO aepgate_thread_mark (repo, number, through_id, saved_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (repo, number) DO UPDATE SET through_id = excluded.through_id, saved_at = excluded.saved_at
			WHERE aepgate_thread_mark.through_id < excluded.through_id`,
			repo, number, id, now.UTC().Format(timeFormat))
		return err
	})
	if err != nil {
		return fmt.Errorf("set thread mark %s#%d: %w", repo, number, err)
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
