package app

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app/redeliver"
)

// checksOnNewHead is how many check runs the App writes on a new head of a
// pull request whose config is valid and lists no auditors (the tests'
// default): aepgate/work-unit, /config (its warning), /audit, /gates and
// /merge.
const checksOnNewHead = 5

const (
	testAppID  = 4242
	testSecret = "e2e-secret"
)

var (
	keyOnce sync.Once
	testKey *rsa.PrivateKey
)

// appKey is one RSA key shared by the package's tests (generation is slow).
func appKey(t testing.TB) *rsa.PrivateKey {
	keyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		testKey = k
	})
	return testKey
}

// testOptions are fast settings for a test App against w's GitHub (or
// none, when w is nil).
func testOptions(t testing.TB, w *world, database string) Options {
	if database == "" {
		database = "sqlite:" + filepath.Join(t.TempDir(), "aepgate.db")
	}
	url := ""
	if w != nil {
		url = w.f.URL()
	}
	return Options{
		Database: database, AppID: testAppID, PrivateKey: appKey(t), WebhookSecrets: [][]byte{[]byte(testSecret)},
		GitHubURL: url, WritePause: -1, RetryBase: 20 * time.Millisecond, PollInterval: 20 * time.Millisecond, FanoutWindow: 50 * time.Millisecond,
		CoalesceDelay: 20 * time.Millisecond,
		JobTimeout:    5 * time.Second, RescueAfter: 6 * time.Second, ShutdownGrace: 5 * time.Second,
		// Board updates asked by evaluations wait past the end of a test:
		// the tests that count an evaluation's API calls do not count them
		// (a sweep's run at once). The board's own tests shorten it
		// (board_e2e_test.go).
		BoardDelay: time.Hour,
		Logger:     testLogger(t),
		// Off: it reads GitHub's delivery log at start, which the tests
		// counting API calls do not count; redeliver_e2e_test.go turns it on.
		Redeliver: redeliver.Config{Every: -1},
	}
}

func testLogger(testing.TB) *slog.Logger {
	if os.Getenv("AEPGATE_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// startApp runs an App in-process and returns its base URL; it stops when
// the test ends.
func startApp(t testing.TB, o Options) (*App, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return startAppOn(t, o, ln)
}

// startAppOn is startApp on a listener the test opened (to know the App's
// address before it starts).
func startAppOn(t testing.TB, o Options, ln net.Listener) (*App, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a, err := New(ctx, o)
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	seedClosures(t, a, o)
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("app run: %v", err)
		}
		a.Close()
	})
	return a, "http://" + ln.Addr().String()
}

func sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// deliver posts a signed delivery and returns the status.
func deliver(t testing.TB, base, event, id string, body []byte) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/webhook", bytes.NewReader(body))
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", id)
	req.Header.Set("X-Hub-Signature-256", sign(testSecret, body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("deliver %s: %v", id, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// waitFor polls cond until it holds or timeout passes.
func waitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	if !waitUntil(timeout, cond) {
		t.Fatalf("timed out after %v waiting for %s", timeout, what)
	}
}

// waitUntil polls cond until it holds (true) or timeout passes (false).
func waitUntil(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

func contract(risk, class string, deps ...int) string {
	d := ""
	if len(deps) > 0 {
		d = "depends_on: ["
		for i, n := range deps {
			if i > 0 {
				d += ", "
			}
			d += fmt.Sprint(n)
		}
		d += "]\n"
	}
	return "Story text.\n\n```yaml\ngoal: ship it\nacceptance: [it works]\nnon_goals: [everything else]\nrisk: " + risk + "\nclass: " + class + "\n" + d + "```\n"
}
