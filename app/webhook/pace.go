package webhook

import (
	"errors"
	"net/http"
	"os"
	"time"
)

// The minimum transfer rate of a webhook body (docs/app.md, "Endpoints"),
// over a sliding window: every rateWindow of the body's transfer, counted
// from the request's start, must bring at least minRate × rateWindow bytes
// (64 KiB) until the body ends, and the body must be complete within
// bodyTimeout. Bytes sent ahead buy no idle time: a sender that sends
// 6 MiB at once and then idles is cut off rateWindow after its last
// 64 KiB, not after what its average would allow. GitHub sends a 25 MB
// payload in well under its own 10 s timeout, megabytes a second; a
// sender at 1 byte a second is cut off rateWindow after it connected.
const (
	rateWindow  = 2 * time.Second
	minRate     = 32 << 10 // bytes per second
	bodyTimeout = 60 * time.Second
)

// rateGrace is how long a body may take to start: one window.
const rateGrace = rateWindow

// windowBytes is what every window must bring.
const windowBytes = minRate * int64(rateWindow/time.Second)

// Progress is what a pace rule sees of a body so far: when its request
// began, how many bytes it has brought and when they came.
type Progress struct {
	// Start is when the request began.
	Start time.Time
	// Received is how many bytes of the body have arrived.
	Received int64
	// arrivals are (time, bytes received by then) after each read that
	// brought bytes, oldest first, trimmed to those the window rule needs.
	arrivals []arrival
}

type arrival struct {
	at       time.Time
	received int64
}

// ReachedAt is when the body had first brought more than n bytes: Start
// when n is negative, and the zero time when it has not yet.
func (p Progress) ReachedAt(n int64) time.Time {
	if n < 0 {
		return p.Start
	}
	for _, a := range p.arrivals {
		if a.received > n {
			return a.at
		}
	}
	return time.Time{}
}

// arrivalGranule is the least a kept arrival adds to the one before it:
// reads that bring less are merged into the latest arrival, which only
// ever answers ReachedAt later (more leniently), by at most the time such
// reads took. A sender of one-byte writes then costs 18 arrivals, not
// 64 Ki.
const arrivalGranule = 4 << 10

// add records that the body has received bytes by now, dropping the
// arrivals the window rule can no longer ask about.
func (p *Progress) add(now time.Time, received int64) {
	p.Received = received
	if n := len(p.arrivals); n >= 2 && received-p.arrivals[n-2].received < arrivalGranule {
		p.arrivals[n-1] = arrival{now, received}
	} else {
		p.arrivals = append(p.arrivals, arrival{now, received})
	}
	floor := received - windowBytes
	drop := 0
	for p.arrivals[drop].received <= floor {
		drop++
	}
	p.arrivals = p.arrivals[drop:]
}

// windowDeadline is the App's rule: the time by which the body must bring
// more. The window that ends then would otherwise hold less than
// windowBytes: it began when the body had brought its last windowBytes.
func windowDeadline(p Progress) time.Time {
	d := p.ReachedAt(p.Received - windowBytes).Add(rateWindow)
	if end := p.Start.Add(bodyTimeout); end.Before(d) {
		return end
	}
	return d
}

// pacer enforces a rate rule on one request body through its connection's
// read deadline, so a stalled read ends when the rule is broken rather
// than when the sender pleases. Where the connection has no deadlines (a
// test's recorder), the rule is checked after each read instead.
type pacer struct {
	rc       *http.ResponseController
	progress Progress
	rule     func(Progress) time.Time
	deadline time.Time
	// unsupported is set once the connection refused a deadline.
	unsupported bool
}

func newPacer(w http.ResponseWriter, rule func(Progress) time.Time) *pacer {
	if rule == nil {
		rule = windowDeadline
	}
	return &pacer{rc: http.NewResponseController(w), progress: Progress{Start: time.Now()}, rule: rule}
}

// arm sets the deadline of the next read after received bytes.
func (p *pacer) arm(received int64) {
	if received > p.progress.Received {
		p.progress.add(time.Now(), received)
	}
	p.deadline = p.rule(p.progress)
	if !p.unsupported && p.rc.SetReadDeadline(p.deadline) != nil {
		p.unsupported = true
	}
}

// tooSlow reports whether a read that ended with err (nil included) broke
// the rule.
func (p *pacer) tooSlow(err error) bool {
	return errors.Is(err, os.ErrDeadlineExceeded) || time.Now().After(p.deadline)
}

// finish lifts the deadline once the body is read, so the server's own
// reads after the request are not cut short; cut ends reading at once, so
// the server does not wait on the rest of a body the edge refused.
func (p *pacer) finish() { p.rc.SetReadDeadline(time.Time{}) }

func (p *pacer) cut() { p.rc.SetReadDeadline(time.Now()) }
