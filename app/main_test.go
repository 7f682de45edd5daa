package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"
	"testing"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/queue"
	"github.com/aepgate/aepgate/app/redeliver"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/skipline"
)

// childEnv carries a child server's settings when the test binary re-runs
// itself as `aepgate serve` (so a test can SIGKILL a real process).
const childEnv = "AEPGATE_APP_TEST_CHILD"

type childConfig struct {
	Database, GitHubURL, AddrFile, KeyPEM string
	// Pipeline runs the child with pipelineChecks.
	Pipeline bool
	// MaxHeaderBytes replaces the App's header bound when set (the
	// header-flood test's negative control).
	MaxHeaderBytes int
	// ReadHeaderTimeout replaces the server's header read timeout when
	// set (the header-flood test holds its connections past it).
	ReadHeaderTimeout time.Duration
	// Done are the world's units seeded as certified (seedDone).
	Done []int
}

func TestMain(m *testing.M) {
	if raw := os.Getenv(childEnv); raw != "" {
		os.Exit(runChild(raw))
	}
	// skipline: one line when tests skipped for want of PostgreSQL, shown
	// without -v.
	os.Exit(skipline.Run(m))
}

func runChild(raw string) int {
	var c childConfig
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	key, err := gh.ParsePrivateKey([]byte(c.KeyPEM))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	o := app.Options{Database: c.Database, AppID: appkit.AppID, PrivateKey: key, WebhookSecrets: [][]byte{[]byte(appkit.Secret)},
		GitHubURL: c.GitHubURL, WritePause: -1, GitHubBudget: gh.BudgetOptions{Limits: appkit.Limits()}, FanoutWindow: 50 * time.Millisecond, Logger: appkit.Logger(nil),
		Tuning:     queue.Tuning{RetryBase: 20 * time.Millisecond, PollInterval: 20 * time.Millisecond, JobTimeout: 2 * time.Second, RescueAfter: 3 * time.Second, Workers: 8},
		BoardDelay: time.Hour, Redeliver: redeliver.Config{Every: -1}} // board updates past the test's end, and no redelivery, as appkit.Options
	if c.Pipeline {
		o.Seams.Checks = appkit.PipelineChecks()
	}
	o.Seams.Server = webhook.ServerLimits{MaxHeaderBytes: c.MaxHeaderBytes, ReadHeaderTimeout: c.ReadHeaderTimeout}
	a, err := app.New(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer a.Close()
	if err := appkit.SeedUnits(a, c.Done); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := os.WriteFile(c.AddrFile, []byte("http://"+ln.Addr().String()), 0o600); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := a.Run(ctx, ln); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
