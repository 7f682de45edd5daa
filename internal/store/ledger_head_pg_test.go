package store

import (
	"context"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/pgtest"
	"github.com/aepgate/aepgate/protocol/attest"
)

// TestPostgresSignedHead: heads are sealed and checked on PostgreSQL too;
// a consistent rewrite of the chain is caught by the signed head, not by
// the chain (the negative control).
func TestPostgresSignedHead(t *testing.T) {
	url := pgtest.Start(t)
	ctx := context.Background()
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	db.HeadSigner = headSigner(t, 1)
	appendSealed(t, db, 3)
	ring := attest.Keyring{db.HeadSigner.Public()}
	chain, err := db.VerifyLedger(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if res, err := db.VerifyHeads(ctx, chain, ring); err != nil || res.Problem != "" || res.Head.Seq != 3 {
		t.Fatalf("intact: %+v, %v", res, err)
	}
	// Rewrite row 3 (the newest) consistently: a new body and its hash.
	r := LedgerRow{Seq: 3}
	if err := db.Pool.QueryRow(ctx, `SELECT at, kind, delivery_id, subject, prev_hash FROM aepgate_ledger WHERE seq = 3`).Scan(&r.At, &r.Kind, &r.DeliveryID, &r.Subject, &r.PrevHash); err != nil {
		t.Fatal(err)
	}
	r.Body = `{"i":999}`
	if _, err := db.Pool.Exec(ctx, `UPDATE aepgate_ledger SET body = $1, hash = $2 WHERE seq = 3`, r.Body, r.ComputeHash()); err != nil {
		t.Fatal(err)
	}
	chain, err = db.VerifyLedger(ctx)
	if err != nil || !chain.OK() {
		t.Fatalf("negative control: the chain alone should not see a consistent rewrite: %+v, %v", chain, err)
	}
	res, err := db.VerifyHeads(ctx, chain, ring)
	if err != nil || !strings.Contains(res.Problem, "chain rewritten") {
		t.Errorf("rewritten: %+v, %v; want the signed head to catch it", res, err)
	}
}
