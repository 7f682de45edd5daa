package gh

import (
	"net/http"
	"strconv"
	"time"
)

// primaryState is the primary limit of one resource ("core", "graphql")
// as GitHub's last answer gave it, less the calls sent since.
type primaryState struct {
	limit, remaining int
	reset            time.Time
	known            bool
}

func resourceOf(c callCost) string {
	if c.graphql {
		return "graphql"
	}
	return "core"
}

func (b *budget) primaryOf(c callCost) *primaryState {
	r := resourceOf(c)
	st := b.primary[r]
	if st == nil {
		st = &primaryState{}
		b.primary[r] = st
	}
	return st
}

// learnPrimary takes the x-ratelimit-* headers of an answer: a later reset
// starts a new window; within one, the lower remaining count wins (calls
// still in flight were counted when they left).
func (b *budget) learnPrimary(c callCost, h http.Header) {
	remaining, err1 := strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	limit, err2 := strconv.Atoi(h.Get("X-RateLimit-Limit"))
	reset, err3 := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return
	}
	if r := h.Get("X-RateLimit-Resource"); r == "graphql" {
		c.graphql = true
	}
	st, at := b.primaryOf(c), time.Unix(reset, 0)
	switch {
	case !st.known || at.After(st.reset):
		st.remaining = remaining
	case remaining < st.remaining:
		st.remaining = remaining
	}
	st.limit, st.reset, st.known = limit, at, true
}

// primaryHeld reports whether the primary limit holds w back, and until
// when: fan-out and background calls keep the headroom for the others,
// which keep a hundredth.
func (b *budget) primaryHeld(w *waiter, now time.Time) (time.Time, bool) {
	st := b.primary[resourceOf(w.cost)]
	if st == nil || !st.known || !now.Before(st.reset) {
		return time.Time{}, false
	}
	reserve := float64(st.limit) / 100
	if w.prio <= PriorityFanout {
		reserve = float64(st.limit) * b.headroom
	}
	if float64(st.remaining) > reserve {
		return time.Time{}, false
	}
	return st.reset, true
}

// hold is why a waiter may not leave yet.
type hold int

const (
	holdNone   hold = iota
	holdAll         // a limit every call spends
	holdWrites      // write pacing only: reads may pass
)

// gate reports whether w may leave now and, when not, what holds it and
// when to look again (zero: when a call in flight ends).
func (b *budget) gate(w *waiter, now time.Time) (hold, time.Time) {
	if now.Before(b.paused) {
		return holdAll, b.paused
	}
	if at, held := b.primaryHeld(w, now); held {
		return holdAll, at
	}
	if b.inflight >= b.concurrency {
		return holdAll, time.Time{}
	}
	if ok, at := b.windowOf(w.cost).admit(now, w.cost.points); !ok {
		return holdAll, at
	}
	if !w.cost.write {
		return holdNone, time.Time{}
	}
	if b.writing {
		return holdWrites, time.Time{}
	}
	if next := b.lastWrite.Add(b.writePause); now.Before(next) {
		return holdWrites, next
	}
	if !w.cost.content {
		return holdNone, time.Time{}
	}
	if ok, at := b.contentM.admit(now, 1); !ok {
		return holdWrites, at
	}
	if ok, at := b.contentH.admit(now, 1); !ok {
		return holdWrites, at
	}
	return holdNone, time.Time{}
}

// dispatch lets every waiter go that may, highest priority first; callers
// hold mu. A waiter held by a limit all calls spend holds everyone behind
// it; one held by write pacing holds the writes behind it only.
func (b *budget) dispatch() {
	now := b.clock.Now()
	var wake time.Time
	writesHeld := false
	for p := priorities - 1; p >= 0; p-- {
		q := b.queues[p]
		kept := q[:0]
		for i, w := range q {
			if writesHeld && w.cost.write {
				kept = append(kept, w)
				continue
			}
			h, at := b.gate(w, now)
			wake = earliest(wake, at)
			switch h {
			case holdNone:
				b.grant(w, now)
				continue
			case holdWrites:
				writesHeld = true
				kept = append(kept, w)
				continue
			}
			b.queues[p] = append(kept, q[i:]...)
			b.arm(wake, now)
			return
		}
		b.queues[p] = kept
	}
	b.arm(wake, now)
}

func (b *budget) grant(w *waiter, now time.Time) {
	b.charge(w.cost, 1)
	w.granted = true
	close(w.ready)
	if b.obs != nil {
		b.obs.BudgetWaited(w.prio, now.Sub(w.since))
	}
}

func earliest(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// arm sets a timer to dispatch again at wake, unless one is set as early.
func (b *budget) arm(wake, now time.Time) {
	if wake.IsZero() || (!b.timerAt.IsZero() && !wake.Before(b.timerAt) && b.timerAt.After(now)) {
		return
	}
	b.timerAt = wake
	b.clock.AfterFunc(wake.Sub(now), func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		if !b.timerAt.After(b.clock.Now()) {
			b.timerAt = time.Time{}
		}
		b.dispatch()
	})
}
