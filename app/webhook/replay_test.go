package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
)

// TestWebhookReplayedBody: a captured signed body sent again under five
// new delivery IDs is answered 200 each time and queued once, and
// GitHub's redelivery of the first (same ID) is still the queue's
// duplicate: the edge hands the body's SHA-256 to the queue, which knows
// replays. Its negative control is a queue that remembers no bodies: every
// new ID queues the body again.
func TestWebhookReplayedBody(t *testing.T) {
	body := []byte(`{"action":"created","issue":{"number":7},"comment":{"id":1,"body":"/aep resume"}}`)
	for _, tt := range []struct {
		name   string
		bodies bool
		codes  []int
		queued int
	}{
		{"remembered", true, []int{202, 200, 200, 200, 200, 200, 200}, 1},
		{"broken: no body record", false, []int{202, 202, 202, 202, 202, 202, 200}, 6},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := &memQueue{bodies: tt.bodies}
			h := newEdge(q)
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
			if tt.bodies && h.sink.count("issue_comment", "replayed") != 5 {
				t.Errorf("replayed counted %v, want 5", h.sink.count("issue_comment", "replayed"))
			}
		})
	}
}

// failingQueue fails every record.
type failingQueue struct{}

func (failingQueue) Enqueue(context.Context, Delivery) (Outcome, error) {
	return Outcome{}, errors.New("database is locked")
}

// TestWebhookRecordFails: a record that fails (delivery ID, body and job
// are one transaction) refuses the delivery with 503, so GitHub's
// redelivery brings it again.
func TestWebhookRecordFails(t *testing.T) {
	body := []byte(`{"zen":"x"}`)
	h := newEdge(failingQueue{})
	if got := post(h, hook{event: "ping", id: "d", sig: sign("current", body), body: body}); got != http.StatusServiceUnavailable {
		t.Errorf("status %d, want 503", got)
	}
}
