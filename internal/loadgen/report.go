package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"sync"
	"time"
)

// Report is what one run measured.
type Report struct {
	mu sync.Mutex
	// Sent is how many deliveries were sent; Took how long sending and
	// answering took.
	Sent int
	Took time.Duration
	// OK counts 2xx answers, Status the other statuses, Errors the
	// deliveries that got no answer (refused connection, timeout).
	OK     int
	Status map[int]int
	Errors int
	// FirstErr is one of the errors, for the message.
	FirstErr string
	// Latencies are every answered delivery's, sorted once done.
	Latencies []time.Duration
}

func newReport(n int) *Report {
	return &Report{Status: map[int]int{}, Latencies: make([]time.Duration, 0, n)}
}

// add records one delivery's outcome.
func (r *Report) add(status int, err error, lat time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Sent++
	switch {
	case err != nil:
		r.Errors++
		if r.FirstErr == "" {
			r.FirstErr = err.Error()
		}
		return
	case status >= 200 && status < 300:
		r.OK++
	default:
		r.Status[status]++
	}
	r.Latencies = append(r.Latencies, lat)
}

func (r *Report) done(took time.Duration) *Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Took = took
	slices.Sort(r.Latencies)
	return r
}

// Quantile is the q-quantile (0 ≤ q ≤ 1) of the answered deliveries'
// latencies, 0 when none was answered.
func (r *Report) Quantile(q float64) time.Duration {
	if len(r.Latencies) == 0 {
		return 0
	}
	i := int(q * float64(len(r.Latencies)))
	return r.Latencies[min(i, len(r.Latencies)-1)]
}

// Print writes the report: the counts, then the latencies.
func (r *Report) Print(w io.Writer) {
	fmt.Fprintf(w, "sent %d in %v (%.0f/s)\n", r.Sent, r.Took.Round(time.Millisecond), float64(r.Sent)/r.Took.Seconds())
	fmt.Fprintf(w, "2xx %d  other %d  errors %d\n", r.OK, r.other(), r.Errors)
	for _, s := range slices.Sorted(maps.Keys(r.Status)) {
		fmt.Fprintf(w, "  status %d: %d\n", s, r.Status[s])
	}
	if r.FirstErr != "" {
		fmt.Fprintf(w, "  first error: %s\n", r.FirstErr)
	}
	rd := func(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }
	fmt.Fprintf(w, "latency p50 %v  p90 %v  p99 %v  max %v\n",
		rd(r.Quantile(0.50)), rd(r.Quantile(0.90)), rd(r.Quantile(0.99)), rd(r.Quantile(1)))
}

// other counts the non-2xx answers.
func (r *Report) other() int {
	n := 0
	for _, c := range r.Status {
		n += c
	}
	return n
}
