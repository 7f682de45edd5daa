package webhook

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestClientIP: behind a trusted proxy the client is the rightmost
// X-Forwarded-For hop that is not a trusted proxy; anywhere else, and
// whatever the header says, it is the connection's peer.
func TestClientIP(t *testing.T) {
	trusted := []netip.Prefix{mustPrefix("10.0.0.0/8"), mustPrefix("2001:db8::/32")}
	for _, tt := range []struct {
		name, remote string
		xff          []string
		want         string
	}{
		{"no proxy", "198.51.100.7:4000", nil, "198.51.100.7"},
		{"untrusted peer's header ignored", "198.51.100.7:4000", []string{"192.0.2.1"}, "198.51.100.7"},
		{"trusted proxy", "10.0.0.2:4000", []string{"192.0.2.1"}, "192.0.2.1"},
		{"spoofed left hops ignored", "10.0.0.2:4000", []string{"140.82.115.9, 192.0.2.1"}, "192.0.2.1"},
		{"chain of trusted proxies", "10.0.0.2:4000", []string{"192.0.2.1, 10.1.1.1", "10.2.2.2"}, "192.0.2.1"},
		{"only trusted hops", "10.0.0.2:4000", []string{"10.1.1.1"}, "10.1.1.1"},
		{"no header", "10.0.0.2:4000", nil, "10.0.0.2"},
		{"garbage hop ends the walk", "10.0.0.2:4000", []string{"192.0.2.1, not-an-ip, 10.3.3.3"}, "10.3.3.3"},
		{"IPv6 peer", "[2001:db8::1]:443", []string{"2001:db9::5"}, "2001:db9::5"},
		{"IPv4-mapped hop", "10.0.0.2:4000", []string{"::ffff:192.0.2.1"}, "192.0.2.1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/webhook", nil)
			r.RemoteAddr = tt.remote
			for _, v := range tt.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			if got := clientIP(r, trusted).String(); got != tt.want {
				t.Errorf("clientIP = %s, want %s", got, tt.want)
			}
		})
	}
}

// FuzzClientIP: whatever X-Forwarded-For says, the client address is the
// peer's or one of the header's hops, never a hop left of an untrusted
// one, and with an untrusted peer always the peer.
func FuzzClientIP(f *testing.F) {
	f.Add("10.0.0.2:1", "192.0.2.1, 10.1.1.1")
	f.Add("198.51.100.7:1", "10.0.0.1")
	f.Add("10.0.0.2:1", ",,, ::ffff:1.2.3.4 ,")
	trusted := []netip.Prefix{mustPrefix("10.0.0.0/8")}
	f.Fuzz(func(t *testing.T, remote, xff string) {
		r := httptest.NewRequest(http.MethodPost, "/webhook", nil)
		r.RemoteAddr = remote
		r.Header.Set("X-Forwarded-For", xff)
		got := clientIP(r, trusted)
		peer := peerIP(remote)
		if !isTrusted(peer, trusted) {
			if got != peer {
				t.Fatalf("untrusted peer %v: client %v", peer, got)
			}
			return
		}
		if got == peer {
			return
		}
		hops := forwardedFor([]string{xff})
		for i := len(hops) - 1; i >= 0; i-- {
			ip, err := netip.ParseAddr(hops[i])
			if err != nil {
				t.Fatalf("client %v from beyond an unparsable hop %q", got, hops[i])
			}
			if ip.Unmap() == got {
				return
			}
			if !isTrusted(ip.Unmap(), trusted) {
				t.Fatalf("client %v is left of the untrusted hop %v", got, ip)
			}
		}
		t.Fatalf("client %v is neither the peer nor a hop", got)
	})
}

// TestWebhookHeaderAttackBehindProxy: behind a trusted proxy (every
// connection from 127.0.0.1), 24 connections send their headers and no
// body, naming a spoofed GitHub address left of the proxy's own hop;
// genuine signed deliveries through the same proxy are all read. Its
// negative control trusts no proxy, as the edge once did: every sender has
// the proxy's address and the genuine deliveries are refused 429.
func TestWebhookHeaderAttackBehindProxy(t *testing.T) {
	body := []byte(`{"zen":"Design for failure."}`)
	for _, tt := range []struct {
		name    string
		proxies []netip.Prefix
		want    map[int]int
	}{
		{"trusted proxy", []netip.Prefix{mustPrefix("127.0.0.1/32")}, map[int]int{http.StatusAccepted: 8}},
		{"broken: no trusted proxy", nil, map[int]int{http.StatusTooManyRequests: 8}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newEdge(&memQueue{})
			h.admit.proxies = tt.proxies
			for i := range 24 {
				pr, pw := io.Pipe()
				defer pw.CloseWithError(io.ErrUnexpectedEOF)
				req := httptest.NewRequest(http.MethodPost, "/webhook", pr)
				req.ContentLength = MaxPayload
				req.RemoteAddr = fmt.Sprintf("127.0.0.1:%d", 5000+i)
				req.Header.Set("X-Forwarded-For", "140.82.115.9, 198.51.100.66")
				go h.ServeHTTP(httptest.NewRecorder(), req)
			}
			waitGauge(t, h, DefaultPerClient)
			got := map[int]int{}
			var mu sync.Mutex
			var wg sync.WaitGroup
			for i := range 8 {
				wg.Go(func() {
					req := signed("ping", fmt.Sprintf("genuine-%d", i), sign("current", body), body)
					req.RemoteAddr = "127.0.0.1:6000"
					req.Header.Set("X-Forwarded-For", "140.82.115.9")
					rec := httptest.NewRecorder()
					h.ServeHTTP(rec, req)
					mu.Lock()
					got[rec.Code]++
					mu.Unlock()
				})
			}
			wg.Wait()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("genuine deliveries beside 24 header-only senders, by status (-want +got):\n%s", diff)
			}
		})
	}
}

// waitGauge waits until n bodies are being read.
func waitGauge(t *testing.T, h *testEdge, n float64) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); h.sink.gauge() < n; {
		if time.Now().After(deadline) {
			t.Fatalf("unverified bodies %v, want %v", h.sink.gauge(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
