package webhook

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestNewRefusesIncompleteConfig: an edge without a secret, with an empty
// one, or without its queue, handled events or store is never built.
func TestNewRefusesIncompleteConfig(t *testing.T) {
	good := Config{Secrets: [][]byte{[]byte("s")}, Queue: &memQueue{}, Handled: testHandled, Store: testStore}
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
		{"no store", func(c *Config) { c.Store = nil }, false},
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

// TestEdgeKeepsWhatStoreKeeps: a handled event's delivery carries what
// Store kept of its body, an unhandled one carries nothing, and a body
// Store refuses is answered 400 and not queued.
func TestEdgeKeepsWhatStoreKeeps(t *testing.T) {
	body := []byte(`{"action":"opened","number":7,"pull_request":{},"pad":"not kept"}`)
	refused := func(string, []byte) (json.RawMessage, error) { return nil, errors.New("wrong types") }
	tests := []struct {
		name  string
		event string
		store func(string, []byte) (json.RawMessage, error)
		code  int
		want  []Delivery
	}{
		{"handled", "pull_request", nil, http.StatusAccepted,
			[]Delivery{{DeliveryID: "d", Event: "pull_request", Payload: json.RawMessage(`{"action":"opened","number":7}`)}}},
		{"not handled", "ping", nil, http.StatusAccepted, []Delivery{{DeliveryID: "d", Event: "ping"}}},
		{"store refuses", "pull_request", refused, http.StatusBadRequest, nil},
		{"store refuses, not handled", "ping", refused, http.StatusAccepted, []Delivery{{DeliveryID: "d", Event: "ping"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &memQueue{}
			h := newEdge(q)
			if tt.store != nil {
				h.store = tt.store
			}
			if got := post(h, hook{event: tt.event, id: "d", sig: sign("current", body), body: body}); got != tt.code {
				t.Errorf("status %d, want %d", got, tt.code)
			}
			if diff := cmp.Diff(tt.want, q.jobs); diff != "" {
				t.Errorf("queued (-want +got):\n%s", diff)
			}
		})
	}
}
