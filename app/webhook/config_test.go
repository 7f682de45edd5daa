package webhook

import (
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNewRefusesIncompleteConfig: an edge without a secret, with an empty
// one, or without its queue, handled events or views is never built.
func TestNewRefusesIncompleteConfig(t *testing.T) {
	good := Config{Secrets: [][]byte{[]byte("s")}, Queue: &memQueue{}, Handled: testHandled, Views: testViews}
	tests := []struct {
		name  string
		spoil func(*Config)
		ok    bool
	}{
		{"complete", func(*Config) {}, true},
		{"no secret", func(c *Config) { c.Secrets = nil }, false},
		{"empty secret", func(c *Config) { c.Secrets = append(c.Secrets, nil) }, false},
		{"no queue", func(c *Config) { c.Queue = nil }, false},
		{"no handled", func(c *Config) { c.Handled = nil }, false},
		{"no views", func(c *Config) { c.Views = nil }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := good
			tt.spoil(&c)
			if _, err := New(c); (err == nil) != tt.ok {
				t.Errorf("New: error %v, want ok %v", err, tt.ok)
			}
		})
	}
}

// TestEdgeKeepsWhatViewsRead: a handled event's delivery carries the
// members its views and the Envelope read, as the body has them, and its
// body's SHA-256; an unhandled one carries no payload; a body whose fields
// do not have the views' types is answered 400 and not queued.
func TestEdgeKeepsWhatViewsRead(t *testing.T) {
	body := []byte(`{"action":"opened","number":7,"pull_request":{},"pad":"not kept"}`)
	wrongTypes := func(string) []any { return []any{new(struct{ Number string })} }
	tests := []struct {
		name  string
		event string
		views func(string) []any
		code  int
		want  []Delivery
	}{
		{"handled", "pull_request", nil, http.StatusAccepted,
			[]Delivery{{DeliveryID: "d", Event: "pull_request", Payload: json.RawMessage(`{"action":"opened","number":7}`)}}},
		{"not handled", "ping", nil, http.StatusAccepted, []Delivery{{DeliveryID: "d", Event: "ping"}}},
		{"wrong types", "pull_request", wrongTypes, http.StatusBadRequest, nil},
		{"wrong types, not handled", "ping", wrongTypes, http.StatusAccepted, []Delivery{{DeliveryID: "d", Event: "ping"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &memQueue{}
			h := newEdge(q)
			if tt.views != nil {
				h.events.views = tt.views
			}
			if got := post(h, hook{event: tt.event, id: "d", sig: sign("current", body), body: body}); got != tt.code {
				t.Errorf("status %d, want %d", got, tt.code)
			}
			for i := range tt.want {
				tt.want[i].BodySHA256 = sha256.Sum256(body)
			}
			if diff := cmp.Diff(tt.want, q.jobs); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
		})
	}
}
