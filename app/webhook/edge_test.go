package webhook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWebhookEdge(t *testing.T) {
	body := []byte(`{"zen":"Keep it logically awesome."}`)
	good := sign("current", body)
	spaced := append([]byte(strings.Repeat(" \r\n\t", 50)), body...)
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
		{"long leading whitespace", hook{event: "ping", id: "a12", sig: sign("current", spaced), body: spaced}, 202, 1},
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

// TestWebhookNegativeControls shows each protection refusing its attack,
// and the attack getting through once the protection is replaced by a
// broken variant.
func TestWebhookNegativeControls(t *testing.T) {
	body := []byte(`{"action":"opened"}`)
	big := oversized()
	tests := []struct {
		name   string
		broken func(h *testEdge, q *memQueue)
		posts  []hook
		want   []int
	}{
		{"signature", func(h *testEdge, _ *memQueue) {
			h.opts.Verify = func(string, [][]byte) bool { return true }
		}, []hook{{event: "ping", id: "forged", sig: sign("guess", body), body: body}}, []int{401, 202}},
		{"size cap", func(h *testEdge, _ *memQueue) {
			// One address's share of the budget is a quarter, MaxPayload.
			h.opts.MaxPayload = math.MaxInt64
			h.admit.budget.perAddr = math.MaxInt64
		}, []hook{{event: "ping", id: "big", sig: sign("current", big), body: big}}, []int{413, 202}},
		{"dedupe", func(_ *testEdge, q *memQueue) {
			q.replay = true
		}, []hook{
			{event: "ping", id: "replayed", sig: sign("current", body), body: body},
			{event: "ping", id: "replayed", sig: sign("current", body), body: body},
		}, []int{200, 202}},
	}
	for _, tt := range tests {
		for i, broken := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/broken=%v", tt.name, broken), func(t *testing.T) {
				q := &memQueue{}
				h := newEdge(q)
				if broken {
					tt.broken(h, q)
				}
				var got int
				for _, k := range tt.posts {
					got = post(h, k)
				}
				if got != tt.want[i] {
					t.Errorf("last status %d, want %d", got, tt.want[i])
				}
			})
		}
	}
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

// TestWebhookLogs: every accepted delivery is logged at info with its
// event, action, delivery ID and result, every refused request at warn
// with its reason and status, and no line carries the body, a secret or a
// signature.
func TestWebhookLogs(t *testing.T) {
	body := []byte(`{"action":"opened","number":7,"pull_request":{},"note":"BODY-MARK"}`)
	oversize := httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(body))
	oversize.ContentLength = MaxPayload + 1
	tests := []struct {
		name string
		req  *http.Request
		want map[string]any
	}{
		{"queued", signed("pull_request", "d1", sign("current", body), body),
			map[string]any{"level": "INFO", "msg": "webhook delivery", "event": "pull_request", "action": "opened", "delivery": "d1", "result": "queued"}},
		{"duplicate", signed("pull_request", "d1", sign("current", body), body),
			map[string]any{"level": "INFO", "msg": "webhook delivery", "event": "pull_request", "action": "opened", "delivery": "d1", "result": "duplicate"}},
		{"ignored", signed("ping", "d2", sign("previous", []byte(`{"zen":"BODY-MARK"}`)), []byte(`{"zen":"BODY-MARK"}`)),
			map[string]any{"level": "INFO", "msg": "webhook delivery", "event": "ping", "action": "", "delivery": "d2", "result": "ignored"}},
		{"forged", signed("pull_request", "d3", sign("guess", body), body),
			map[string]any{"level": "WARN", "msg": "webhook refused", "reason": "bad_signature", "status": float64(401), "client": "192.0.2.1"}},
		{"malformed", signed("pull_request", "", sign("current", body), body),
			map[string]any{"level": "WARN", "msg": "webhook refused", "reason": "malformed", "status": float64(400), "client": "192.0.2.1"}},
		{"declared oversize", oversize,
			map[string]any{"level": "WARN", "msg": "webhook refused", "reason": "too_large", "status": float64(413), "client": "192.0.2.1"}},
		{"GET", httptest.NewRequest(http.MethodGet, "/webhook", nil),
			map[string]any{"level": "WARN", "msg": "webhook refused", "reason": "method_not_allowed", "status": float64(405), "client": "192.0.2.1"}},
	}
	var buf bytes.Buffer
	h := newEdge(&memQueue{})
	h.log = slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			buf.Reset()
			h.ServeHTTP(httptest.NewRecorder(), tt.req)
			lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
			if len(lines) != 1 {
				t.Fatalf("%d log lines, want 1:\n%s", len(lines), buf.String())
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(lines[0]), &got); err != nil {
				t.Fatal(err)
			}
			delete(got, "time")
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("log line (-want +got):\n%s", diff)
			}
			sig := strings.TrimPrefix(tt.req.Header.Get("X-Hub-Signature-256"), "sha256=")
			for _, leak := range []string{"BODY-MARK", "current", "previous", "sha256", sig} {
				if leak != "" && strings.Contains(lines[0], leak) {
					t.Errorf("log line carries %q: %s", leak, lines[0])
				}
			}
		})
	}
}

// signed is a POST /webhook carrying body with the given headers (an empty
// id is left out).
func signed(event, id, sig string, body []byte) *http.Request {
	req := httptest.NewRequest(http.MethodPost, "/webhook", bytes.NewReader(body))
	req.Header.Set("X-GitHub-Event", event)
	req.Header.Set("X-Hub-Signature-256", sig)
	if id != "" {
		req.Header.Set("X-GitHub-Delivery", id)
	}
	return req
}

// TestEnvelopeAction: the logged action is the payload's top-level
// "action" when it is an event-like word, "" otherwise; a body that is not
// one JSON object is refused by the decoding pass.
func TestEnvelopeAction(t *testing.T) {
	tests := []struct {
		name, body string
		want       string
		wantOK     bool
	}{
		{"action", `{"action":"opened","number":1}`, "opened", true},
		{"leading space", " \n{\"action\":\"ready_for_review\"}", "ready_for_review", true},
		{"leading whitespace past 64 bytes", strings.Repeat("\n", 100) + `{"action":"closed"}`, "closed", true},
		{"no action", `{"zen":"x"}`, "", true},
		{"not a string", `{"action":7}`, "", true},
		{"not a word", `{"action":"Opened; rm -rf"}`, "", true},
		{"too long", `{"action":"` + strings.Repeat("a", 65) + `"}`, "", true},
		{"array", `[{"action":"opened"}]`, "", false},
		{"null", `null`, "", false},
		{"invalid", `{"action":"opened"`, "", false},
		{"trailing value", `{"action":"opened"} {}`, "", false},
		{"empty", ``, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept, _, err := decodeOnce([]byte(tt.body), envelopeFields(), MaxDepth)
			if got := readEnvelope(kept).Action; got != tt.want || (err == nil) != tt.wantOK {
				t.Errorf("action of %q = %q, error %v; want %q, ok %v", tt.body, got, err, tt.want, tt.wantOK)
			}
		})
	}
}
