package app_test

import (
	"encoding/json"
	"fmt"
	"github.com/aepgate/aepgate/app"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/testkit/appkit"
	"github.com/aepgate/aepgate/internal/testkit/fixtures"
)

// sameJob checks that a job decodes from stored what it decodes from the
// whole body: the same place and the same typed work.
func sameJob(t *testing.T, event string, body, stored []byte) {
	t.Helper()
	fs := app.Families()
	wantAt, want, wantErr := fs.Route(event, body, appkit.AppID)
	gotAt, got, err := fs.Route(event, stored, appkit.AppID)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("%s: route error %v from the stored payload, %v from the body", event, err, wantErr)
	}
	if diff := cmp.Diff(want, got); diff != "" || gotAt != wantAt {
		t.Errorf("%s: work from the stored payload (-body +stored):\n%s\n%+v vs %+v", event, diff, wantAt, gotAt)
	}
}

var keptSeq atomic.Int64

// edgeKeeps posts body as event to the App's edge (its family table's
// views) and returns what the delivery's job keeps, and whether the edge
// queued it.
func edgeKeeps(t *testing.T, views func(string) []any, event string, body []byte) (json.RawMessage, bool) {
	t.Helper()
	fs := app.Families()
	q := &memQueue{}
	h, err := webhook.New(webhook.Config{Secrets: [][]byte{[]byte("current")}, Queue: q, Handled: fs.Handles, Views: views})
	if err != nil {
		t.Fatal(err)
	}
	if post(h, event, fmt.Sprintf("k-%d", keptSeq.Add(1)), appkit.Sign("current", body), body) != http.StatusAccepted {
		return nil, false
	}
	return q.jobs[0].Payload, true
}

// TestStoredPayloadEveryFixture: every recorded GitHub payload of an event
// that starts work is stored, smaller than it came, and its job decodes
// the same from what is stored.
func TestStoredPayloadEveryFixture(t *testing.T) {
	var in, out int
	fs := app.Families()
	for _, w := range fixtures.Webhooks(t) {
		if !fs.Handles(w.Event) {
			continue
		}
		stored, ok := edgeKeeps(t, fs.Views, w.Event, w.Body)
		if !ok {
			t.Errorf("%s: not queued", w.Name)
			continue
		}
		in, out = in+len(w.Body), out+len(stored)
		sameJob(t, w.Event, w.Body, stored)
	}
	t.Logf("fixtures of handled events: %d bytes received, %d stored", in, out)
	if out >= in {
		t.Errorf("stored %d bytes of %d", out, in)
	}
}

// FuzzStoredPayload: whatever body the edge queues, its job decodes the
// same from what the edge kept as from the whole body.
func FuzzStoredPayload(f *testing.F) {
	f.Add([]byte(`{"action":"closed","pull_request":{"number":4,"merged":true,"body":"Work-unit: #1"},"installation":{"id":1},"repository":{"name":"a","owner":{"login":"o"},"default_branch":"main"}}`))
	f.Add([]byte(`{"action":"completed","repository":{"default_branch":"main"},"workflow_run":{"head_sha":"a","head_branch":"main","head_commit":{"message":"x (#1)"}}}`))
	f.Add([]byte(`{"action":"created","issue":{"number":3,"pull_request":{"url":"u"},"labels":[{"name":"aepgate:control"}]},"comment":{"id":9007199254740993,"performed_via_github_app":null}}`))
	f.Add([]byte(`{"ref":"refs/heads/main","repository":{"default_branch":"main"},"commits":[{"added":[],"modified":null,"removed":[".github/aepgate.yml"]}],"Action":"x","action":"opened"}`))
	f.Add([]byte(`{"PULL_REQUEST":{"Number":4},"pull_request":{"head":{"sha":"a"}},"pull_request":{"number":5},"installation":{"id":1},"repository":{"name":"a","owner":{"login":"o"}},"action":"opened"}`))
	fs := app.Families()
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, event := range fs.Events() {
			if stored, ok := edgeKeeps(t, fs.Views, event, body); ok {
				sameJob(t, event, body, stored)
			}
		}
	})
}
