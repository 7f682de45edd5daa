package store

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/protocol/attest"
)

func headSigner(t *testing.T, seed byte) *attest.Signer {
	t.Helper()
	s, err := attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{seed}, ed25519.SeedSize)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// appendSealed appends n rows, each batch sealed as the App's writer does.
func appendSealed(t *testing.T, db *DB, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		err := db.InTx(ctx, func(tx Tx) error {
			if _, err := Append(ctx, tx, db.Dialect, Entry{Kind: "k", DeliveryID: "d", Subject: "s", Body: map[string]int{"i": i}}, time.Now()); err != nil {
				return err
			}
			return db.SealHead(ctx, tx)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
}

// rewriteChain alters row seq's body and recomputes every hash after it,
// as whoever holds the database can: the chain stays consistent.
func rewriteChain(t *testing.T, db *DB, seq int64) {
	t.Helper()
	rows, err := db.SQL.Query(`SELECT seq, at, kind, delivery_id, subject, body, prev_hash, hash FROM aepgate_ledger ORDER BY seq`)
	if err != nil {
		t.Fatal(err)
	}
	var all []LedgerRow
	for rows.Next() {
		var r LedgerRow
		if err := rows.Scan(&r.Seq, &r.At, &r.Kind, &r.DeliveryID, &r.Subject, &r.Body, &r.PrevHash, &r.Hash); err != nil {
			t.Fatal(err)
		}
		all = append(all, r)
	}
	rows.Close()
	prev := genesisHash
	for _, r := range all {
		if r.Seq == seq {
			r.Body = `{"i":999}`
		}
		r.PrevHash = prev
		r.Hash = r.ComputeHash()
		prev = r.Hash
		if _, err := db.SQL.Exec(`UPDATE aepgate_ledger SET body = $1, prev_hash = $2, hash = $3 WHERE seq = $4`, r.Body, r.PrevHash, r.Hash, r.Seq); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSignedHeadCatchesRewrites: whoever holds the database can rewrite
// the chain consistently or cut it short, which the chain alone (the
// negative control: VerifyLedger without the key) does not see; the
// signed head does. A head forged with another key or signed by a revoked
// one is refused.
func TestSignedHeadCatchesRewrites(t *testing.T) {
	key, stranger := headSigner(t, 1), headSigner(t, 2)
	revokedKey := attest.Keyring{key.Public()}.Revoke(attest.Revocations{{KeyID: key.KeyID(), RevokedAt: "2026-12-01T00:00:00Z", Reason: "lost"}})[0]
	tests := []struct {
		name    string
		tamper  func(t *testing.T, db *DB)
		ring    attest.Keyring
		problem string
	}{
		{"intact", func(*testing.T, *DB) {}, attest.Keyring{key.Public()}, ""},
		{"chain rewritten consistently", func(t *testing.T, db *DB) { rewriteChain(t, db, 2) }, attest.Keyring{key.Public()}, "chain rewritten"},
		{"newest rows cut off", func(t *testing.T, db *DB) { exec(t, db, `DELETE FROM aepgate_ledger WHERE seq > 2`) }, attest.Keyring{key.Public()}, "rows cut off"},
		{"signed heads deleted", func(t *testing.T, db *DB) { exec(t, db, `DELETE FROM aepgate_ledger_head`) }, attest.Keyring{key.Public()}, "no signed head"},
		{"head re-signed with another key", func(t *testing.T, db *DB) {
			rewriteChain(t, db, 2)
			db.HeadSigner = stranger
			exec(t, db, `DELETE FROM aepgate_ledger_head`)
			if err := db.InTx(context.Background(), func(tx Tx) error { return db.SealHead(context.Background(), tx) }); err != nil {
				t.Fatal(err)
			}
		}, attest.Keyring{key.Public()}, attest.TokenUnknownKey},
		{"head signed by a revoked key", func(*testing.T, *DB) {}, attest.Keyring{revokedKey}, attest.TokenRevokedKey},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db := openTemp(t)
			db.HeadSigner = key
			appendSealed(t, db, 4)
			tt.tamper(t, db)
			ctx := context.Background()
			chain, err := db.VerifyLedger(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !chain.OK() {
				t.Fatalf("negative control: the chain alone should not see this; got %+v", chain)
			}
			res, err := db.VerifyHeads(ctx, chain, tt.ring)
			if err != nil {
				t.Fatal(err)
			}
			if tt.problem == "" {
				if res.Problem != "" || res.Head.Seq != 4 || res.KeyID != key.KeyID() || res.Unsealed != 0 {
					t.Errorf("intact ledger: %+v", res)
				}
				return
			}
			if !strings.Contains(res.Problem, tt.problem) {
				t.Errorf("problem %q, want it to say %q", res.Problem, tt.problem)
			}
		})
	}
}

func exec(t *testing.T, db *DB, q string) {
	t.Helper()
	if _, err := db.SQL.Exec(q); err != nil {
		t.Fatal(err)
	}
}

func TestUnsealedRowsAndExport(t *testing.T) {
	db := openTemp(t)
	db.HeadSigner = headSigner(t, 1)
	appendSealed(t, db, 2)
	appendN(t, db, 1) // appended without sealing
	ctx := context.Background()
	chain, _ := db.VerifyLedger(ctx)
	res, err := db.VerifyHeads(ctx, chain, attest.Keyring{db.HeadSigner.Public()})
	if err != nil || res.Problem != "" || res.Unsealed != 1 || res.Head.Seq != 2 {
		t.Fatalf("VerifyHeads = %+v, %v; want head 2 and 1 unsealed row", res, err)
	}
	var lines []string
	err = db.ExportLedger(ctx, func(v any) error {
		b, err := json.Marshal(v)
		lines = append(lines, string(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 5 || !strings.HasPrefix(lines[0], `{"type":"row","seq":1,`) || !strings.HasPrefix(lines[3], `{"type":"head","seq":1,`) {
		t.Fatalf("export:\n%s", strings.Join(lines, "\n"))
	}
	var h ExportHead
	if err := json.Unmarshal([]byte(lines[4]), &h); err != nil {
		t.Fatal(err)
	}
	if _, _, err := attest.VerifyHead(h.Envelope, attest.Keyring{db.HeadSigner.Public()}); err != nil {
		t.Errorf("exported head does not verify: %v", err)
	}
}
