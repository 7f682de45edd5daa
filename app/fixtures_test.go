package app

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

func TestParseEveryFixture(t *testing.T) {
	for _, w := range fixtures.Webhooks(t) {
		_, ws, err := families(defaultFamilies()).route(w.Event, w.Body, testAppID)
		if err != nil {
			t.Errorf("%s: %v", w.Name, err)
		}
		if w.Event == "pull_request" && w.Action == "opened" && toInstallation(t, w) && len(judged(ws)) != 1 {
			t.Errorf("%s: %d pull requests judged, want 1: %v", w.Name, len(judged(ws)), ws)
		}
	}
}

// toInstallation reports whether w was delivered to an App installation
// (the npm fixtures also hold older recordings made without one).
func toInstallation(t *testing.T, w fixtures.Webhook) bool {
	var p struct {
		Installation json.RawMessage `json:"installation"`
	}
	if err := json.Unmarshal(w.Body, &p); err != nil {
		t.Fatalf("%s: %v", w.Name, err)
	}
	return p.Installation != nil
}

func TestE2EEveryFixtureAccepted(t *testing.T) {
	w := newWorld(t)
	_, base := startApp(t, testOptions(t, w, ""))
	n := 0
	seen := map[string]bool{}
	for i, fx := range fixtures.Webhooks(t) {
		n++
		// A body recorded twice, byte for byte, is a replay the second
		// time: 200 and nothing queued.
		want := http.StatusAccepted
		if seen[string(fx.Body)] {
			want = http.StatusOK
		}
		seen[string(fx.Body)] = true
		if got := deliver(t, base, fx.Event, fmt.Sprintf("fx-%d-%s", i, fx.Event), fx.Body); got != want {
			t.Errorf("%s: status %d, want %d", fx.Name, got, want)
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
