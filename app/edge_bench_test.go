package app_test

import (
	"bytes"
	"context"
	"fmt"
	"github.com/aepgate/aepgate/app"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

// acceptAll is an Enqueuer that takes every delivery as new and keeps
// nothing, so a benchmark measures the edge alone.
type acceptAll struct{}

func (acceptAll) Enqueue(context.Context, webhook.Delivery) (webhook.Outcome, error) {
	return webhook.Outcome{}, nil
}

// BenchmarkEdgeHandler runs the App's webhook edge (the real family table
// and payload views, no database) on the octokit pull_request.opened
// example: read, verify, check, decode and keep its payload, per request.
func BenchmarkEdgeHandler(b *testing.B) {
	body := fixtures.Payload(b, "pull_request", "opened")
	fs := app.Families()
	h, err := webhook.New(webhook.Config{Secrets: [][]byte{[]byte(appkit.Secret)}, Queue: acceptAll{}, Handled: fs.Handles, Views: fs.Views})
	if err != nil {
		b.Fatal(err)
	}
	sig := appkit.Sign(appkit.Secret, body)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		r := httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(body))
		r.Header.Set("X-GitHub-Event", "pull_request")
		r.Header.Set("X-GitHub-Delivery", fmt.Sprintf("bench-%d", i))
		r.Header.Set("X-Hub-Signature-256", sig)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		if w.Code != http.StatusAccepted {
			b.Fatalf("status %d: %s", w.Code, w.Body)
		}
	}
}
