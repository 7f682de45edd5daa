package webhook

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"slices"
	"testing"
	"time"
)

// TestHookCache: nothing is known before a first read; a read sets the
// ranges; a failed read reports false and keeps the last list.
func TestHookCache(t *testing.T) {
	github := netip.MustParseAddr("140.82.115.1")
	reads := []struct {
		prefixes []netip.Prefix
		err      error
	}{
		{[]netip.Prefix{mustPrefix("140.82.112.0/20")}, nil},
		{nil, errors.New("GET /meta: 502")},
	}
	i := 0
	h := &HookCache{Read: func(context.Context) ([]netip.Prefix, error) {
		r := reads[i]
		i++
		return r.prefixes, r.err
	}}
	if h.Known() || h.Contains(github) {
		t.Fatal("ranges known before a first read")
	}
	for _, step := range []struct {
		name      string
		ok, known bool
	}{
		{"first read", true, true},
		{"failed read keeps the list", false, true},
	} {
		if got := h.Refresh(context.Background(), time.Second); got != step.ok {
			t.Errorf("%s: Refresh = %v, want %v", step.name, got, step.ok)
		}
		if h.Known() != step.known || h.Contains(github) != step.known || h.Contains(netip.MustParseAddr("10.0.0.1")) {
			t.Errorf("%s: known %v, contains GitHub %v; want %v", step.name, h.Known(), h.Contains(github), step.known)
		}
	}
}

// TestHookCacheConfigured: on GitHub Enterprise Server, whose GET /meta
// lists no hook ranges, the addresses the operator configures are known
// as GitHub's from the start and after each read; others are not.
func TestHookCacheConfigured(t *testing.T) {
	ghes := netip.MustParseAddr("10.20.0.7")
	h := &HookCache{Configured: []netip.Prefix{mustPrefix("10.20.0.0/24")},
		Read: func(context.Context) ([]netip.Prefix, error) { return nil, nil }}
	for _, step := range []string{"before a read", "after a read listing none"} {
		if !h.Known() || !h.Contains(ghes) || h.Contains(netip.MustParseAddr("10.20.1.7")) {
			t.Errorf("%s: known %v, contains GHES %v, contains another %v; want true, true, false",
				step, h.Known(), h.Contains(ghes), h.Contains(netip.MustParseAddr("10.20.1.7")))
		}
		h.Refresh(context.Background(), time.Second)
	}
}

// TestWebhookConfiguredHookAddress: four signed 3 MiB deliveries held at
// once from a GitHub Enterprise Server whose address the operator
// configured are all accepted, out of a 16 MiB budget whose per-address
// cap is 4 MiB. Its negative control configures nothing, as GHES's
// GET /meta gives nothing: the cap applies to GitHub's own address and
// some of the four are refused 503.
func TestWebhookConfiguredHookAddress(t *testing.T) {
	body := bigPush(3 << 20)
	for _, tt := range []struct {
		name       string
		configured []netip.Prefix
		wantBusy   bool
	}{
		{"configured", []netip.Prefix{mustPrefix("10.20.0.7/32")}, false},
		{"negative control: none configured", nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			hooks := &HookCache{Configured: tt.configured, Read: func(context.Context) ([]netip.Prefix, error) { return nil, nil }}
			hooks.Refresh(context.Background(), time.Second)
			h, err := New(Config{Secrets: [][]byte{[]byte("current")}, Queue: &memQueue{}, Handled: testHandled,
				Views: testViews, Budget: 16 << 20, Hooks: hooks})
			if err != nil {
				t.Fatal(err)
			}
			var held []func() int
			for i := range 4 {
				held = append(held, heldDelivery(h, fmt.Sprintf("10.20.0.7:%d", 4000+i), fmt.Sprint("ghes-", i), body, 5<<19))
			}
			var codes []int
			for _, finish := range held {
				codes = append(codes, finish())
			}
			busy := slices.Contains(codes, http.StatusServiceUnavailable)
			if busy != tt.wantBusy || (!busy && slices.ContainsFunc(codes, func(c int) bool { return c != http.StatusAccepted })) {
				t.Errorf("four 3 MiB deliveries from GHES's address: %v, want all 202 unless refused busy (%v)", codes, tt.wantBusy)
			}
		})
	}
}

// heldDelivery posts a signed delivery of body from remote, sending its
// first n bytes now (or until the edge answers); finish sends the rest
// and returns the edge's answer.
func heldDelivery(h http.Handler, remote, id string, body []byte, n int) func() int {
	pr, pw := io.Pipe()
	req := signed("push", id, sign("current", body), nil)
	req.Body, req.ContentLength, req.RemoteAddr = pr, int64(len(body)), remote
	done := make(chan int, 1)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		pr.CloseWithError(io.ErrUnexpectedEOF)
		done <- rec.Code
	}()
	if _, err := pw.Write(body[:n]); err != nil {
		return func() int { return <-done }
	}
	return func() int {
		go func() {
			pw.Write(body[n:])
			pw.Close()
		}()
		return <-done
	}
}
