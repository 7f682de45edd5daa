package cli

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/store"
)

func writeKey(t *testing.T, dir string) string {
	k, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "key.pem")
	os.WriteFile(p, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}), 0o600)
	return p
}

func TestServeStartupErrorsNameTheFlag(t *testing.T) {
	dir := t.TempDir()
	key := writeKey(t, dir)
	secret := filepath.Join(dir, "secret")
	os.WriteFile(secret, []byte("s3cret\n"), 0o600)
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n"), 0o600)
	notKey := filepath.Join(dir, "notkey")
	os.WriteFile(notKey, []byte("hello"), 0o600)
	tests := []struct {
		name    string
		env     map[string]string
		args    []string
		wantErr string
	}{
		{"no app id", nil, []string{"serve"}, "--app-id (AEPGATE_APP_ID) is required"},
		{"no key", nil, []string{"serve", "--app-id", "1"}, "--private-key-file is required"},
		{"missing key", nil, []string{"serve", "--app-id", "1", "--private-key-file", filepath.Join(dir, "nope")}, "--private-key-file: " + filepath.Join(dir, "nope") + ": no such file"},
		{"not a key", nil, []string{"serve", "--app-id", "1", "--private-key-file", notKey}, "--private-key-file " + notKey + ": not an RSA private key"},
		{"no secret", nil, []string{"serve", "--app-id", "1", "--private-key-file", key}, "--webhook-secret-file is required"},
		{"empty secret", nil, []string{"serve", "--app-id", "1", "--private-key-file", key, "--webhook-secret-file", empty}, "--webhook-secret-file " + empty + ": the file is empty"},
		{"missing previous secret", nil, []string{"serve", "--app-id", "1", "--private-key-file", key, "--webhook-secret-file", secret, "--previous-webhook-secret-file", filepath.Join(dir, "old")}, "--previous-webhook-secret-file: " + filepath.Join(dir, "old") + ": no such file"},
		{"bad database", nil, []string{"serve", "--app-id", "1", "--database", "mysql://x"}, `--database "mysql://x": use sqlite:PATH or postgres://`},
		{"bad database keeps the password out", nil, []string{"serve", "--app-id", "1", "--database", "postgress://u:hunter2@h/db"}, `--database "postgress://u:***@h/db"`},
		{"bad log format", nil, []string{"serve", "--app-id", "1", "--private-key-file", key, "--webhook-secret-file", secret, "--log-format", "xml"}, `--log-format "xml": use json or text`},
		{"env app id", map[string]string{"AEPGATE_APP_ID": "7"}, []string{"serve"}, "--private-key-file is required"},
		{"bad env", map[string]string{"AEPGATE_APP_ID": "seven"}, []string{"serve"}, `AEPGATE_APP_ID="seven"`},
		{"flag beats env", map[string]string{"AEPGATE_APP_ID": "7", "AEPGATE_PRIVATE_KEY_FILE": key}, []string{"serve", "--private-key-file", filepath.Join(dir, "other")}, "--private-key-file: " + filepath.Join(dir, "other") + ": no such file"},
		{"key is a device", nil, []string{"serve", "--app-id", "1", "--private-key-file", "/dev/zero"}, "--private-key-file: /dev/zero: not a regular file"},
		{"rescue-after under River's minimum", nil, []string{"serve", "--app-id", "1", "--private-key-file", key, "--webhook-secret-file", secret, "--rescue-after", "90s"}, "--rescue-after 1m30s: must be at least 2m0s"},
		{"bad trusted proxy", nil, []string{"serve", "--app-id", "1", "--trusted-proxies", "10.0.0.0/8,proxy.internal"}, `--trusted-proxies "proxy.internal": not a CIDR range or an IP address`},
		{"bad trusted proxy from env", map[string]string{"AEPGATE_TRUSTED_PROXIES": "10.0.0.0/33"}, []string{"serve", "--app-id", "1"}, `--trusted-proxies "10.0.0.0/33"`},
		{"bad GitHub hook address", nil, []string{"serve", "--app-id", "1", "--github-hook-addresses", "ghes.internal"}, `--github-hook-addresses "ghes.internal": not a CIDR range or an IP address`},
		{"too few connections", nil, []string{"serve", "--app-id", "1", "--max-connections", "4"}, "--max-connections 4: must be at least 16"},
		{"unknown flag", nil, []string{"serve", "--nope"}, "unknown flag: --nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			code, _, errs := runCLI(t, tt.args...)
			if code != 2 || !strings.Contains(errs, tt.wantErr) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tt.wantErr)
			}
		})
	}
}

func TestServeHelpExplainsEveryFlag(t *testing.T) {
	code, out, _ := runCLI(t, "serve", "--help")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, f := range []string{"--addr", "--database", "--app-id", "--private-key-file", "--webhook-secret-file", "--previous-webhook-secret-file", "--github-url", "--log-format", "--trusted-proxies", "--github-hook-addresses", "--max-connections", "X-Forwarded-For", "AEPGATE_"} {
		if !strings.Contains(out, f) {
			t.Errorf("help lacks %s", f)
		}
	}
}

func TestLedgerVerify(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "a.db")
	db, err := store.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		db.InTx(ctx, func(tx store.Tx) error {
			_, err := store.Append(ctx, tx, db.Dialect, store.Entry{Kind: "k", Subject: "s", Body: i}, time.Now())
			return err
		})
	}
	var head string
	if err := db.SQL.QueryRow(`SELECT hash FROM aepgate_ledger WHERE seq = 3`).Scan(&head); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "ledger", "verify", "--database", url)
	if code != 0 || out != "ledger intact: 3 rows, head "+head+"\n" {
		t.Errorf("intact: exit %d, %q", code, out)
	}
	db.SQL.Exec(`UPDATE aepgate_ledger SET body = '9' WHERE seq = 2`)
	db.Close()
	code, out, _ = runCLI(t, "ledger", "verify", "--database", url)
	if code != 1 || !strings.Contains(out, "ledger broken at row 2") {
		t.Errorf("tampered: exit %d, %q", code, out)
	}
	code, _, errs := runCLI(t, "ledger", "verify", "--database", "sqlite:"+filepath.Join(dir, "absent.db"))
	if code != 2 || !strings.Contains(errs, "no database at") {
		t.Errorf("absent: exit %d, %q", code, errs)
	}
	os.WriteFile(filepath.Join(dir, "empty.db"), nil, 0o600)
	code, _, errs = runCLI(t, "ledger", "verify", "--database", "sqlite:"+filepath.Join(dir, "empty.db"))
	if code != 2 || !strings.Contains(errs, "ledger verify") {
		t.Errorf("no ledger: exit %d, %q", code, errs)
	}
}
