package gh

import (
	"errors"
	"net/http"
	"sync"
	"time"
)

// budget is one installation's scheduler: every call of the installation's
// clients waits here until GitHub's limits (github-facts §3.4), less
// headroom, allow it, highest priority first and in arrival order within a
// priority. Reads may pass writes held only by write pacing (serial writes
// WritePause apart, content creation per minute and hour), which reads do
// not spend; anything else holds every call behind it. Nothing is dropped:
// a call leaves the queue to be sent, or when its context ends.
type budget struct {
	base        http.RoundTripper
	clock       Clock
	obs         BudgetObserver
	unpaced     bool
	writePause  time.Duration
	concurrency int
	headroom    float64

	mu        sync.Mutex
	queues    [priorities][]*waiter
	inflight  int
	writing   bool      // a write is in flight (writes are serial)
	lastWrite time.Time // when the last write's answer came
	rest      endpoints // REST points per minute, by endpoint
	graph     window    // GraphQL points per minute
	contentM  window    // content creation per minute
	contentH  window    // content creation per hour
	primary   map[string]*primaryState
	paused    time.Time     // no call leaves before (a secondary limit's answer)
	backoff   time.Duration // the fallback pause, doubled on each refusal without Retry-After
	timerAt   time.Time
}

// waiter is one call waiting for the budget.
type waiter struct {
	cost    callCost
	prio    Priority
	since   time.Time
	ready   chan struct{}
	granted bool
}

// newBudget is a scheduler in front of base.
func newBudget(base http.RoundTripper, o BudgetOptions, writePause time.Duration) *budget {
	lim := o.Limits
	if lim == (Limits{}) {
		lim = GitHubLimits()
	}
	h := o.Headroom
	switch {
	case h == 0:
		h = DefaultHeadroom
	case h < 0 || h >= 1:
		h = 0
	}
	conc := o.Concurrency
	if conc <= 0 {
		conc = DefaultConcurrency
	}
	if c := capOf(lim.Concurrent, h); c > 0 {
		conc = min(conc, c)
	}
	clock := o.Clock
	if clock == nil {
		clock = wallClock{}
	}
	return &budget{
		base: base, clock: clock, obs: o.Observer, unpaced: o.Unpaced, writePause: writePause,
		concurrency: conc, headroom: h, primary: map[string]*primaryState{},
		rest:     endpoints{cap: capOf(lim.RESTPointsPerMinute, h), by: map[string]*window{}},
		graph:    window{span: time.Minute, cap: capOf(lim.GraphQLPointsPerMinute, h)},
		contentM: window{span: time.Minute, cap: capOf(lim.ContentPerMinute, h)},
		contentH: window{span: time.Hour, cap: capOf(lim.ContentPerHour, h)},
	}
}

// RoundTrip waits for the budget, sends req and learns from the answer.
func (b *budget) RoundTrip(req *http.Request) (*http.Response, error) {
	c := costOf(req)
	if b.unpaced {
		resp, err := b.base.RoundTrip(req)
		b.mu.Lock()
		b.learn(c, resp, err, b.clock.Now())
		b.mu.Unlock()
		return resp, err
	}
	w, err := b.acquire(req, c)
	if err != nil {
		return nil, err
	}
	resp, err := b.base.RoundTrip(req)
	b.release(w, resp, err)
	return resp, err
}

// acquire queues a call and waits until it may leave or its context ends.
func (b *budget) acquire(req *http.Request, c callCost) (*waiter, error) {
	ctx := req.Context()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w := &waiter{cost: c, prio: PriorityOf(ctx), ready: make(chan struct{})}
	b.mu.Lock()
	w.since = b.clock.Now()
	b.queues[w.prio] = append(b.queues[w.prio], w)
	b.dispatch()
	b.mu.Unlock()
	select {
	case <-w.ready:
		return w, nil
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if w.granted {
		b.charge(w.cost, -1)
	} else {
		b.remove(w)
	}
	b.dispatch()
	return nil, ctx.Err()
}

// release books a finished call and lets the next ones go.
func (b *budget) release(w *waiter, resp *http.Response, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.clock.Now()
	b.inflight--
	if w.cost.write {
		b.writing, b.lastWrite = false, now
	}
	b.windowOf(w.cost).finish(now, w.cost.points)
	if w.cost.content {
		b.contentM.finish(now, 1)
		b.contentH.finish(now, 1)
	}
	b.learn(w.cost, resp, err, now)
	b.dispatch()
}

// learn reads the primary limit from resp and the pause a rate-limit
// refusal asks for (Retry-After; else, with the primary limit spent, its
// reset; else a minute, doubling while refusals go on: github-facts §3.4).
func (b *budget) learn(c callCost, resp *http.Response, err error, now time.Time) {
	if resp != nil {
		b.learnPrimary(c, resp.Header)
		b.backoff = 0
		return
	}
	var rl *RateLimitError
	if !errors.As(err, &rl) {
		return
	}
	switch {
	case rl.RetryAfter > 0:
		b.pause(now.Add(rl.RetryAfter))
		b.refused("secondary")
	case !rl.Reset.IsZero():
		st := b.primaryOf(c)
		st.remaining, st.reset, st.known = 0, rl.Reset, true
		b.refused("primary")
	default:
		b.backoff = max(time.Minute, 2*b.backoff)
		b.pause(now.Add(b.backoff))
		b.refused("secondary")
	}
}

func (b *budget) pause(until time.Time) {
	if until.After(b.paused) {
		b.paused = until
	}
}

func (b *budget) refused(kind string) {
	if b.obs != nil {
		b.obs.BudgetRefused(kind)
	}
}

// remove takes a waiter that never left out of its queue.
func (b *budget) remove(w *waiter) {
	q := b.queues[w.prio]
	for i, x := range q {
		if x == w {
			b.queues[w.prio] = append(q[:i], q[i+1:]...)
			return
		}
	}
}

func (b *budget) windowOf(c callCost) *window {
	if c.graphql {
		return &b.graph
	}
	return b.rest.of(c.endpoint)
}

// charge books (sign 1) or takes back (sign -1) a call leaving.
func (b *budget) charge(c callCost, sign int) {
	b.inflight += sign
	if c.write {
		b.writing = sign > 0
	}
	win := b.windowOf(c)
	if sign > 0 {
		win.start(c.points)
	} else {
		win.cancel(c.points)
	}
	if c.content {
		b.contentM.inflight += sign
		b.contentH.inflight += sign
	}
	if st := b.primary[resourceOf(c)]; st != nil {
		st.remaining -= sign
	}
}
