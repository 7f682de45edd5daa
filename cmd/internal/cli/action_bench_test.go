package cli

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// buildBinary builds aepgate once for the benchmarks.
func buildBinary(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "aepgate")
	cmd := exec.Command("go", "build", "-o", bin, "../../aepgate")
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// firstRequest serves f and remembers when the first request arrived.
type firstRequest struct {
	f     *ghfake.Fake
	mu    sync.Mutex
	first time.Time
}

func (s *firstRequest) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.first.IsZero() {
		s.first = time.Now()
	}
	s.mu.Unlock()
	s.f.ServeHTTP(w, r)
}

// BenchmarkActionExample runs the built binary as the Action on the
// project's example run (examples/*) for a pull_request event against the
// fake GitHub, and reports the time from exec to the first API request, the
// first whole step (which writes) and a re-run (which finds nothing to write). Run: go test ./internal/cli -run '^$' -bench ActionExample -benchtime 10x
func BenchmarkActionExample(b *testing.B) {
	bin := buildBinary(b)
	root, err := filepath.Abs("../../..")
	if err != nil {
		b.Fatal(err)
	}
	f := ghfake.New(b)
	repo := f.CreateRepo("acme/widgets")
	base := repo.Commit("main", "config", map[string]string{".github/aepgate.yml": "version: 1\nrun_documents: [examples/*]\n"})
	repo.Branch("unit-1", "main")
	head := repo.Commit("unit-1", "work", map[string]string{"README.md": "x"})
	srv := &firstRequest{f: f}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	dir := b.TempDir()
	event, _ := json.Marshal(map[string]any{"pull_request": map[string]any{
		"number": 1, "body": "STATUS: done",
		"head": map[string]any{"sha": head, "ref": "unit-1", "repo": map[string]any{"full_name": "acme/widgets"}},
		"base": map[string]any{"sha": base, "ref": "main", "repo": map[string]any{"full_name": "acme/widgets"}},
	}})
	eventPath := filepath.Join(dir, "event.json")
	if err := os.WriteFile(eventPath, event, 0o644); err != nil {
		b.Fatal(err)
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME"), "GITHUB_ACTIONS=true",
		"GITHUB_REPOSITORY=acme/widgets", "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH=" + eventPath,
		"GITHUB_SHA=" + head, "GITHUB_API_URL=" + ts.URL, "GITHUB_WORKSPACE=" + root,
		"GITHUB_OUTPUT=" + filepath.Join(dir, "out"), "GITHUB_STEP_SUMMARY=" + filepath.Join(dir, "sum"),
		"INPUT_TOKEN=" + f.ActionsToken(repo, ghfake.Permissions{"checks": "write", "contents": "read"}),
		"INPUT_DIR=examples/*",
	}
	var toFirst, first, rest time.Duration
	b.ResetTimer()
	for i := range b.N {
		srv.mu.Lock()
		srv.first = time.Time{}
		srv.mu.Unlock()
		start := time.Now()
		cmd := exec.Command(bin, "action")
		cmd.Env, cmd.Dir = env, root
		out, err := cmd.CombinedOutput()
		if i == 0 {
			first = time.Since(start)
		} else {
			rest += time.Since(start)
		}
		if err != nil && !strings.Contains(string(out), "aep/report") {
			b.Fatalf("aepgate action: %v\n%s", err, out)
		}
		srv.mu.Lock()
		toFirst += srv.first.Sub(start)
		srv.mu.Unlock()
	}
	b.ReportMetric(float64(toFirst.Milliseconds())/float64(b.N), "ms-to-first-request")
	// The first step creates three check runs, paced gh.DefaultWritePause
	// apart; a re-run finds them unchanged and writes nothing.
	b.ReportMetric(float64(first.Milliseconds()), "ms-first-step")
	if b.N > 1 {
		b.ReportMetric(float64(rest.Milliseconds())/float64(b.N-1), "ms-rerun-step")
	}
	if runs := repo.CheckRuns(head); len(runs) != 3 {
		b.Errorf("check runs on the head: %d, want 3 (lint, status, report)", len(runs))
	}
}
