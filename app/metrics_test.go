package app

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/aepgate/aepgate/app/webhook"
)

// series counts the metrics a collector currently exports.
func series(c prometheus.Collector) int {
	ch := make(chan prometheus.Metric, 1024)
	c.Collect(ch)
	close(ch)
	return len(ch)
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
				post(h, fmt.Sprintf("invented_%d", i), fmt.Sprint(i), sign("guess", body), body)
			}
			if got := series(m.Deliveries()); got != tt.want {
				t.Errorf("delivery series after 50 forged events = %d, want %d", got, tt.want)
			}
		})
	}
	// A verified delivery is labelled with its real event.
	h, m := appEdge(t, &memQueue{}, webhook.Options{})
	post(h, "ping", "ok", sign("current", body), body)
	var got dto.Metric
	if err := m.Deliveries().WithLabelValues("ping", "accepted").Write(&got); err != nil {
		t.Fatal(err)
	}
	if v := got.GetCounter().GetValue(); v != 1 {
		t.Errorf("accepted ping deliveries = %v, want 1", v)
	}
}
