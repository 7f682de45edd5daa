package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// receiver is a test webhook endpoint: it checks each delivery's
// signature, counts delivery IDs and bodies, and answers 202, or 503 for
// every fifth.
type receiver struct {
	mu     sync.Mutex
	ids    map[string]int
	bodies map[string]int
	bad    int
	n      int
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	m := hmac.New(sha256.New, []byte("s3cret"))
	m.Write(body)
	good := hmac.Equal([]byte(r.Header.Get("X-Hub-Signature-256")), []byte("sha256="+hex.EncodeToString(m.Sum(nil))))
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.n++
	if !good || r.Header.Get("X-GitHub-Event") != "pull_request" || !json.Valid(body) {
		rc.bad++
	}
	rc.ids[r.Header.Get("X-GitHub-Delivery")]++
	rc.bodies[string(body)]++
	if rc.n%5 == 0 {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

const testPayload = `{"action":"opened","number":2,"pull_request":{"id":279147437,"number":2}}`

// TestRun: 200 deliveries at 400/s reach the server signed, each under its
// own delivery ID and with its own body; the report counts the 2xx and the
// 503s and has a latency for each.
func TestRun(t *testing.T) {
	rc := &receiver{ids: map[string]int{}, bodies: map[string]int{}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	rep, err := Run(context.Background(), Config{URL: srv.URL, Secret: []byte("s3cret"), Event: "pull_request",
		Body: []byte(testPayload), Rate: 400, Duration: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	got := struct{ Sent, OK, Errors, Lat, IDs, Bodies, Bad int }{rep.Sent, rep.OK, rep.Errors, len(rep.Latencies), len(rc.ids), len(rc.bodies), rc.bad}
	want := struct{ Sent, OK, Errors, Lat, IDs, Bodies, Bad int }{200, 160, 0, 200, 200, 200, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("run (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[int]int{503: 40}, rep.Status); diff != "" {
		t.Errorf("other statuses (-want +got):\n%s", diff)
	}
	if rep.Took < 490*time.Millisecond {
		t.Errorf("200 deliveries at 400/s took %v, want about 500ms", rep.Took)
	}
	var out bytes.Buffer
	rep.Print(&out)
	for _, s := range []string{"sent 200 in", "2xx 160  other 40  errors 0", "status 503: 40", "latency p50 "} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, out.String())
		}
	}
}

// TestRunOpenLoop: a server that answers after 300 ms does not slow the
// sender: 100 deliveries at 200/s are all sent within about half a second,
// so nearly all are in flight at once.
func TestRunOpenLoop(t *testing.T) {
	var mu sync.Mutex
	inflight, peak := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		inflight++
		peak = max(peak, inflight)
		mu.Unlock()
		time.Sleep(300 * time.Millisecond)
		mu.Lock()
		inflight--
		mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	}))
	defer srv.Close()
	rep, err := Run(context.Background(), Config{URL: srv.URL, Secret: []byte("k"), Event: "push", Body: []byte(`{"id":1}`),
		Rate: 200, Duration: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rep.OK != 100 || peak < 50 {
		t.Errorf("2xx %d, peak in flight %d; want 100 and at least 50 (the sender must not wait for answers)", rep.OK, peak)
	}
	if rep.Quantile(0.5) < 300*time.Millisecond {
		t.Errorf("p50 %v, want at least the server's 300ms", rep.Quantile(0.5))
	}
}

// TestRunErrors: deliveries to a closed port count as errors, not as
// answers.
func TestRunErrors(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	rep, err := Run(context.Background(), Config{URL: url, Secret: []byte("k"), Event: "push", Body: []byte(`{}`), Rate: 100, Duration: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Errors != 10 || rep.OK != 0 || rep.FirstErr == "" {
		t.Errorf("errors %d, 2xx %d, first error %q; want 10, 0 and a message", rep.Errors, rep.OK, rep.FirstErr)
	}
}

// TestConfigRefused: a URL off the loopback interface, a rate or a
// duration out of bounds, and a missing secret are refused before any
// delivery is sent.
func TestConfigRefused(t *testing.T) {
	ok := Config{URL: "http://127.0.0.1:8080/webhook", Secret: []byte("k"), Event: "push", Body: []byte(`{}`), Rate: 10, Duration: time.Second}
	for _, tt := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"public host", func(c *Config) { c.URL = "http://example.com/webhook" }, "only a loopback address"},
		{"private address", func(c *Config) { c.URL = "http://10.0.0.1:8080/webhook" }, "only a loopback address"},
		{"hostname resolving anywhere", func(c *Config) { c.URL = "http://localhost.example.com/webhook" }, "only a loopback address"},
		{"not http", func(c *Config) { c.URL = "ftp://127.0.0.1/webhook" }, "want http://"},
		{"one of several off loopback", func(c *Config) { c.URL = "http://127.0.0.1:1/webhook,http://example.com/webhook" }, "only a loopback address"},
		{"too many urls", func(c *Config) {
			c.URL = strings.Repeat("http://127.0.0.1:1/webhook,", MaxURLs) + "http://127.0.0.1:1/webhook"
		}, "at most"},
		{"rate too high", func(c *Config) { c.Rate = MaxRate + 1 }, "rate"},
		{"no rate", func(c *Config) { c.Rate = 0 }, "rate"},
		{"too long", func(c *Config) { c.Duration = MaxDuration + time.Second }, "duration"},
		{"no secret", func(c *Config) { c.Secret = nil }, "secret"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.edit(&c)
			_, err := Run(context.Background(), c)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Run: %v, want an error containing %q", err, tt.want)
			}
		})
	}
	for _, u := range []string{"http://localhost:1/webhook", "http://[::1]:1/webhook", "http://127.0.0.2:1/webhook"} {
		c := ok
		c.URL = u
		if err := c.check(); err != nil {
			t.Errorf("%s refused: %v", u, err)
		}
	}
}

