package webhook

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// averageDeadline is the edge's old pace rule, the negative control of the
// sliding window: 2 s to start, then 32 KiB/s on average from the
// request's start, so bytes sent ahead buy idle time.
func averageDeadline(p Progress) time.Time {
	d := rateGrace + time.Duration(p.Received)*time.Second/minRate
	return p.Start.Add(min(d, bodyTimeout))
}

// TestWebhookPaceSlidingWindow: on a real connection, a sender that
// declares 25 MiB, sends 256 KiB at once and then idles is answered 408
// about rateWindow after its last bytes. Its negative control averages
// from the request's start, as the edge once did: the 256 KiB buy 8 s and
// the sender is still connected.
func TestWebhookPaceSlidingWindow(t *testing.T) {
	for _, tt := range []struct {
		name string
		rate func(Progress) time.Time
		want int // 0: no answer yet
	}{
		{"sliding window", nil, http.StatusRequestTimeout},
		{"broken: average from the start", averageDeadline, 0},
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
			fmt.Fprintf(c, "POST /webhook HTTP/1.1\r\nHost: x\r\nContent-Length: %d\r\nX-GitHub-Event: push\r\nX-GitHub-Delivery: ahead\r\n\r\n{\"pad\":\"%s", MaxPayload, strings.Repeat("x", 256<<10))
			answered := make(chan int, 1)
			go func() {
				if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
					answered <- resp.StatusCode
				}
			}()
			wait := rateWindow + 1500*time.Millisecond
			got := 0
			select {
			case got = <-answered:
			case <-time.After(wait):
			}
			if got != tt.want {
				t.Errorf("sender idle after 256 KiB, %v on: answered %d, want %d", wait, got, tt.want)
			}
		})
	}
}

// TestProgressReachedAt: the window rule's view of a body's arrivals.
func TestProgressReachedAt(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := Progress{Start: t0}
	p.add(t0.Add(time.Second), 10)
	p.add(t0.Add(2*time.Second), 100<<10)
	p.add(t0.Add(3*time.Second), 110<<10)
	for _, tt := range []struct {
		n    int64
		want time.Time
	}{
		{-1, t0},
		{100 << 10, t0.Add(3 * time.Second)},
		{110 << 10, time.Time{}},
		{(100 << 10) - 1, t0.Add(2 * time.Second)},
	} {
		if got := p.ReachedAt(tt.n); !got.Equal(tt.want) {
			t.Errorf("ReachedAt(%d) = %v, want %v", tt.n, got, tt.want)
		}
	}
	if got, want := windowDeadline(p), t0.Add(2*time.Second+rateWindow); !got.Equal(want) {
		t.Errorf("windowDeadline = %v, want %v (2 s after the body had brought all but its last 64 KiB)", got, want)
	}
	if len(p.arrivals) != 2 {
		t.Errorf("kept %d arrivals, want 2: the first can no longer decide a window", len(p.arrivals))
	}
	// One-byte reads are merged: the arrivals stay few, and the window
	// rule still sees the body's pace.
	q := Progress{Start: t0}
	for i := range int64(1 << 20) {
		q.add(t0.Add(time.Duration(i)*time.Microsecond), i+1)
	}
	if len(q.arrivals) > 20 {
		t.Errorf("kept %d arrivals after 1 Mi one-byte reads, want at most 20", len(q.arrivals))
	}
	end := t0.Add(time.Duration(1<<20) * time.Microsecond)
	if got := windowDeadline(q); got.Before(end.Add(rateWindow-70*time.Millisecond)) || got.After(end.Add(rateWindow)) {
		t.Errorf("windowDeadline after 1 Mi one-byte reads at 1 µs = %v, want about %v", got.Sub(t0), end.Add(rateWindow).Sub(t0))
	}
}

// frontLoaded is a request from remote that declares 25 MiB and sends n
// bytes at once; its handler runs until the returned writer is closed or
// it refuses the body. It returns once the bytes are read or refused.
func frontLoaded(h http.Handler, remote string, n int) (*io.PipeWriter, chan int) {
	pw, done := slowRequest(h, remote)
	wrote := make(chan struct{})
	go func() {
		pw.Write([]byte(`"pad":"` + strings.Repeat("x", n)))
		close(wrote)
	}()
	answered := make(chan int, 1)
	select {
	case <-wrote:
		go func() { answered <- <-done }()
	case code := <-done:
		pw.CloseWithError(io.ErrUnexpectedEOF)
		answered <- code
	}
	return pw, answered
}

