package store

import (
	"context"
	"testing"

	"github.com/aepgate/aepgate/internal/testkit/pgtest"
)

func TestPostgresLedgerAndDeliveries(t *testing.T) {
	url := pgtest.Start(t)
	ctx := context.Background()
	db, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for range 2 {
		if err := db.Migrate(ctx); err != nil {
			t.Fatal(err)
		}
	}
	var fresh []bool
	for range 2 {
		err := db.InTx(ctx, func(tx Tx) error {
			f, err := admitOne(ctx, tx, "g1")
			fresh = append(fresh, f)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if !fresh[0] || fresh[1] {
		t.Errorf("fresh = %v, want [true false]", fresh)
	}
	appendN(t, db, 5)
	if _, err := db.Pool.Exec(ctx, `UPDATE aepgate_ledger SET subject = 'x' WHERE seq = 4`); err != nil {
		t.Fatal(err)
	}
	res, err := db.VerifyLedger(ctx)
	if err != nil || res.BadSeq != 4 {
		t.Errorf("verify = %+v, %v; want row 4 bad", res, err)
	}
}
