package gh

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// tickClock moves a second forward on every reading, so a benchmark's
// calls never fill a minute's window and measure the scheduler alone.
type tickClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *tickClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Second)
	return c.now
}

func (c *tickClock) AfterFunc(d time.Duration, f func()) func() bool {
	return time.AfterFunc(0, f).Stop
}

// answerTransport answers every request 200 at once, with a primary
// limit that never runs out.
type answerTransport struct{}

func (answerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	h := http.Header{}
	h.Set("X-RateLimit-Limit", "1000000000")
	h.Set("X-RateLimit-Remaining", "1000000000")
	h.Set("X-RateLimit-Reset", "4102444800")
	h.Set("X-RateLimit-Resource", "core")
	return &http.Response{StatusCode: http.StatusOK, Header: h, Body: io.NopCloser(strings.NewReader("{}")), Request: req}, nil
}

// BenchmarkBudgetOverhead is the scheduler's cost per call: a read through
// the budget against one through the unpaced layer, serial and from many
// goroutines.
func BenchmarkBudgetOverhead(b *testing.B) {
	for _, bc := range []struct {
		name     string
		unpaced  bool
		parallel bool
	}{{"budget", false, false}, {"unpaced", true, false}, {"budget-parallel", false, true}, {"unpaced-parallel", true, true}} {
		b.Run(bc.name, func(b *testing.B) {
			rt := newBudget(answerTransport{}, BudgetOptions{Unpaced: bc.unpaced, Clock: &tickClock{}}, 0)
			req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "https://api.github.com/repos/o/r/issues/1", nil)
			call := func() {
				resp, err := rt.RoundTrip(req)
				if err != nil {
					b.Fatal(err)
				}
				resp.Body.Close()
			}
			b.ReportAllocs()
			if !bc.parallel {
				for b.Loop() {
					call()
				}
				return
			}
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					call()
				}
			})
		})
	}
}
