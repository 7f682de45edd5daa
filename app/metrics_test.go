package app

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
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
			h := newEdge(&memQueue{})
			if tt.labelUnverified {
				h.edge.unverifiedLabel = func(r *http.Request) string { return r.Header.Get("X-GitHub-Event") }
			}
			for i := range 50 {
				post(h, hook{event: fmt.Sprintf("invented_%d", i), id: fmt.Sprint(i), sig: sign("guess", body), body: body})
			}
			if got := series(h.metrics.deliveries); got != tt.want {
				t.Errorf("delivery series after 50 forged events = %d, want %d", got, tt.want)
			}
		})
	}
	// A verified delivery is labelled with its real event.
	h := newEdge(&memQueue{})
	post(h, hook{event: "ping", id: "ok", sig: sign("current", body), body: body})
	var m dto.Metric
	if err := h.metrics.deliveries.WithLabelValues("ping", "accepted").Write(&m); err != nil {
		t.Fatal(err)
	}
	if got := m.GetCounter().GetValue(); got != 1 {
		t.Errorf("accepted ping deliveries = %v, want 1", got)
	}
}
