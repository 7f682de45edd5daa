package cli

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// startServe runs serve with args until its log shows want or it ends;
// it returns the exit code (-1 while it still runs) and the log.
func startServe(t *testing.T, want string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	var errb lockedBuffer
	done := make(chan int, 1)
	go func() { done <- runFull(ctx, args, strings.NewReader(""), &strings.Builder{}, &errb) }()
	deadline := time.After(20 * time.Second)
	for {
		select {
		case code := <-done:
			return code, errb.String()
		case <-deadline:
			t.Fatalf("serve neither logged %q nor ended:\n%s", want, errb.String())
		case <-time.After(20 * time.Millisecond):
			if strings.Contains(errb.String(), want) {
				cancel()
				return <-done, errb.String()
			}
		}
	}
}

// TestServeChecksItsCredentialsAtStart: a key that is not the App's, or a
// wrong App ID, ends serve with exit 1 and the reason within 5 s; the
// App's own key starts it, and the start-up line carries the version and
// the App's slug.
func TestServeChecksItsCredentialsAtStart(t *testing.T) {
	fake := ghfake.New(t)
	dir := t.TempDir()
	keyFile := writeKey(t, dir)
	pemBytes, _ := os.ReadFile(keyFile)
	block, _ := pem.Decode(pemBytes)
	key, _ := x509.ParsePKCS1PrivateKey(block.Bytes)
	app := fake.App(4242, key)
	other, _ := rsa.GenerateKey(rand.Reader, 1024)
	otherFile := filepath.Join(dir, "other.pem")
	os.WriteFile(otherFile, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(other)}), 0o600)
	os.WriteFile(filepath.Join(dir, "secret"), []byte("s3cret\n"), 0o600)
	for _, tc := range []struct {
		name, appID, key string
		wantCode         int
		want             string
	}{
		{"the App's key", "4242", keyFile, 0, `"app_slug":"` + app.Slug + `"`},
		{"another key", "4242", otherFile, 1, "GitHub refused the credentials of App 4242"},
		{"wrong App ID", "4243", keyFile, 1, "GitHub refused the credentials of App 4243"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []string{"serve", "--app-id", tc.appID, "--private-key-file", tc.key, "--webhook-secret-file", filepath.Join(dir, "secret"),
				"--database", "sqlite:" + filepath.Join(t.TempDir(), "db"), "--github-url", fake.URL(), "--addr", "127.0.0.1:0"}
			start := time.Now()
			code, log := startServe(t, "aepgate serving", args...)
			if code != tc.wantCode || !strings.Contains(log, tc.want) {
				t.Fatalf("exit %d, log:\n%s\nwant exit %d and %q", code, log, tc.wantCode, tc.want)
			}
			if took := time.Since(start); tc.wantCode != 0 && took > 5*time.Second {
				t.Errorf("refused after %s, want within 5s", took)
			}
			if tc.wantCode == 0 && !strings.Contains(log, `"version":"`) {
				t.Errorf("start-up line without the version:\n%s", log)
			}
		})
	}
}

// TestServeTakesSecretsFromVariables: with no key or secret files, the
// key, the webhook secret and the client secret come from
// AEPGATE_PRIVATE_KEY, AEPGATE_WEBHOOK_SECRET and AEPGATE_CLIENT_SECRET.
func TestServeTakesSecretsFromVariables(t *testing.T) {
	fake := ghfake.New(t)
	dir := t.TempDir()
	pemBytes, _ := os.ReadFile(writeKey(t, dir))
	block, _ := pem.Decode(pemBytes)
	key, _ := x509.ParsePKCS1PrivateKey(block.Bytes)
	app := fake.App(77, key)
	t.Setenv("AEPGATE_PRIVATE_KEY", string(pemBytes))
	t.Setenv("AEPGATE_WEBHOOK_SECRET", "s3cret")
	t.Setenv("AEPGATE_CLIENT_SECRET", app.ClientSecret())
	code, log := startServe(t, "aepgate serving", "serve", "--app-id", strconv.FormatInt(app.ID, 10), "--github-url", fake.URL(),
		"--client-id", app.ClientID, "--public-url", "https://aepgate.example.com",
		"--database", "sqlite:"+filepath.Join(dir, "db"), "--addr", "127.0.0.1:0")
	if code != 0 || !strings.Contains(log, `"app_slug":"`+app.Slug+`"`) {
		t.Fatalf("exit %d, log:\n%s", code, log)
	}
}

// TestServeReadsTheRegisteredEnvFile: the env file app register writes is
// all serve needs: it starts as the registered App.
func TestServeReadsTheRegisteredEnvFile(t *testing.T) {
	fake := ghfake.New(t)
	fake.SignIn("octocat")
	r := startRegister(t, fake, "--name", "env-aepgate")
	if status, body := pressButton(t, r.local); status != 200 {
		t.Fatalf("callback %d %s", status, body)
	}
	if code := r.wait(t); code != 0 {
		t.Fatalf("register exit %d", code)
	}
	code, log := startServe(t, "aepgate serving", "serve", "--env-file", filepath.Join(r.dir, envFileName),
		"--database", "sqlite:"+filepath.Join(r.dir, "db"), "--addr", "127.0.0.1:0")
	if code != 0 || !strings.Contains(log, `"app_slug":"env-aepgate"`) {
		t.Fatalf("exit %d, log:\n%s", code, log)
	}
}

// TestServeRetriesAnUnreachablePostgres: PostgreSQL that does not answer
// is tried again with backoff, then serve exits 3 (the network did not
// answer) once --database-wait has passed.
func TestServeRetriesAnUnreachablePostgres(t *testing.T) {
	dir := t.TempDir()
	args := serveFiles(t, dir, 0o600, 0o600)
	args = append(args, "--database", "postgres://aepgate@127.0.0.1:1/aepgate?connect_timeout=1", "--database-wait", "2500ms", "--addr", "127.0.0.1:0")
	start := time.Now()
	code, log := startServe(t, "never logged", args...)
	if code != exitUnreachable || strings.Count(log, "database unreachable; retrying") < 2 || !strings.Contains(log, "did not open within --database-wait 2.5s") {
		t.Fatalf("exit %d after %s, log:\n%s", code, time.Since(start), log)
	}
	if !strings.Contains(log, `"retry_in_seconds":1`) {
		t.Errorf("retry delay not logged in seconds:\n%s", log)
	}
}
