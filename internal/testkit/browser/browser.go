// Package browser drives a headless Chromium from Go tests (through
// chromedp): it opens pages served on loopback, collects console errors and
// saves screenshots as test artefacts. It is test infrastructure: no
// production package imports it (internal/archtest).
//
// Chromium is Debian's package (/usr/bin/chromium, installed by .ci/run).
// Where it is missing a test skips with a message, and fails instead under
// CI=true, as internal/fixtures does for GitHub's fixtures.
package browser

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/aepgate/aepgate/internal/testkit/skipline"
)

// candidates are the executables tried, in order, after $AEPGATE_CHROMIUM.
var candidates = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Find returns the path of a Chromium executable, or "" when none is
// installed. $AEPGATE_CHROMIUM, when set, wins.
func Find() string {
	if p := os.Getenv("AEPGATE_CHROMIUM"); p != "" {
		return p
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p
		}
	}
	return ""
}

// Page is one browser tab of a test, with the console errors and uncaught
// exceptions it has seen so far.
type Page struct {
	Ctx context.Context
	t   testing.TB

	mu     sync.Mutex
	errors []string
}

// Need is what the browser tests need, for the skip line
// (internal/testkit/skipline) of a package whose TestMain is skipline.Main.
var Need = skipline.Need{What: "Chromium", Install: "sudo apt-get install chromium"}

// New starts a headless Chromium for t (closed when t ends) and returns its
// first tab. The flags are those this machine's closed network needs: no
// background networking, no component updates, a fresh profile.
func New(t testing.TB) *Page {
	t.Helper()
	exe := Find()
	if exe == "" {
		msg := "Chromium not found (install Debian's chromium, or set AEPGATE_CHROMIUM)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		skipline.Skip(t, Need, msg)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true), chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true), chromedp.WindowSize(1280, 900),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	p := &Page{t: t}
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(p.listen))
	t.Cleanup(func() { cancel(); cancelAlloc() })
	p.Ctx = ctx
	// Starting the browser is the first action; it gets time on a loaded
	// machine. Its context is the tab's own, so the tab outlives it.
	if err := chromedp.Do(ctx, chromedp.Sleep(0)); err != nil {
		t.Fatalf("browser: start %s: %v", exe, err)
	}
	return p
}

// listen records console errors and uncaught exceptions.
func (p *Page) listen(ev any) {
	var msg string
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if e.Type != runtime.ConsoleAPICalledTypeError {
			return
		}
		var parts []string
		for _, a := range e.Args {
			parts = append(parts, strings.Trim(string(a.Value), `"`)+a.Description)
		}
		msg = "console.error: " + strings.Join(parts, " ")
	case *runtime.EventExceptionThrown:
		msg = "exception: " + e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			msg += " " + e.ExceptionDetails.Exception.Description
		}
	default:
		return
	}
	p.mu.Lock()
	p.errors = append(p.errors, msg)
	p.mu.Unlock()
}

// Errors returns the console errors and exceptions seen so far.
func (p *Page) Errors() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.errors...)
}

// Do runs chromedp actions on the tab, in order, with a timeout, failing t
// on error.
func (p *Page) Do(timeout time.Duration, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, timeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// Get runs one chromedp action that returns a value (chromedp.Text,
// chromedp.Evaluate, ...), failing t on error.
func Get[T any](p *Page, timeout time.Duration, a chromedp.Action[T]) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, a)
	if err != nil {
		p.t.Fatalf("browser: %v", err)
	}
	return v
}

// Screenshot captures the whole page as PNG and saves it as an artefact
// named name (see ArtifactDir); it returns the PNG and its path.
func (p *Page) Screenshot(name string) ([]byte, string) {
	p.t.Helper()
	png := Get(p, 30*time.Second, chromedp.FullScreenshot(100))
	return png, Artifact(p.t, name, png)
}

// ArtifactDir is where tests save artefacts: $AEPGATE_ARTIFACTS when set
// (CI uploads it), else aepgate-artifacts under the system's temporary
// folder; one subfolder per test.
func ArtifactDir(t testing.TB) string {
	root := os.Getenv("AEPGATE_ARTIFACTS")
	if root == "" {
		root = filepath.Join(os.TempDir(), "aepgate-artifacts")
	}
	return filepath.Join(root, strings.NewReplacer("/", "_", " ", "_").Replace(t.Name()))
}

// Artifact writes b as name under ArtifactDir(t), logs its path and returns it.
func Artifact(t testing.TB, name string, b []byte) string {
	t.Helper()
	dir := ArtifactDir(t)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("browser: artefact folder: %v", err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatalf("browser: write artefact: %v", err)
	}
	t.Logf("artefact: %s", path)
	return path
}