// TestRunCommand: the command reads the payload file and prints the
// report; without a secret it refuses.
func TestRunCommand(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusAccepted) }))
	defer srv.Close()
	p := filepath.Join(t.TempDir(), "p.json")
	if err := os.WriteFile(p, []byte(testPayload), 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	if err := run(context.Background(), []string{"-url", srv.URL, "-secret", "k", "-payload", p, "-rate", "50", "-d", "200ms"}, &out, &errs); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "2xx 10  other 0  errors 0") {
		t.Errorf("report:\n%s", out.String())
	}
	if err := run(context.Background(), []string{"-url", srv.URL, "-payload", p}, &out, &errs); err == nil {
		t.Error("ran without a secret")
	}
}

// TestBodies: each body differs from the others in its first "id" only,
// and from every body of another run.
func TestBodies(t *testing.T) {
	b := newBodies([]byte(testPayload), false, 0)
	got := []string{string(b.at(0)), string(b.at(1))}
	want := []string{
		`{"action":"opened","number":2,"pull_request":{"id":1279147437,"number":2}}`,
		`{"action":"opened","number":2,"pull_request":{"id":1279147438,"number":2}}`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("bodies (-want +got):\n%s", diff)
	}
	if got := string(newBodies([]byte(testPayload), true, 0).at(5)); got != testPayload {
		t.Errorf("same body changed: %s", got)
	}
	next := newBodies([]byte(testPayload), false, 1)
	if got, want := string(next.at(0)), `{"action":"opened","number":2,"pull_request":{"id":2279147437,"number":2}}`; got != want {
		t.Errorf("another run's first body: %s, want %s", got, want)
	}
	last := MaxRate * int(MaxDuration/time.Second)
	if b.id+int64(last) >= next.id {
		t.Errorf("run 0's last id %d reaches run 1's first %d", b.id+int64(last), next.id)
	}
}

// TestRunAlternates: with two comma-separated URLs the deliveries
// alternate between them, half to each.
func TestRunAlternates(t *testing.T) {
	var mu sync.Mutex
	got := map[string]int{}
	handler := func(name string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			got[name]++
			mu.Unlock()
			w.WriteHeader(http.StatusAccepted)
		})
	}
	a, b := httptest.NewServer(handler("a")), httptest.NewServer(handler("b"))
	defer a.Close()
	defer b.Close()
	rep, err := Run(context.Background(), Config{URL: a.URL + "," + b.URL, Secret: []byte("k"), Event: "push", Body: []byte(`{"id":1}`),
		Rate: 100, Duration: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(map[string]int{"a": 10, "b": 10}, got); diff != "" || rep.OK != 20 {
		t.Errorf("deliveries by server (-want +got):\n%s\n2xx %d, want 20", diff, rep.OK)
	}
}

// TestPrintSeconds: each second of the run gets the quantiles of the
// deliveries due in it, so a stall in one second shows there; a
// delivery that got no answer is counted in no second.
func TestPrintSeconds(t *testing.T) {
	r := newReport(8)
	ms := time.Millisecond
	for _, d := range []struct {
		offset, lat time.Duration
		err         error
	}{
		{0, 2 * ms, nil}, {300 * ms, 4 * ms, nil}, {900 * ms, 3 * ms, nil},
		{1100 * ms, 250 * ms, nil}, {1500 * ms, 0, errors.New("refused")},
		{2999 * ms, 5 * ms, nil},
	} {
		r.add(d.offset, http.StatusAccepted, d.err, d.lat)
	}
	var out bytes.Buffer
	r.done(3 * time.Second).PrintSeconds(&out)
	want := "second   0  answered     3  p50 3ms  p99 4ms  max 4ms\n" +
		"second   1  answered     1  p50 250ms  p99 250ms  max 250ms\n" +
		"second   2  answered     1  p50 5ms  p99 5ms  max 5ms\n"
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("PrintSeconds (-want +got):\n%s", diff)
	}
}
