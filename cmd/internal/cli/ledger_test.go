package cli

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/signkey"
	"github.com/aepgate/aepgate/internal/store"
	"github.com/aepgate/aepgate/protocol/attest"
)

// sealedLedger is a database of n ledger rows, each batch's head signed by
// a key, and that key's PEM public key file.
func sealedLedger(t *testing.T, n int) (url, pubFile string, db *store.DB) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	url = "sqlite:" + filepath.Join(dir, "a.db")
	db, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	if db.HeadSigner, err = attest.NewSigner(ed25519.NewKeyFromSeed(bytes.Repeat([]byte{3}, ed25519.SeedSize))); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		err := db.InTx(ctx, func(tx store.Tx) error {
			if _, err := store.Append(ctx, tx, db.Dialect, store.Entry{Kind: "k", Subject: "s", Body: i}, time.Now()); err != nil {
				return err
			}
			return db.SealHead(ctx, tx)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	pem, err := signkey.PublicPEM(db.HeadSigner.Public())
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "key.pub", pem)
	return url, filepath.Join(dir, "key.pub"), db
}

// TestLedgerVerifySignedHead: --key checks the newest signed head; with
// the signed heads deleted it refuses, while the chain alone (the negative
// control, verify without --key) still calls the ledger intact.
func TestLedgerVerifySignedHead(t *testing.T) {
	url, pub, db := sealedLedger(t, 3)
	code, out, errOut := runCLI(t, "ledger", "verify", "--database", url, "--key", pub)
	if code != 0 || !strings.Contains(out, "signed head: row 3") || !strings.Contains(out, db.HeadSigner.KeyID()) {
		t.Fatalf("intact: exit %d, %q %s", code, out, errOut)
	}
	if _, err := db.SQL.Exec(`DELETE FROM aepgate_ledger_head`); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "ledger", "verify", "--database", url, "--key", pub)
	if code != 1 || !strings.Contains(out, "signed head refused: no signed head") {
		t.Errorf("heads deleted: exit %d, %q", code, out)
	}
	code, out, _ = runCLI(t, "ledger", "verify", "--database", url)
	if code != 0 || !strings.Contains(out, "ledger intact: 3 rows") {
		t.Errorf("negative control, without --key: exit %d, %q", code, out)
	}
}

func TestLedgerExport(t *testing.T) {
	url, _, _ := sealedLedger(t, 2)
	code, out, errOut := runCLI(t, "ledger", "export", "--database", url)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) != 4 || !strings.HasPrefix(lines[0], `{"type":"row","seq":1,`) || !strings.HasPrefix(lines[3], `{"type":"head","seq":2,`) {
		t.Fatalf("export: exit %d %s\n%s", code, errOut, out)
	}
}
