package demo

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/hex"
	"fmt"
	"github.com/aepgate/aepgate/protocol/attest"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"time"

	"github.com/aepgate/aepgate/app"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// The demo's cast and places.
const (
	appID    = 4242
	repoName = "acme/widgets"
	owner    = "olivia" // the owner: decides gates, HOLD and RESUME
	coord    = "cody"   // a coordinator: opens gates, cannot decide them
	auditor  = "carol"  // the independent auditor
	worker   = "bob"    // the worker who opens the pull request
	intruder = "mallory"
)

// appPerms are the permissions the App asks for when installed.
var appPerms = ghfake.Permissions{"checks": "write", "contents": "read", "issues": "write",
	"pull_requests": "write", "metadata": "read", "actions": "read", "attestations": "write", "deployments": "write"}

// world is one demo run: the simulated GitHub, the App serving on a
// loopback port, and the story's record.
type world struct {
	ctx     context.Context // the run's: cancelled, the story stops
	o       Options
	f       *ghfake.Fake
	repo    *ghfake.Repo
	inst    *ghfake.Installation
	a       *app.App
	base    string // the App's URL
	secret  string
	dbPath  string
	tmp     string
	stop    context.CancelFunc
	done    chan error
	wait    time.Duration // how long one step may take
	settle  time.Duration // how long check runs must stay unchanged
	rec     *recorder
	logFile *os.File
	// story is the scenario being played.
	story *story
	// signer signs the App's certificates and ledger heads; keysFile is
	// the JWKS saved beside the report ("" until saved).
	signer   *attest.Signer
	keysFile string
}

// newWorld starts the fake GitHub and the App, and points the fake's
// signed webhook deliveries at the App.
func newWorld(ctx context.Context, o Options) (*world, error) {
	tmp, err := os.MkdirTemp("", "aepgate-demo-")
	if err != nil {
		return nil, fmt.Errorf("demo: temp folder: %w", err)
	}
	w := &world{ctx: ctx, o: o, tmp: tmp, dbPath: filepath.Join(tmp, "aepgate.db"), secret: randomHex(32)}
	// A step waits up to a minute: it ends as soon as GitHub shows what it
	// waits for, and a loaded 2-core machine (three scenarios at once, 502s
	// backing jobs off) can take tens of seconds for one.
	w.wait, w.settle = time.Minute, 250*time.Millisecond
	if o.Speed == Real {
		w.wait, w.settle = 3*time.Minute, 2500*time.Millisecond
	}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return nil, fmt.Errorf("demo: throwaway App key: %w", err)
	}
	if w.signer, err = demoSigner(); err != nil {
		return nil, err
	}
	w.f = ghfake.New(nil)
	ghApp := w.f.App(appID, key)
	w.repo = w.f.CreateRepo(repoName)
	w.inst = ghApp.Install("acme", appPerms, w.repo)
	if err := w.startApp(ctx, key); err != nil {
		w.close()
		return nil, err
	}
	w.f.SendWebhooks(w.base+"/webhook", w.secret, ghApp)
	w.rec = newRecorder(w)
	return w, nil
}

// startApp runs the App as `aepgate serve` does, on a loopback port, with
// a throwaway key and webhook secret and a SQLite database in tmp.
func (w *world) startApp(ctx context.Context, key *rsa.PrivateKey) error {
	logFile, err := os.Create(filepath.Join(w.tmp, "app.log"))
	if err != nil {
		return fmt.Errorf("demo: app log: %w", err)
	}
	w.logFile = logFile
	o := w.appOptions(key, slog.New(slog.NewJSONHandler(logFile, nil)))
	actx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	a, err := app.New(actx, o)
	if err != nil {
		cancel()
		return fmt.Errorf("demo: start the App: %w", err)
	}
	ln, err := net.Listen("tcp", o.Addr)
	if err != nil {
		cancel()
		a.Close()
		return fmt.Errorf("demo: listen: %w", err)
	}
	w.a, w.stop, w.done, w.base = a, cancel, make(chan error, 1), "http://"+ln.Addr().String()
	go func() { w.done <- a.Run(actx, ln) }()
	return nil
}

// appOptions are `aepgate serve`'s options for the demo: its database in
// tmp, the throwaway key and secret, the fake as GitHub, a loopback port,
// and at fast speed short pauses, retries, polls and board delay.
func (w *world) appOptions(key *rsa.PrivateKey, log *slog.Logger) app.Options {
	o := app.Options{
		Database: "sqlite:" + w.dbPath, AppID: appID, PrivateKey: key, WebhookSecrets: [][]byte{[]byte(w.secret)},
		GitHubURL: w.f.URL(), Logger: log, Addr: "127.0.0.1:0", Signer: w.signer,
	}
	// The readback replays merges in clones fetched from the simulated
	// GitHub's repositories, written out as git repositories in tmp.
	o.Seams.Readback.Coverage = &readback.Clones{Dir: filepath.Join(w.tmp, "clones"), Remote: w.f.GitRemote(filepath.Join(w.tmp, "origins"))}
	if w.o.Speed == Fast {
		o.WritePause, o.RetryBase, o.PollInterval = -1, 20*time.Millisecond, 20*time.Millisecond
		// Retries back off from 20 ms but no further than a second: at the
		// outage's fault rate a job of many calls may fail ten times in a
		// row, and 20 ms doubled ten times is already 20 s of the story.
		o.RetryMax = time.Second
		o.JobTimeout, o.RescueAfter, o.ShutdownGrace = 10*time.Second, 12*time.Second, 5*time.Second
		o.BoardDelay, o.FanoutWindow = 250*time.Millisecond, 100*time.Millisecond
	}
	return o
}

// stopApp shuts the App down (idempotent) so its database can be read.
func (w *world) stopApp() error {
	if w.a == nil {
		return nil
	}
	w.stop()
	err := <-w.done
	w.a.Close()
	w.a = nil
	if err != nil {
		return fmt.Errorf("demo: app run: %w", err)
	}
	return nil
}

// close stops everything and removes the temporary folder.
func (w *world) close() {
	_ = w.stopApp()
	if w.f != nil {
		w.f.Close()
	}
	if w.logFile != nil {
		_ = w.logFile.Close()
	}
	_ = os.RemoveAll(w.tmp)
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("demo: random: %v", err))
	}
	return hex.EncodeToString(b)
}
