package store

import (
	"context"
	"encoding/json"
	"fmt"
)

// ExportRow is one ledger row as `aepgate ledger export` writes it.
type ExportRow struct {
	Type       string          `json:"type"`
	Seq        int64           `json:"seq"`
	At         string          `json:"at"`
	Kind       string          `json:"kind"`
	DeliveryID string          `json:"delivery_id"`
	Subject    string          `json:"subject"`
	Body       json.RawMessage `json:"body"`
	PrevHash   string          `json:"prev_hash"`
	Hash       string          `json:"hash"`
}

// ExportHead is one signed head as `aepgate ledger export` writes it.
type ExportHead struct {
	Type     string          `json:"type"`
	Seq      int64           `json:"seq"`
	Hash     string          `json:"hash"`
	Envelope json.RawMessage `json:"envelope"`
}

// ExportLedger hands every ledger row (type "row"), in order, then every
// signed head (type "head"), in order, to emit: what an archive needs to
// recompute the chain and check its signed heads without the database.
func (db *DB) ExportLedger(ctx context.Context, emit func(v any) error) error {
	rows, err := db.read(ctx, `SELECT seq, at, kind, delivery_id, subject, body, prev_hash, hash FROM aepgate_ledger ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("ledger export: %w", err)
	}
	for rows.Next() {
		r := ExportRow{Type: "row"}
		var body string
		if err := rows.Scan(&r.Seq, &r.At, &r.Kind, &r.DeliveryID, &r.Subject, &body, &r.PrevHash, &r.Hash); err != nil {
			rows.Close()
			return fmt.Errorf("ledger export: %w", err)
		}
		r.Body = json.RawMessage(body)
		if !json.Valid(r.Body) {
			r.Body, _ = json.Marshal(body) // a damaged body is exported as the text it holds
		}
		if err := emit(r); err != nil {
			rows.Close()
			return err
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("ledger export: %w", err)
	}
	return db.exportHeads(ctx, emit)
}

func (db *DB) exportHeads(ctx context.Context, emit func(v any) error) error {
	rows, err := db.read(ctx, `SELECT seq, hash, envelope FROM aepgate_ledger_head ORDER BY seq`)
	if err != nil {
		return fmt.Errorf("ledger export: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		h := ExportHead{Type: "head"}
		var env string
		if err := rows.Scan(&h.Seq, &h.Hash, &env); err != nil {
			return fmt.Errorf("ledger export: %w", err)
		}
		h.Envelope = json.RawMessage(env)
		if err := emit(h); err != nil {
			return err
		}
	}
	return rows.Err()
}
