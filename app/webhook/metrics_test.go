package webhook

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestForgedEventsDoNotMintLabels: the event header of a request whose
// signature fails is the sender's word, so it must not become a metrics
// label (one series per invented name would let anyone exhaust memory).
// Its negative control labels unverified requests by their header.
func TestForgedEventsDoNotMintLabels(t *testing.T) {
	body := []byte(`{"action":"opened"}`)
	for _, tt := range []struct {
		name            string
		labelUnverified bool
		want            int
	}{
		{name: "protected", want: 1},
		{name: "broken: header trusted", labelUnverified: true, want: 50},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newEdge(&memQueue{})
			if tt.labelUnverified {
				h.opts.UnverifiedLabel = func(r *http.Request) string { return r.Header.Get("X-GitHub-Event") }
			}
			for i := range 50 {
				post(h, hook{event: fmt.Sprintf("invented_%d", i), id: fmt.Sprint(i), sig: sign("guess", body), body: body})
			}
			if got := h.sink.series(); got != tt.want {
				t.Errorf("label pairs after 50 forged events = %d, want %d", got, tt.want)
			}
		})
	}
}

// TestVerifiedLabels: a verified delivery is counted under its event; a
// verified request whose event header is missing or not an event name is
// counted as "unknown" or "invalid", never under the header.
func TestVerifiedLabels(t *testing.T) {
	body := []byte(`{"action":"opened"}`)
	h := newEdge(&memQueue{})
	for i, event := range []string{"ping", "", "Pull Request; drop"} {
		post(h, hook{event: event, id: fmt.Sprint("v", i), sig: sign("current", body), body: body})
	}
	want := map[[2]string]float64{{"ping", "accepted"}: 1, {"unknown", "malformed"}: 1, {"invalid", "malformed"}: 1}
	if diff := cmp.Diff(want, h.sink.n); diff != "" {
		t.Errorf("counts (-want +got):\n%s", diff)
	}
}
