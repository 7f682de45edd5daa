package app

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// memQueue is an in-memory enqueuer.
type memQueue struct {
	mu   sync.Mutex
	seen map[string]bool
	jobs []deliveryArgs
}

func (q *memQueue) enqueue(_ context.Context, d deliveryArgs, dedupe bool) (bool, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.seen == nil {
		q.seen = map[string]bool{}
	}
	if dedupe && q.seen[d.DeliveryID] {
		return false, nil
	}
	q.seen[d.DeliveryID] = true
	q.jobs = append(q.jobs, d)
	return true, nil
}

type hook struct {
	method, event, id, sig string
	body                   []byte
}

func post(h http.Handler, k hook) int {
	if k.method == "" {
		k.method = http.MethodPost
	}
	req := httptest.NewRequest(k.method, "/webhook", bytes.NewReader(k.body))
	if k.event != "" {
		req.Header.Set("X-GitHub-Event", k.event)
	}
	if k.id != "" {
		req.Header.Set("X-GitHub-Delivery", k.id)
	}
	if k.sig != "" {
		req.Header.Set("X-Hub-Signature-256", k.sig)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code
}

func newEdge(q *memQueue) *webhookHandler {
	return &webhookHandler{secrets: [][]byte{[]byte("current"), []byte("previous")}, queue: q, metrics: newMetrics(), log: testLogger(nil)}
}

func TestWebhookEdge(t *testing.T) {
	body := []byte(`{"zen":"Keep it logically awesome."}`)
	good := sign("current", body)
	tests := []struct {
		name string
		req  hook
		want int
		jobs int
	}{
		{"signed", hook{event: "ping", id: "a1", sig: good, body: body}, 202, 1},
		{"previous secret during rotation", hook{event: "ping", id: "a2", sig: sign("previous", body), body: body}, 202, 1},
		{"forged", hook{event: "ping", id: "a3", sig: sign("guess", body), body: body}, 401, 0},
		{"missing signature", hook{event: "ping", id: "a4", body: body}, 401, 0},
		{"sha1 only", hook{event: "ping", id: "a5", sig: "sha1=abcd", body: body}, 401, 0},
		{"not hex", hook{event: "ping", id: "a6", sig: "sha256=zz", body: body}, 401, 0},
		{"tampered body", hook{event: "ping", id: "a7", sig: good, body: []byte(`{"zen":"x"}`)}, 401, 0},
		{"no event", hook{id: "a8", sig: good, body: body}, 400, 0},
		{"no delivery", hook{event: "ping", sig: good, body: body}, 400, 0},
		{"bad delivery", hook{event: "ping", id: "a b;", sig: good, body: body}, 400, 0},
		{"not json", hook{event: "ping", id: "a9", sig: sign("current", []byte("hi")), body: []byte("hi")}, 400, 0},
		{"json array", hook{event: "ping", id: "a10", sig: sign("current", []byte("[]")), body: []byte("[]")}, 400, 0},
		{"GET", hook{method: http.MethodGet, event: "ping", id: "a11", sig: good}, 405, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := &memQueue{}
			if got := post(newEdge(q), tt.req); got != tt.want {
				t.Errorf("status %d, want %d", got, tt.want)
			}
			if len(q.jobs) != tt.jobs {
				t.Errorf("%d jobs queued, want %d", len(q.jobs), tt.jobs)
			}
		})
	}
}

func TestWebhookDuplicateAnswers200(t *testing.T) {
	q := &memQueue{}
	h := newEdge(q)
	body := []byte(`{}`)
	k := hook{event: "ping", id: "dup", sig: sign("current", body), body: body}
	if got := post(h, k); got != 202 {
		t.Fatalf("first %d", got)
	}
	if got := post(h, k); got != 200 {
		t.Fatalf("replay %d, want 200", got)
	}
	if len(q.jobs) != 1 {
		t.Fatalf("%d jobs, want 1", len(q.jobs))
	}
}

func TestWebhookForgedDeliveryIDIsNotRecorded(t *testing.T) {
	q := &memQueue{}
	h := newEdge(q)
	body := []byte(`{}`)
	post(h, hook{event: "ping", id: "victim", sig: sign("attacker", body), body: body})
	if got := post(h, hook{event: "ping", id: "victim", sig: sign("current", body), body: body}); got != 202 {
		t.Fatalf("genuine delivery after a forged one with its ID: %d, want 202", got)
	}
}

func oversized() []byte {
	return []byte(`{"pad":"` + strings.Repeat("x", MaxPayload) + `"}`)
}

func TestWebhookOversizedRefused(t *testing.T) {
	q := &memQueue{}
	body := oversized()
	if got := post(newEdge(q), hook{event: "ping", id: "big", sig: sign("current", body), body: body}); got != 413 {
		t.Fatalf("status %d, want 413", got)
	}
	if len(q.jobs) != 0 {
		t.Fatal("oversized body was queued")
	}
}

