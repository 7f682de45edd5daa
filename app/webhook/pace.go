package webhook

import (
	"errors"
	"net/http"
	"os"
	"time"
)

// The minimum transfer rate of a webhook body (docs/app.md, "Endpoints"):
// a body may take rateGrace to start, after which it must keep arriving at
// minRate or faster on average, counted from the end of the grace, and it
// must be complete within bodyTimeout. GitHub sends a 25 MB payload in well
// under its own 10 s timeout, megabytes a second; a sender at 1 byte a
// second is cut off about rateGrace after it connected.
const (
	rateGrace   = 2 * time.Second
	minRate     = 32 << 10 // bytes per second
	bodyTimeout = 60 * time.Second
)

// rateDeadline is the App's rule: the time by which a body that began at
// start and has brought received bytes must bring more.
func rateDeadline(start time.Time, received int64) time.Time {
	d := rateGrace + time.Duration(received)*time.Second/minRate
	return start.Add(min(d, bodyTimeout))
}

// pacer enforces a rate rule on one request body through its connection's
// read deadline, so a stalled read ends when the rule is broken rather
// than when the sender pleases. Where the connection has no deadlines (a
// test's recorder), the rule is checked after each read instead.
type pacer struct {
	rc       *http.ResponseController
	start    time.Time
	rule     func(start time.Time, received int64) time.Time
	deadline time.Time
	// unsupported is set once the connection refused a deadline.
	unsupported bool
}

func newPacer(w http.ResponseWriter, rule func(time.Time, int64) time.Time) *pacer {
	if rule == nil {
		rule = rateDeadline
	}
	return &pacer{rc: http.NewResponseController(w), start: time.Now(), rule: rule}
}

// arm sets the deadline of the next read after received bytes.
func (p *pacer) arm(received int64) {
	p.deadline = p.rule(p.start, received)
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
