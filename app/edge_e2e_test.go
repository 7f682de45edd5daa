package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/aepgate/aepgate/app"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/metrics"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
)

// memQueue is an in-memory webhook.Enqueuer that records delivery IDs as
// the App's queue does.
type memQueue struct {
	mu   sync.Mutex
	seen map[string]bool
	jobs []webhook.Delivery
}

func (q *memQueue) Enqueue(_ context.Context, d webhook.Delivery) (webhook.Outcome, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.seen[d.DeliveryID] {
		return webhook.Outcome{Duplicate: true}, nil
	}
	if q.seen == nil {
		q.seen = map[string]bool{}
	}
	q.seen[d.DeliveryID] = true
	q.jobs = append(q.jobs, d)
	return webhook.Outcome{}, nil
}

// appEdge is the App's edge (as newEdge builds it, without hook ranges
// or sweep) on q with the secrets "current" and "previous" and edge
// options o, and the metrics it counts into.
func appEdge(t *testing.T, q *memQueue, o webhook.Options) (http.Handler, *metrics.Set) {
	t.Helper()
	m := metrics.New()
	fs := app.Families()
	h, err := webhook.New(webhook.Config{Secrets: [][]byte{[]byte("current"), []byte("previous")}, Queue: q,
		Handled: fs.Handles, Views: fs.Views, Metrics: webhook.Metrics{Delivery: m.Delivery, Unverified: m.Unverified},
		Log: appkit.Logger(t), Options: o})
	if err != nil {
		t.Fatal(err)
	}
	return h, m
}

// TestWebhookDeepJSON: a signed body nested deeper than MaxDepth is
// refused with 400 and a reason, never a 503 that redelivery cannot fix;
// one within the limit is queued. Its negative control lifts the limit:
// nothing else refuses the body (a job keeps its payload as a JSON
// string, which no database's JSON nesting limit reaches), and it is
// queued.
func TestWebhookDeepJSON(t *testing.T) {
	w := appkit.NewWorld(t)
	for _, tt := range []struct {
		name     string
		maxDepth int
		depth    int
		want     int
	}{
		{"within the limit", 0, webhook.MaxDepth, http.StatusAccepted},
		{"over the limit", 0, 1200, http.StatusBadRequest},
		{"broken: no limit", math.MaxInt, 1200, http.StatusAccepted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := appkit.Options(t, w, "")
			o.Seams.Edge.MaxDepth = tt.maxDepth
			_, base := appkit.Start(t, o)
			if got := appkit.Deliver(t, base, "issue_comment", "deep", deep(tt.depth)); got != tt.want {
				t.Errorf("signed body nested %d deep: %d, want %d", tt.depth, got, tt.want)
			}
		})
	}
}

// deep is a JSON object nesting n levels in the pull_request field
// (a field the job keeps).
func deep(n int) []byte {
	return []byte(`{"action":"created","issue":{"number":1,"pull_request":` + strings.Repeat("[", n-2) + strings.Repeat("]", n-2) + `},"comment":{"id":1}}`)
}

// TestWebhookStoresOnlyWhatJobsRead: a 25 MiB signed delivery's job keeps
// a few hundred bytes (the members its payload views read), from which
// its job decodes what it would from the whole body. Its negative control
// reads the body whole.
func TestWebhookStoresOnlyWhatJobsRead(t *testing.T) {
	body := bigPush(webhook.MaxPayload)
	for _, tt := range []struct {
		name  string
		views func(string) []any
		max   int
	}{
		{"reduced", nil, 1 << 10},
		{"broken: whole body", func(string) []any { return []any{new(json.RawMessage)} }, webhook.MaxPayload},
	} {
		t.Run(tt.name, func(t *testing.T) {
			fs := app.Families()
			views := fs.Views
			if tt.views != nil {
				views = tt.views
			}
			q := &memQueue{}
			h, err := webhook.New(webhook.Config{Secrets: [][]byte{[]byte("current")}, Queue: q, Handled: fs.Handles, Views: views})
			if err != nil {
				t.Fatal(err)
			}
			if got := post(h, "push", "big", appkit.Sign("current", body), body); got != http.StatusAccepted {
				t.Fatalf("status %d, want 202", got)
			}
			stored := q.jobs[0].Payload
			t.Logf("stored %d bytes of a %d-byte body", len(stored), len(body))
			if len(stored) > tt.max {
				t.Errorf("stored %d bytes, want at most %d", len(stored), tt.max)
			}
			_, want, _ := fs.Route("push", body, appkit.AppID)
			_, got, err := fs.Route("push", stored, appkit.AppID)
			if err != nil || !gocmp.Equal(got, want) {
				t.Errorf("job from the stored payload: %+v, %v; want %+v", got, err, want)
			}
		})
	}
}

// post sends h a signed-looking POST /webhook and returns the status.
func post(h http.Handler, event, id, sig string, body []byte) int {
	req := httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(body))
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-GitHub-Delivery", id)
	req.Header.Set("X-Hub-Signature-256", sig)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}
