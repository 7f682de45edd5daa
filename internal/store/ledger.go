package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/ledger"
)

// timeFormat is fixed-width so stored times sort as text.
const timeFormat = "2006-01-02T15:04:05.000000000Z"

// genesisHash is the previous hash of the ledger's first row.
var genesisHash = strings.Repeat("0", 64)

// ledgerLock is the PostgreSQL advisory lock key serialising ledger appends
// across replicas ("aepledgr").
const ledgerLock = 0x6165706c65646772

// Entry is one decision the App made (protocol/ledger).
type Entry = ledger.Entry

// Append adds e to the ledger inside tx, chained to the last row: the row's
// hash is the SHA-256 of its content and the previous row's hash.
func Append(ctx context.Context, tx Tx, dialect Dialect, e Entry, now time.Time) (int64, error) {
	body, err := json.Marshal(e.Body)
	if err != nil {
		return 0, fmt.Errorf("ledger: encode body: %w", err)
	}
	if dialect == Postgres {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(ledgerLock)); err != nil {
			return 0, fmt.Errorf("ledger: lock: %w", err)
		}
	}
	seq, prev := int64(1), genesisHash
	err = tx.QueryRow(ctx, `SELECT seq, hash FROM aepgate_ledger ORDER BY seq DESC LIMIT 1`).Scan(&seq, &prev)
	switch {
	case err == nil:
		seq++
	case isNoRows(err):
	default:
		return 0, fmt.Errorf("ledger: read last row: %w", err)
	}
	r := LedgerRow{Seq: seq, At: now.UTC().Format(timeFormat), Kind: e.Kind, DeliveryID: e.DeliveryID, Subject: e.Subject, Body: string(body), PrevHash: prev}
	r.Hash = r.ComputeHash()
	_, err = tx.Exec(ctx, `INSERT INTO aepgate_ledger (seq, at, kind, delivery_id, subject, body, prev_hash, hash)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, r.Seq, r.At, r.Kind, r.DeliveryID, r.Subject, r.Body, r.PrevHash, r.Hash)
	if err != nil {
		return 0, fmt.Errorf("ledger: append: %w", err)
	}
	return seq, nil
}

func isNoRows(err error) bool {
	return err != nil && strings.Contains(err.Error(), "no rows in result set")
}

// LedgerRow is one stored ledger row.
type LedgerRow struct {
	Seq        int64
	At         string
	Kind       string
	DeliveryID string
	Subject    string
	Body       string
	PrevHash   string
	Hash       string
}

// ComputeHash is the SHA-256 (hex) of the row's content and previous hash,
// fields length-prefixed so no two rows share an encoding.
func (r LedgerRow) ComputeHash() string {
	h := sha256.New()
	for _, f := range []string{strconv.FormatInt(r.Seq, 10), r.At, r.Kind, r.DeliveryID, r.Subject, r.Body, r.PrevHash} {
		fmt.Fprintf(h, "%d:%s\n", len(f), f)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// VerifyResult is the outcome of checking the ledger's chain.
type VerifyResult struct {
	// Rows is how many rows were checked.
	Rows int64
	// BadSeq is the first row that breaks the chain (0 when none).
	BadSeq int64
	// Problem says how it breaks.
	Problem string
	// Head is the hash of the last row that verified (genesis when none):
	// kept elsewhere, it shows later whether the newest rows were cut off
	// or the whole chain rewritten, which the chain alone cannot.
	Head string
}

// OK reports whether the chain is intact.
func (v VerifyResult) OK() bool { return v.BadSeq == 0 && v.Problem == "" }

// VerifyLedger walks the ledger in order and checks every row's sequence,
// previous hash and own hash.
func (db *DB) VerifyLedger(ctx context.Context) (VerifyResult, error) {
	return db.verifyLedger(ctx, LedgerRow.ComputeHash)
}

// verifyLedger is VerifyLedger with the content hash of a row given:
// hashOf(r) must equal the row's stored hash.
func (db *DB) verifyLedger(ctx context.Context, hashOf func(LedgerRow) string) (VerifyResult, error) {
	var res VerifyResult
	const q = `SELECT seq, at, kind, delivery_id, subject, body, prev_hash, hash FROM aepgate_ledger ORDER BY seq`
	rows, err := db.read(ctx, q)
	if err != nil {
		return res, fmt.Errorf("ledger verify: %w", err)
	}
	defer rows.Close()
	prev, want := genesisHash, int64(1)
	for rows.Next() {
		var r LedgerRow
		if err := rows.Scan(&r.Seq, &r.At, &r.Kind, &r.DeliveryID, &r.Subject, &r.Body, &r.PrevHash, &r.Hash); err != nil {
			return res, fmt.Errorf("ledger verify: %w", err)
		}
		res.Rows++
		if p := rowProblem(r, want, prev, hashOf); p != "" {
			res.BadSeq, res.Problem, res.Head = r.Seq, p, prev
			return res, nil
		}
		prev, want = r.Hash, r.Seq+1
	}
	if err := rows.Err(); err != nil {
		return res, fmt.Errorf("ledger verify: %w", err)
	}
	res.Head = prev
	return res, nil
}

// rowProblem says how r breaks the chain after prev, or "" when it holds.
func rowProblem(r LedgerRow, wantSeq int64, prev string, hashOf func(LedgerRow) string) string {
	switch {
	case r.Seq != wantSeq:
		return fmt.Sprintf("sequence jumps from %d to %d (rows missing)", wantSeq-1, r.Seq)
	case r.PrevHash != prev:
		return fmt.Sprintf("previous hash %s does not match row %d's hash %s", short(r.PrevHash), wantSeq-1, short(prev))
	case hashOf(r) != r.Hash:
		return fmt.Sprintf("content does not match its hash %s (row altered)", short(r.Hash))
	}
	return ""
}

func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// LedgerHasSubject reports whether any ledger row is about subject
// (indexed), e.g. whether the App already answered a comment.
func (db *DB) LedgerHasSubject(ctx context.Context, subject string) (bool, error) {
	rows, err := db.read(ctx, `SELECT 1 FROM aepgate_ledger WHERE subject = $1 LIMIT 1`, subject)
	if err != nil {
		return false, fmt.Errorf("ledger look-up: %w", err)
	}
	defer rows.Close()
	found := rows.Next()
	return found, rows.Err()
}
