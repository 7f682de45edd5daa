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
	// Seconds are the answered deliveries' latencies by the second of the
	// run each was due in, sorted once done.
	Seconds [][]time.Duration
}

func newReport(n int) *Report {
	return &Report{Status: map[int]int{}, Latencies: make([]time.Duration, 0, n)}
}

// add records the outcome of one delivery, due at offset into the run.
func (r *Report) add(offset time.Duration, status int, err error, lat time.Duration) {
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
	sec := int(offset / time.Second)
	for len(r.Seconds) <= sec {
		r.Seconds = append(r.Seconds, nil)
	}
	r.Seconds[sec] = append(r.Seconds[sec], lat)
}

func (r *Report) done(took time.Duration) *Report {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Took = took
	slices.Sort(r.Latencies)
	for _, s := range r.Seconds {
		slices.Sort(s)
	}
	return r
}

// Quantile is the q-quantile (0 ≤ q ≤ 1) of the answered deliveries'
// latencies, 0 when none was answered.
func (r *Report) Quantile(q float64) time.Duration { return quantile(r.Latencies, q) }

// quantile is the q-quantile of sorted latencies, 0 of none.
func quantile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q * float64(len(sorted)))
	return sorted[min(i, len(sorted)-1)]
}

// PrintSeconds writes one line per second of the run: how many of the
// deliveries due in it were answered, and their p50, p99 and maximum, so
// that a stall shows where it happened.
func (r *Report) PrintSeconds(w io.Writer) {
	for i, s := range r.Seconds {
		fmt.Fprintf(w, "second %3d  answered %5d  p50 %v  p99 %v  max %v\n", i, len(s),
			rd(quantile(s, 0.50)), rd(quantile(s, 0.99)), rd(quantile(s, 1)))
	}
}

// rd rounds a latency for printing.
func rd(d time.Duration) time.Duration { return d.Round(10 * time.Microsecond) }

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
