package webhook

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// frontLoadDuration is how long TestWebhookFrontLoadingAttack attacks; the
// issue's measurement ran 65 s (-frontload-duration 65s).
var frontLoadDuration = flag.Duration("frontload-duration", 5*time.Second, "how long TestWebhookFrontLoadingAttack attacks")

// TestWebhookFrontLoadingAttack is the front-loading attack, scaled
// to a 16 MiB budget: sixteen connections from one address (127.0.0.2),
// each declaring 25 MiB, sending 1 MiB at once and then idling,
// reconnecting whenever the edge cuts them, beside a genuine signed sender
// at 5 a second from another address (127.0.0.3). The genuine sender is
// never refused. Its negative control is the edge as it was: no
// per-address cap and the pace averaged from the request's start, so the
// sixteen hold the budget and the genuine deliveries are refused 503.
func TestWebhookFrontLoadingAttack(t *testing.T) {
	bodies := realisticBodies(t)
	for _, tt := range []struct {
		name   string
		broken bool
	}{
		{"fair budgets", false},
		{"broken: no per-address cap, average pace", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newEdge(&memQueue{})
			h.admit.budget = newByteBudget(16<<20, false)
			if tt.broken {
				h.admit.budget.perAddr = math.MaxInt64
				h.opts.Rate = averageDeadline
			}
			base := serve(t, h)
			ctx, cancel := context.WithCancel(context.Background())
			var attackers sync.WaitGroup
			var cuts atomic.Int64
			for range 16 {
				// 16 of them hold all of the budget but 16 KiB, less
				// than a genuine delivery.
				attackers.Go(func() { frontLoader(ctx, strings.TrimPrefix(base, "http://"), 1<<20-8-1<<10, &cuts) })
			}
			time.Sleep(300 * time.Millisecond) // the attack is on
			lat, codes := genuineSender(base, bodies, 5, *frontLoadDuration)
			cancel()
			attackers.Wait()
			refused := len(lat) - codes[http.StatusAccepted]
			slices.Sort(lat)
			p99 := lat[min(len(lat)*99/100, len(lat)-1)]
			t.Logf("%d genuine deliveries over %v beside 16 front-loaders (cut %d times): %d refused (%v), ack p50 %v, p99 %v",
				len(lat), *frontLoadDuration, cuts.Load(), refused, codes, lat[len(lat)/2].Round(10*time.Microsecond), p99.Round(10*time.Microsecond))
			if !tt.broken {
				if refused != 0 {
					t.Errorf("%d of %d genuine deliveries refused, want 0", refused, len(lat))
				}
				// The 50 ms p99 aimed at is measured apart (docs/app.md);
				// here a delivery answered after GitHub's timeout would be
				// lost as one refused.
				if slowest := lat[len(lat)-1]; slowest >= githubTimeout {
					t.Errorf("slowest acknowledgement %v, past GitHub's %v timeout: that delivery is lost", slowest, githubTimeout)
				}
			} else if refused < len(lat)/2 {
				t.Errorf("negative control: %d of %d genuine deliveries refused, want most", refused, len(lat))
			}
		})
	}
}

// frontLoader declares a 25 MiB body, sends n bytes of it at once and
// idles until the edge cuts the connection, then reconnects 50 ms later,
// until ctx ends; every cut is counted. (The attacker averaged
// 1.54 MiB/s; reconnecting at once only burns the test machine's CPU.)
func frontLoader(ctx context.Context, addr string, n int, cuts *atomic.Int64) {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
	head := fmt.Sprintf("POST /webhook HTTP/1.1\r\nHost: %s\r\nContent-Length: %d\r\nX-GitHub-Event: push\r\nX-GitHub-Delivery: ahead\r\nX-Hub-Signature-256: sha256=%s\r\n\r\n{\"pad\":\"%s",
		addr, MaxPayload, strings.Repeat("0", 64), strings.Repeat("x", n))
	buf := make([]byte, 4096)
	for ctx.Err() == nil {
		c, err := d.DialContext(ctx, "tcp", addr)
		if err != nil {
			return
		}
		stop := context.AfterFunc(ctx, func() { c.Close() })
		if _, err := c.Write([]byte(head)); err == nil {
			for err == nil {
				_, err = c.Read(buf) // the answer, then the close
			}
		}
		stop()
		c.Close()
		if ctx.Err() == nil {
			cuts.Add(1)
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// genuineSender posts signed pull_request deliveries at rate a second for
// d from 127.0.0.3 and returns their latencies and the count of each
// status (0: no answer).
func genuineSender(base string, bodies [][]byte, rate int, d time.Duration) ([]time.Duration, map[int]int) {
	client := clientFrom("127.0.0.3")
	every := time.Second / time.Duration(rate)
	n := int(d / every)
	lat := make([]time.Duration, n)
	status := make([]int, n)
	var wg sync.WaitGroup
	tick := time.NewTicker(every)
	defer tick.Stop()
	for i := range n {
		<-tick.C
		wg.Go(func() {
			body := bodies[i%len(bodies)]
			req, _ := http.NewRequest(http.MethodPost, base+"/webhook", bytes.NewReader(body))
			req.Header.Set("X-GitHub-Event", "pull_request")
			req.Header.Set("X-GitHub-Delivery", fmt.Sprintf("genuine-%d", i))
			req.Header.Set("X-Hub-Signature-256", sign("current", body))
			start := time.Now()
			resp, err := client.Do(req)
			lat[i] = time.Since(start)
			if err == nil {
				resp.Body.Close()
				status[i] = resp.StatusCode
			}
		})
	}
	wg.Wait()
	codes := map[int]int{}
	for _, s := range status {
		codes[s]++
	}
	return lat, codes
}
