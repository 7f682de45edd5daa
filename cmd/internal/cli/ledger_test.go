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

// TestLedgerVerifyRevocations: a head signed by a key the App's signed
// revocation list names is refused with the revocation's reason (the
// negative control: the same keys without the list accept it); a tampered
// list is refused, exit 1; --revocations without keys is bad usage.
func TestLedgerVerifyRevocations(t *testing.T) {
	url, _, db := sealedLedger(t, 2)
	dir := t.TempDir()
	cur := seededSigner(t, 12)
	both, _ := attest.Keyring{cur.Public(), db.HeadSigner.Public()}.JWKS()
	write(t, dir, "both.jwks", mustJSON(t, both))
	list, err := attest.SignRevocations(cur, attest.Revocations{{KeyID: db.HeadSigner.KeyID(), RevokedAt: "2026-12-01T09:30:00Z", Reason: "the database host was compromised"}})
	if err != nil {
		t.Fatal(err)
	}
	write(t, dir, "revocations.json", mustJSON(t, list))
	tampered := *list
	tampered.Payload = []byte(strings.Replace(string(list.Payload), "compromised", "fine", 1))
	write(t, dir, "tampered.json", mustJSON(t, &tampered))
	jwks, p := filepath.Join(dir, "both.jwks"), func(n string) string { return filepath.Join(dir, n) }
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     string
	}{
		{"revoked head signer", []string{"--jwks", jwks, "--revocations", p("revocations.json")}, 1, "revoked on 2026-12-01T09:30:00Z: the database host was compromised"},
		{"control: no list", []string{"--jwks", jwks}, 0, "signed head: row 2"},
		{"a tampered list", []string{"--jwks", jwks, "--revocations", p("tampered.json")}, 1, "the revocation list is refused: " + attest.TokenBadSignature},
		{"a list without keys", []string{"--revocations", p("revocations.json")}, 2, "--revocations needs the keys"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, append([]string{"ledger", "verify", "--database", url}, tt.args...)...)
			if code != tt.wantCode || !strings.Contains(out+errOut, tt.want) {
				t.Errorf("exit %d, want %d and %q:\n%s%s", code, tt.wantCode, tt.want, out, errOut)
			}
		})
	}
}
