package app_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

func TestE2EEveryFixtureAccepted(t *testing.T) {
	w := appkit.NewWorld(t)
	_, base := appkit.Start(t, appkit.Options(t, w, ""))
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
		if got := appkit.Deliver(t, base, fx.Event, fmt.Sprintf("fx-%d-%s", i, fx.Event), fx.Body); got != want {
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
