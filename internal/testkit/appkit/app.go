package appkit

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

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/redeliver"
	"github.com/aepgate/aepgate/internal/gh"
)

// ChecksOnNewHead is how many check runs the App writes on a new head of a
// pull request whose config is valid and lists no auditors (the tests'
// default): aepgate/work-unit, /config (its warning), /audit, /gates and
// /merge.
const ChecksOnNewHead = 5

const (
	// AppID is the test App's ID on the fake GitHub.
	AppID = 4242
	// Secret is the test App's webhook secret.
	Secret = "e2e-secret"
)

var (
	keyOnce sync.Once
	testKey *rsa.PrivateKey
)

// Key is one RSA key shared by a test binary's tests (generation is slow).
func Key(testing.TB) *rsa.PrivateKey {
	keyOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		testKey = k
	})
	return testKey
}

// Options are fast settings for a test App against w's GitHub (or none,
// when w is nil) on database ("": a fresh SQLite file).
func Options(t testing.TB, w *World, database string) app.Options {
	if database == "" {
		database = "sqlite:" + filepath.Join(t.TempDir(), "aepgate.db")
	}
	url := ""
	if w != nil {
		url = w.F.URL()
	}
	return app.Options{
		Database: database, AppID: AppID, PrivateKey: Key(t), WebhookSecrets: [][]byte{[]byte(Secret)},
		GitHubURL: url, WritePause: -1, GitHubBudget: gh.BudgetOptions{Limits: Limits()}, FanoutWindow: 50 * time.Millisecond, CoalesceDelay: 20 * time.Millisecond, ShutdownGrace: 5 * time.Second,
		Tuning: queue.Tuning{RetryBase: 20 * time.Millisecond, PollInterval: 20 * time.Millisecond, JobTimeout: 5 * time.Second, RescueAfter: 6 * time.Second},
		// Board updates asked by evaluations wait past the end of a test:
		// the tests that count an evaluation's API calls do not count them
		// (a sweep's run at once). The board's own tests shorten it.
		BoardDelay: time.Hour,
		Logger:     Logger(t),
		// Off: it reads GitHub's delivery log at start, which the tests
		// counting API calls do not count; the App's redelivery test turns it on.
		Redeliver: redeliver.Config{Every: -1},
	}
}

// Logger discards the App's logs, unless AEPGATE_TEST_LOG is set: then
// it writes them to stderr at debug level.
func Logger(testing.TB) *slog.Logger {
	if os.Getenv("AEPGATE_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

// Start runs an App in-process and returns it and its base URL; it stops
// when the test ends.
func Start(t testing.TB, o app.Options) (*app.App, string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return StartOn(t, o, ln)
}

// StartOn is Start on a listener the test opened (to know the App's
// address before it starts). The units SeedDone recorded for o's GitHub
// are seeded into the App's store first; readback's coverage is observed
// in FakeClones unless o names another source.
func StartOn(t testing.TB, o app.Options, ln net.Listener) (*app.App, string) {
	t.Helper()
	if o.Seams.Readback.Coverage == nil {
		o.Seams.Readback.Coverage = FakeClones(t, o.GitHubURL)
	}
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.New(ctx, o)
	if err != nil {
		ln.Close()
		t.Fatal(err)
	}
	if err := SeedUnits(a, SeededUnits(o.GitHubURL)); err != nil {
		t.Fatal(err)
	}
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

// Sign is the X-Hub-Signature-256 of body under secret.
func Sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// Deliver posts a delivery signed with Secret to base's /webhook and
// returns the status.
func Deliver(t testing.TB, base, event, id string, body []byte) int {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/webhook", bytes.NewReader(body))
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", id)
	req.Header.Set("X-Hub-Signature-256", Sign(Secret, body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("deliver %s: %v", id, err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// WaitFor polls cond until it holds or timeout passes (then the test
// fails, naming what it waited for).
func WaitFor(t testing.TB, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	if !WaitUntil(timeout, cond) {
		t.Fatalf("timed out after %v waiting for %s", timeout, what)
	}
}

// WaitUntil polls cond until it holds (true) or timeout passes (false).
func WaitUntil(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// Contract is an issue body holding a work-unit contract of risk and
// class, depending on deps.
func Contract(risk, class string, deps ...int) string {
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
