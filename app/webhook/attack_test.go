package webhook

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// slowRequest is a signed-looking request that declares a 25 MiB body and
// has sent one byte; its handler runs until the returned writer is closed.
func slowRequest(h http.Handler, remote string) (*io.PipeWriter, chan int) {
	pr, pw := io.Pipe()
	req := httptest.NewRequest(http.MethodPost, "/webhook", pr)
	req.ContentLength = MaxPayload
	req.RemoteAddr = remote
	req.Header.Set("X-GitHub-Event", "push")
	req.Header.Set("X-GitHub-Delivery", "slow")
	req.Header.Set("X-Hub-Signature-256", sign("guess", nil))
	done := make(chan int, 1)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		done <- rec.Code
	}()
	pw.Write([]byte("{")) // the handler is now reading
	return pw, done
}

// TestWebhookBudgetCountsBytesReceived: four senders that declare 25 MiB
// and send one byte hold one byte each of the 100 MiB budget, so a signed
// delivery is still read at once. Its negative control reserves what a
// sender declares, as the edge once did: the four then hold the whole
// budget and the signed delivery is refused.
func TestWebhookBudgetCountsBytesReceived(t *testing.T) {
	body := []byte(`{"zen":"Keep it logically awesome."}`)
	for _, tt := range []struct {
		name    string
		reserve func(*http.Request, int64) int64
		want    int
	}{
		{"bytes received", nil, http.StatusAccepted},
		{"broken: bytes declared", func(r *http.Request, limit int64) int64 { return min(max(r.ContentLength, 0), limit) }, http.StatusServiceUnavailable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newEdge(&memQueue{})
			h.opts.Reserve = tt.reserve
			var slow []*io.PipeWriter
			for i := range 4 {
				pw, _ := slowRequest(h, fmt.Sprintf("198.51.100.%d:1000", i))
				slow = append(slow, pw)
			}
			defer func() {
				for _, pw := range slow {
					pw.CloseWithError(io.ErrUnexpectedEOF)
				}
			}()
			if got := post(h, hook{event: "ping", id: "signed", sig: sign("current", body), body: body}); got != tt.want {
				t.Errorf("signed delivery beside four slow senders: %d, want %d", got, tt.want)
			}
		})
	}
	t.Run("real bytes still bounded", func(t *testing.T) {
		h := newEdge(&memQueue{})
		h.admit.budget = newByteBudget(int64(len(body))-1, false)
		if got := post(h, hook{event: "ping", id: "big", sig: sign("current", body), body: body}); got != http.StatusServiceUnavailable {
			t.Errorf("body larger than the budget: %d, want 503", got)
		}
	})
}

// TestWebhookPerClientCap: one address may send DefaultPerClient bodies
// at once before their signatures are checked; the next is refused with
// 429 and counted, X-Forwarded-For does not get it a new address, and
// another address is served. Its negative control lifts the cap.
func TestWebhookPerClientCap(t *testing.T) {
	body := []byte(`{"zen":"x"}`)
	for _, tt := range []struct {
		name      string
		perClient int
		want      int
	}{
		{"capped", 0, http.StatusTooManyRequests},
		{"broken: no cap", math.MaxInt, http.StatusAccepted},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newEdge(&memQueue{})
			h.opts.PerClient = tt.perClient
			for range DefaultPerClient {
				pw, _ := slowRequest(h, "203.0.113.7:4000")
				defer pw.CloseWithError(io.ErrUnexpectedEOF)
			}
			req := signed("ping", "next", sign("current", body), body)
			req.RemoteAddr = "203.0.113.7:4001"
			req.Header.Set("X-Forwarded-For", "192.0.2.99")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("body %d from one address: %d, want %d", DefaultPerClient+1, rec.Code, tt.want)
			}
			other := signed("ping", "other", sign("current", body), body)
			other.RemoteAddr = "203.0.113.8:4000"
			rec = httptest.NewRecorder()
			h.ServeHTTP(rec, other)
			if rec.Code != http.StatusAccepted {
				t.Errorf("body from another address: %d, want 202", rec.Code)
			}
			if got, want := h.sink.count(UnverifiedEvent, "too_many"), map[bool]float64{true: 1, false: 0}[tt.perClient == 0]; got != want {
				t.Errorf("too_many refusals counted %v, want %v", got, want)
			}
			if got := h.sink.gauge(); got != DefaultPerClient {
				t.Errorf("unverified bodies gauge %v while %d slow senders are connected", got, DefaultPerClient)
			}
		})
	}
}

// TestWebhookSlowSenderCut: on a real connection, a sender that declares
// 25 MiB and sends a byte a second is answered 408 about rateGrace after
// it began, and the refusal is counted. Its negative control keeps only
// the old 60 s body timeout: the sender is still connected.
func TestWebhookSlowSenderCut(t *testing.T) {
	for _, tt := range []struct {
		name string
		rate func(Progress) time.Time
		want int // 0: no answer yet
	}{
		{"minimum rate", nil, http.StatusRequestTimeout},
		{"broken: timeout only", func(p Progress) time.Time { return p.Start.Add(bodyTimeout) }, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			h := newEdge(&memQueue{})
			h.opts.Rate = tt.rate
			srv := httptest.NewServer(h)
			defer srv.Close()
			c, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fmt.Fprintf(c, "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nX-GitHub-Event: push\r\nX-GitHub-Delivery: slow\r\n\r\n{", MaxPayload)
			answered := make(chan int, 1)
			go func() {
				resp, err := http.ReadResponse(bufio.NewReader(c), nil)
				if err == nil {
					answered <- resp.StatusCode
				}
			}()
			got := 0
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			wait := time.After(rateGrace + 1500*time.Millisecond)
			for waiting := true; got == 0 && waiting; {
				select {
				case got = <-answered:
				case <-tick.C:
					c.Write([]byte(" "))
				case <-wait:
					waiting = false
				}
			}
			if got != tt.want {
				t.Errorf("slow sender after %v: answered %d, want %d", rateGrace+1500*time.Millisecond, got, tt.want)
			}
			if want := map[bool]float64{true: 1, false: 0}[tt.want != 0]; h.sink.count(UnverifiedEvent, "too_slow") != want {
				t.Errorf("too_slow refusals counted %v, want %v", h.sink.count(UnverifiedEvent, "too_slow"), want)
			}
		})
	}
}

// TestWebhookSpoolsLargeBodies: a body past the spool threshold goes to a
// temporary file, is verified and stored as if held in memory, and the
// file is gone afterwards.
func TestWebhookSpoolsLargeBodies(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	body := bigPush(3 * spoolThreshold)
	q := &memQueue{}
	if got := post(newEdge(q), hook{event: "push", id: "spooled", sig: sign("current", body), body: body}); got != http.StatusAccepted {
		t.Fatalf("status %d, want 202", got)
	}
	want := `{"ref":"refs/heads/feature","installation":{"id":1},"repository":{"name":"app","owner":{"login":"acme"},"default_branch":"main"},"commits":[]}`
	if got := string(q.jobs[0].Payload); got != want {
		t.Errorf("stored %s, want %s", got, want)
	}
	if left, _ := os.ReadDir(os.Getenv("TMPDIR")); len(left) > 0 {
		t.Errorf("spool files left behind: %v", left)
	}
}