// TestWebhookPerAddressByteCap: sixteen senders from one address, each
// declaring 25 MiB and sending 1 MiB at once, hold at most a quarter of a
// 16 MiB budget, so a signed delivery from another address is read at
// once. Its negative control lifts the per-address cap: the sixteen hold
// the whole budget but for less than 1 MiB and the signed 1.06 MiB
// delivery is refused 503.
func TestWebhookPerAddressByteCap(t *testing.T) {
	// Larger than what the sixteen leave of the budget when uncapped.
	body := bigPush(1<<20 + 64<<10)
	for _, tt := range []struct {
		name    string
		perAddr int64
		want    int
	}{
		{"capped", 0, http.StatusAccepted},
		{"broken: no per-address cap", math.MaxInt64, http.StatusServiceUnavailable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newEdge(&memQueue{})
			h.admit.budget = newByteBudget(16<<20, false)
			if tt.perAddr != 0 {
				h.admit.budget.perAddr = tt.perAddr
			}
			busy := 0
			for i := range 16 {
				pw, done := frontLoaded(h, fmt.Sprintf("203.0.113.9:%d", 2000+i), 1<<20)
				defer pw.CloseWithError(io.ErrUnexpectedEOF)
				select {
				case code := <-done:
					busy += map[bool]int{true: 1}[code == http.StatusServiceUnavailable]
				case <-time.After(50 * time.Millisecond):
				}
			}
			if got := post(h, hook{event: "push", id: "signed", sig: sign("current", body), body: body}); got != tt.want {
				t.Errorf("signed delivery beside 16 front-loaded senders: %d, want %d", got, tt.want)
			}
			t.Logf("front-loaded senders refused busy: %d of 16", busy)
		})
	}
}

// TestWebhookHookReserve: sixteen senders outside GitHub's hook ranges,
// from sixteen addresses, each sending 1 MiB, fill what they may of a
// 16 MiB budget (12 MiB); a signed 3 MiB delivery from a hook address is
// still read, out of the reserved quarter. Its negative control reserves
// nothing: the sixteen hold the whole budget and the delivery is refused
// 503.
func TestWebhookHookReserve(t *testing.T) {
	body := bigPush(3 << 20)
	for _, tt := range []struct {
		name    string
		reserve bool
		want    int
	}{
		{"reserved", true, http.StatusAccepted},
		{"broken: nothing reserved", false, http.StatusServiceUnavailable},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newEdge(&memQueue{})
			h.admit.hooks = prefixHooks{mustPrefix("140.82.112.0/20")}
			h.admit.budget = newByteBudget(16<<20, tt.reserve)
			for i := range 16 {
				pw, _ := frontLoaded(h, fmt.Sprintf("198.51.100.%d:3000", i), 1<<20)
				defer pw.CloseWithError(io.ErrUnexpectedEOF)
			}
			time.Sleep(50 * time.Millisecond) // the senders' bytes are in
			req := signed("push", "github", sign("current", body), body)
			req.RemoteAddr = "140.82.115.4:443"
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.want {
				t.Errorf("3 MiB delivery from GitHub's hook range beside 16 senders of 1 MiB: %d, want %d", rec.Code, tt.want)
			}
		})
	}
}

// TestWebhookBusyCallsOnBusy: a refusal with 503 busy tells the App, so
// it can sweep for what such refusals lose; other refusals do not.
func TestWebhookBusyCallsOnBusy(t *testing.T) {
	body := []byte(`{"zen":"x"}`)
	h := newEdge(&memQueue{})
	calls := 0
	h.onBusy = func() { calls++ }
	post(h, hook{event: "ping", id: "forged", sig: sign("guess", body), body: body})
	if calls != 0 {
		t.Errorf("OnBusy called %d times after a forged delivery, want 0", calls)
	}
	h.admit.budget = newByteBudget(int64(len(body))-1, false)
	if got := post(h, hook{event: "ping", id: "big", sig: sign("current", body), body: body}); got != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", got)
	}
	if calls != 1 {
		t.Errorf("OnBusy called %d times after a busy refusal, want 1", calls)
	}
}
