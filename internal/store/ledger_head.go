package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/aepgate/aepgate/protocol/attest"
)

// ledgerHeadTables hold the signed ledger heads: one row per sealed head,
// its sequence number and hash, and the DSSE envelope signing them.
var ledgerHeadTables = []string{
	`CREATE TABLE aepgate_ledger_head (
		seq BIGINT PRIMARY KEY,
		hash TEXT NOT NULL,
		envelope TEXT NOT NULL)`,
}

// SealHead signs the ledger's newest row inside tx, after an append batch,
// and stores the signed head. Without a HeadSigner it does nothing; a head
// already sealed is kept.
func (db *DB) SealHead(ctx context.Context, tx Tx) error {
	if db.HeadSigner == nil {
		return nil
	}
	var h attest.Head
	if err := tx.QueryRow(ctx, `SELECT seq, hash FROM aepgate_ledger ORDER BY seq DESC LIMIT 1`).Scan(&h.Seq, &h.Hash); err != nil {
		if isNoRows(err) {
			return nil
		}
		return fmt.Errorf("ledger head: %w", err)
	}
	env, err := attest.SignHead(db.HeadSigner, h)
	if err != nil {
		return err
	}
	raw, err := json.Marshal(env)
	if err != nil {
		return fmt.Errorf("ledger head: %w", err)
	}
	_, err = tx.Exec(ctx, `INSERT INTO aepgate_ledger_head (seq, hash, envelope) VALUES ($1, $2, $3) ON CONFLICT (seq) DO NOTHING`, h.Seq, h.Hash, string(raw))
	if err != nil {
		return fmt.Errorf("ledger head: %w", err)
	}
	return nil
}

// SignedHead is one stored signed head.
type SignedHead struct {
	Seq      int64
	Hash     string
	Envelope string
}

// HeadResult is what VerifyHeads found: the newest signed head, who
// signed it, and how many rows came after it (not yet sealed).
type HeadResult struct {
	Head     attest.Head
	KeyID    string
	Unsealed int64
	// Problem says why the ledger fails against its signed head ("" when
	// it holds).
	Problem string
}

// VerifyHeads checks the ledger against its newest signed head, given the
// chain's own verification chain (which must be intact): the head must be
// signed by a key of ring that is not revoked, and the row it names must
// exist with that hash. As the chain links every row to the one before, a
// chain rewritten by whoever holds the database, even consistently, or cut
// short of the signed row is caught.
func (db *DB) VerifyHeads(ctx context.Context, chain VerifyResult, ring attest.Keyring) (HeadResult, error) {
	var res HeadResult
	var h SignedHead
	err := db.one(ctx, `SELECT seq, hash, envelope FROM aepgate_ledger_head ORDER BY seq DESC LIMIT 1`, nil, &h.Seq, &h.Hash, &h.Envelope)
	switch {
	case isNoRows(err) && chain.Rows == 0:
		return res, nil
	case isNoRows(err):
		res.Problem = fmt.Sprintf("no signed head: %d rows that no key vouches for", chain.Rows)
		return res, nil
	case err != nil:
		return res, fmt.Errorf("ledger heads: %w", err)
	}
	head, kid, err := attest.VerifyHead([]byte(h.Envelope), ring)
	var r *attest.Refused
	if errors.As(err, &r) {
		res.Problem = fmt.Sprintf("signed head at row %d refused: %s", h.Seq, r)
		return res, nil
	}
	if err != nil {
		return res, err
	}
	res.Head, res.KeyID = head, kid
	res.Problem = headProblem(head, h, chain, db.rowHash(ctx, head.Seq))
	if res.Problem == "" {
		res.Unsealed = chain.Rows - head.Seq
	}
	return res, nil
}

// headProblem compares the signed head with its stored row and with the
// ledger's row of that sequence number (hash "" when there is none).
func headProblem(head attest.Head, stored SignedHead, chain VerifyResult, hash string) string {
	switch {
	case head.Seq != stored.Seq || head.Hash != stored.Hash:
		return fmt.Sprintf("the head stored at row %d is not the one its envelope signs (row %d)", stored.Seq, head.Seq)
	case !chain.OK():
		return "the chain is broken: " + chain.Problem
	case hash == "":
		return fmt.Sprintf("rows cut off: the signed head names row %d, the ledger has %d rows", head.Seq, chain.Rows)
	case hash != head.Hash:
		return fmt.Sprintf("chain rewritten: row %d's hash %s is not the signed head's %s", head.Seq, short(hash), short(head.Hash))
	}
	return ""
}

// rowHash is the stored hash of ledger row seq, or "" when there is none
// or it cannot be read.
func (db *DB) rowHash(ctx context.Context, seq int64) string {
	var hash string
	if err := db.one(ctx, `SELECT hash FROM aepgate_ledger WHERE seq = $1`, []any{seq}, &hash); err != nil {
		return ""
	}
	return hash
}

// one reads the first row of q into dest; no row is sql.ErrNoRows.
func (db *DB) one(ctx context.Context, q string, args []any, dest ...any) error {
	rows, err := db.read(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	return rows.Scan(dest...)
}
