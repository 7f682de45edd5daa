package app

import (
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/sharedfix"
)

// fixturePayloads returns every real webhook payload, keyed by event.
func fixturePayloads(t *testing.T) map[string][]string {
	dir := sharedfix.Path(t, "fixtures/github/webhooks")
	out := map[string][]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			rel, _ := filepath.Rel(dir, p)
			event := strings.Split(filepath.ToSlash(rel), "/")[0]
			out[event] = append(out[event], p)
		}
		return nil
	})
	return out
}

func TestParseEveryFixture(t *testing.T) {
	for event, files := range fixturePayloads(t) {
		for _, p := range files {
			body, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			j, err := parseDelivery(event, body, testAppID)
			if err != nil {
				t.Errorf("%s: %v", p, err)
			}
			if event == "pull_request" && strings.Contains(p, "opened") && len(j.Targets) != 1 {
				t.Errorf("%s: %d targets, want 1", p, len(j.Targets))
			}
		}
	}
}

func TestE2EEveryFixtureAccepted(t *testing.T) {
	w := newWorld(t)
	_, base := startApp(t, testOptions(t, w, ""))
	n := 0
	for event, files := range fixturePayloads(t) {
		for _, p := range files {
			body, _ := os.ReadFile(p)
			n++
			if got := deliver(t, base, event, "fx-"+strings.ReplaceAll(filepath.Base(p), ".", "-")+"-"+event, body); got != http.StatusAccepted {
				t.Errorf("%s: status %d, want 202", p, got)
			}
		}
	}
	time.Sleep(300 * time.Millisecond)
	resp, err := http.Get(base + "/healthz")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("App unhealthy after %d fixture deliveries: %v", n, err)
	}
	resp.Body.Close()
	t.Logf("%d fixture payloads accepted", n)
}