// TestWebhookNegativeControls removes each protection through its hook and
// shows the attack it stops then gets through.
func TestWebhookNegativeControls(t *testing.T) {
	body := []byte(`{"action":"opened"}`)
	t.Run("signature", func(t *testing.T) {
		q := &memQueue{}
		h := newEdge(q)
		h.skipSignature = true
		if got := post(h, hook{event: "ping", id: "forged", sig: sign("guess", body), body: body}); got != 202 || len(q.jobs) != 1 {
			t.Fatalf("without verification a forged delivery should be queued; got %d, %d jobs", got, len(q.jobs))
		}
	})
	t.Run("size cap", func(t *testing.T) {
		q := &memQueue{}
		h := newEdge(q)
		h.skipSizeCap = true
		big := oversized()
		if got := post(h, hook{event: "ping", id: "big", sig: sign("current", big), body: big}); got != 202 {
			t.Fatalf("without the cap an oversized body should be accepted; got %d", got)
		}
	})
	t.Run("dedupe", func(t *testing.T) {
		q := &memQueue{}
		h := newEdge(q)
		h.skipDedupe = true
		k := hook{event: "ping", id: "replayed", sig: sign("current", body), body: body}
		post(h, k)
		if got := post(h, k); got != 202 || len(q.jobs) != 2 {
			t.Fatalf("without dedupe a replay should be queued again; got %d, %d jobs", got, len(q.jobs))
		}
	})
}

func FuzzWebhookEdge(f *testing.F) {
	f.Add("ping", "id-1", "sha256=00", []byte(`{}`), false)
	f.Add("pull_request", "x", "", []byte(`{"a":1}`), true)
	f.Fuzz(func(t *testing.T, event, id, sig string, body []byte, signIt bool) {
		if signIt {
			sig = sign("current", body)
		}
		q := &memQueue{}
		code := post(newEdge(q), hook{event: event, id: id, sig: sig, body: body})
		if len(q.jobs) > 0 && (code != 202 || sig != sign("current", body) && sig != sign("previous", body)) {
			t.Fatalf("queued with status %d and signature %q", code, sig)
		}
	})
}

// TestWebhookBodiesShareAByteBudget: bodies are held whole before their
// signature can be checked, so the bytes held at once are bounded; a
// request that cannot get its share waits, and is refused when its client
// gives up. Without the budget (the negative control) it is read at once.
func TestWebhookBodiesShareAByteBudget(t *testing.T) {
	body := []byte(`{"zen":"Keep it logically awesome."}`)
	n := int64(len(body))
	for _, tt := range []struct {
		name   string
		budget *byteBudget
		want   int
	}{
		{"bounded", newByteBudget(n + n/2), http.StatusServiceUnavailable},
		{"unbounded", nil, http.StatusAccepted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := &memQueue{}
			h := newEdge(q)
			h.budget = tt.budget
			// A slow sender holds its share while its body trickles in.
			pr, pw := io.Pipe()
			slow := httptest.NewRequest(http.MethodPost, "/webhook", pr)
			slow.ContentLength = n
			slow.Header.Set("X-GitHub-Event", "ping")
			slow.Header.Set("X-GitHub-Delivery", "slow")
			slow.Header.Set("X-Hub-Signature-256", sign("current", body))
			slowRec := httptest.NewRecorder()
			done := make(chan struct{})
			go func() { defer close(done); h.ServeHTTP(slowRec, slow) }()
			pw.Write(body[:1]) // the handler is now reading

			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/webhook", bytes.NewReader(body))
			req.Header.Set("X-GitHub-Event", "ping")
			req.Header.Set("X-GitHub-Delivery", "second")
			req.Header.Set("X-Hub-Signature-256", sign("current", body))
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("second delivery while the first holds the budget: %d, want %d", rec.Code, tt.want)
			}

			pw.Write(body[1:])
			pw.Close()
			<-done
			if slowRec.Code != http.StatusAccepted {
				t.Errorf("slow delivery: %d, want 202", slowRec.Code)
			}
			// The budget is free again.
			if got := post(h, hook{event: "ping", id: "third", sig: sign("current", body), body: body}); got != http.StatusAccepted {
				t.Errorf("delivery after the slow one finished: %d, want 202", got)
			}
		})
	}
}

// TestWebhookDeclaredOversizeRefusedUnread: a Content-Length over the cap is
// refused before any of the body is read.
func TestWebhookDeclaredOversizeRefusedUnread(t *testing.T) {
	q := &memQueue{}
	body := []byte(`{}`)
	req := httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(body))
	req.ContentLength = MaxPayload + 1
	req.Header.Set("X-GitHub-Event", "ping")
	req.Header.Set("X-GitHub-Delivery", "liar")
	req.Header.Set("X-Hub-Signature-256", sign("current", body))
	rec := httptest.NewRecorder()
	newEdge(q).ServeHTTP(rec, req)
	if rec.Code != http.StatusRequestEntityTooLarge || len(q.jobs) != 0 {
		t.Fatalf("declared %d bytes: status %d, %d jobs; want 413 and none", req.ContentLength, rec.Code, len(q.jobs))
	}
}
