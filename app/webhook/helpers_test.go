package webhook

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"time"
)

// clientFrom is an HTTP client whose connections come from the loopback
// address ip (any of 127.0.0.0/8 on Linux), so a test can send as several
// client addresses.
func clientFrom(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	return &http.Client{Timeout: 15 * time.Second, Transport: &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: 256}}
}

// loopbackHooks are HookRanges holding every loopback address, as GitHub's
// in a test where GitHub sends from loopback.
type loopbackHooks struct{}

func (loopbackHooks) Contains(ip netip.Addr) bool { return ip.IsLoopback() }

func (loopbackHooks) Known() bool { return true }

// prefixHooks are HookRanges made of prefixes.
type prefixHooks []netip.Prefix

func (p prefixHooks) Known() bool { return len(p) > 0 }

func (p prefixHooks) Contains(ip netip.Addr) bool {
	for _, r := range p {
		if r.Contains(ip) {
			return true
		}
	}
	return false
}

// memQueue is an in-memory Enqueuer that records delivery IDs and body
// sums as the App's queue does; with replay set it forgets delivery IDs
// (the negative control of dedupe), with bodies set it remembers the body
// sums (off: the negative control of the replay record).
type memQueue struct {
	mu     sync.Mutex
	seen   map[string]bool
	first  map[[sha256.Size]byte]string
	jobs   []Delivery
	replay bool
	bodies bool
}

func (q *memQueue) Enqueue(_ context.Context, d Delivery) (Outcome, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.seen == nil {
		q.seen, q.first = map[string]bool{}, map[[sha256.Size]byte]string{}
	}
	if !q.replay && q.seen[d.DeliveryID] {
		return Outcome{Duplicate: true}, nil
	}
	q.seen[d.DeliveryID] = true
	if first, ok := q.first[d.BodySHA256]; ok && q.bodies {
		return Outcome{ReplayOf: first}, nil
	}
	q.first[d.BodySHA256] = d.DeliveryID
	q.jobs = append(q.jobs, d)
	return Outcome{}, nil
}

// sink is an in-memory Metrics: counts by label pair and the gauge.
type sink struct {
	mu       sync.Mutex
	n        map[[2]string]float64
	inflight float64
}

func (s *sink) metrics() Metrics {
	return Metrics{
		Delivery: func(event, result string) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if s.n == nil {
				s.n = map[[2]string]float64{}
			}
			s.n[[2]string{event, result}]++
		},
		Unverified: func(d float64) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.inflight += d
		},
	}
}

// count is how many requests were counted under event and result.
func (s *sink) count(event, result string) float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n[[2]string{event, result}]
}

// series is how many label pairs were counted.
func (s *sink) series() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.n)
}

// gauge is the unverified-bodies count.
func (s *sink) gauge() float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inflight
}

// testEdge is an edge with its metrics sink.
type testEdge struct {
	*Handler
	sink *sink
}

// newEdge is an edge on q with the secrets "current" and "previous", the
// test's handled events and views, and an in-memory metrics sink.
func newEdge(q Enqueuer) *testEdge {
	s := &sink{}
	h, err := New(Config{Secrets: [][]byte{[]byte("current"), []byte("previous")}, Queue: q,
		Handled: testHandled, Views: testViews, Metrics: s.metrics(), Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		panic(err)
	}
	return &testEdge{Handler: h, sink: s}
}

// testHandled: every event but ping starts work.
func testHandled(event string) bool { return event != "ping" }

// testView is what the test jobs keep of a body: a few typed fields.
type testView struct {
	Action       string              `json:"action,omitempty"`
	Ref          string              `json:"ref,omitempty"`
	Number       int                 `json:"number,omitempty"`
	Installation *struct{ ID int64 } `json:"installation,omitempty"`
	Commits      []json.RawMessage   `json:"commits,omitempty"`
}

// testViews: the test jobs decode a testView.
func testViews(string) []any { return []any{new(testView)} }

// viewOf decodes a testView from b with encoding/json, as a test job does.
func viewOf(b []byte) (testView, error) {
	var v testView
	err := json.Unmarshal(b, &v)
	return v, err
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

// sign is GitHub's X-Hub-Signature-256 of body under secret.
func sign(secret string, body []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return "sha256=" + hex.EncodeToString(m.Sum(nil))
}

// bigPush is a push payload of exactly size bytes padded with
// incompressible text in a field no job keeps.
func bigPush(size int) []byte {
	head := `{"ref":"refs/heads/feature","before":"0000000000000000000000000000000000000000","after":"1111111111111111111111111111111111111111","installation":{"id":1},"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},"commits":[],"pad":"`
	tail := `"}`
	raw := make([]byte, (size-len(head)-len(tail))*3/4+3)
	r := rand.NewChaCha8([32]byte{7})
	r.Read(raw)
	pad := base64.RawStdEncoding.EncodeToString(raw)[:size-len(head)-len(tail)]
	return []byte(head + pad + tail)
}

// mustPrefix parses a CIDR prefix or panics.
func mustPrefix(s string) netip.Prefix { return netip.MustParsePrefix(s) }
