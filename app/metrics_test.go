package app_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/aepgate/aepgate/app/metrics"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// deliverySeries is the aepgate_webhook_deliveries_total lines m's
// /metrics shows, one per series.
func deliverySeries(m *metrics.Set) []string {
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	var out []string
	for line := range strings.Lines(rec.Body.String()) {
		if strings.HasPrefix(line, "aepgate_webhook_deliveries_total{") {
			out = append(out, strings.TrimSpace(line))
		}
	}
	return out
}

// TestForgedEventsDoNotMintSeries: the event header of a request whose
// signature fails is the sender's word, so it must not become a metrics
// label (one series per invented name would let anyone exhaust memory).
// It runs the App's edge (newEdge) on the App's Prometheus metrics.
func TestForgedEventsDoNotMintSeries(t *testing.T) {
	body := []byte(`{"action":"opened"}`)
	for _, tt := range []struct {
		name            string
		labelUnverified bool // the protection removed: the negative control
		want            int
	}{
		{name: "protected", want: 1},
		{name: "header trusted", labelUnverified: true, want: 50},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var o webhook.Options
			if tt.labelUnverified {
				o.UnverifiedLabel = func(r *http.Request) string { return r.Header.Get("X-GitHub-Event") }
			}
			h, m := appEdge(t, &memQueue{}, o)
			for i := range 50 {
				post(h, fmt.Sprintf("invented_%d", i), fmt.Sprint(i), appkit.Sign("guess", body), body)
			}
			if got := len(deliverySeries(m)); got != tt.want {
				t.Errorf("delivery series after 50 forged events = %d, want %d", got, tt.want)
			}
		})
	}
	// A verified delivery is labelled with its real event.
	h, m := appEdge(t, &memQueue{}, webhook.Options{})
	post(h, "ping", "ok", appkit.Sign("current", body), body)
	want := `aepgate_webhook_deliveries_total{event="ping",result="accepted"} 1`
	if got := deliverySeries(m); !slices.Contains(got, want) {
		t.Errorf("delivery series %q lack %q", got, want)
	}
}
