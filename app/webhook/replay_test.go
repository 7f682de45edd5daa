package webhook

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// memReplays is an in-memory Replays.
type memReplays struct {
	mu    sync.Mutex
	first map[[sha256.Size]byte]string
}

func (m *memReplays) FirstDelivery(_ context.Context, sum [sha256.Size]byte, id string) (string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.first == nil {
		m.first = map[[sha256.Size]byte]string{}
	}
	if first, ok := m.first[sum]; ok {
		return first, nil
	}
	m.first[sum] = id
	return id, nil
}

// TestWebhookReplayedBody: a captured signed body sent again under five
// new delivery IDs is answered 200 each time and queued once, and
// GitHub's redelivery of the first (same ID) is still the queue's
// duplicate. Its negative control remembers no bodies: every new ID
// queues the body again.
func TestWebhookReplayedBody(t *testing.T) {
	body := []byte(`{"action":"created","issue":{"number":7},"comment":{"id":1,"body":"/aep resume"}}`)
	for _, tt := range []struct {
		name    string
		replays Replays
		codes   []int
		queued  int
	}{
		{"remembered", &memReplays{}, []int{202, 200, 200, 200, 200, 200, 200}, 1},
		{"broken: no body record", nil, []int{202, 202, 202, 202, 202, 202, 200}, 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := &memQueue{}
			h := newEdge(q)
			h.replays = tt.replays
			ids := []string{"d0", "r1", "r2", "r3", "r4", "r5", "d0"}
			var got []int
			for _, id := range ids {
				got = append(got, post(h, hook{event: "issue_comment", id: id, sig: sign("current", body), body: body}))
			}
			if fmt.Sprint(got) != fmt.Sprint(tt.codes) {
				t.Errorf("answers %v, want %v", got, tt.codes)
			}
			if len(q.jobs) != tt.queued {
				t.Errorf("queued %d times, want %d", len(q.jobs), tt.queued)
			}
			if tt.replays != nil && h.sink.count("issue_comment", "replayed") != 5 {
				t.Errorf("replayed counted %v, want 5", h.sink.count("issue_comment", "replayed"))
			}
		})
	}
}

// failingReplays fails every record.
type failingReplays struct{}

func (failingReplays) FirstDelivery(context.Context, [sha256.Size]byte, string) (string, error) {
	return "", fmt.Errorf("database is locked")
}

// TestWebhookReplayRecordFails: a body record that fails refuses the
// delivery with 503 and queues nothing, so GitHub's redelivery brings it
// again.
func TestWebhookReplayRecordFails(t *testing.T) {
	body := []byte(`{"zen":"x"}`)
	q := &memQueue{}
	h := newEdge(q)
	h.replays = failingReplays{}
	if got := post(h, hook{event: "ping", id: "d", sig: sign("current", body), body: body}); got != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", got)
	}
	if len(q.jobs) != 0 {
		t.Errorf("queued %d, want 0", len(q.jobs))
	}
}
