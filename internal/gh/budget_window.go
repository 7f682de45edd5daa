package gh

import "time"

// window counts what was spent in the last span: calls in flight always
// count, finished ones from when their answer came (GitHub counted them
// at some moment before that, so the window never forgets one early).
type window struct {
	span     time.Duration
	cap      int // what may be spent within span (after headroom); 0: no cap
	inflight int
	done     []spent // finished, oldest first
	sum      int     // total of done
}

type spent struct {
	at     time.Time
	amount int
}

// trim forgets what finished a whole span before now.
func (w *window) trim(now time.Time) {
	i := 0
	for i < len(w.done) && !now.Before(w.done[i].at.Add(w.span)) {
		w.sum -= w.done[i].amount
		i++
	}
	if i > 0 {
		w.done = append(w.done[:0], w.done[i:]...)
	}
}

// admit reports whether n more fits now; when not, the time it will (zero
// when only calls in flight finishing can make room).
func (w *window) admit(now time.Time, n int) (bool, time.Time) {
	if w.cap <= 0 || n == 0 {
		return true, time.Time{}
	}
	w.trim(now)
	over := w.inflight + w.sum + n - w.cap
	if over <= 0 {
		return true, time.Time{}
	}
	for _, s := range w.done {
		over -= s.amount
		if over <= 0 {
			return false, s.at.Add(w.span)
		}
	}
	return false, time.Time{}
}

// start counts n in flight.
func (w *window) start(n int) { w.inflight += n }

// finish moves n from in flight to finished at now.
func (w *window) finish(now time.Time, n int) {
	if n == 0 {
		return
	}
	w.inflight -= n
	w.done = append(w.done, spent{at: now, amount: n})
	w.sum += n
}

// cancel takes back n in flight that never left.
func (w *window) cancel(n int) { w.inflight -= n }

// capOf is limit less headroom, at least 1 when limit is set.
func capOf(limit int, headroom float64) int {
	if limit <= 0 {
		return 0
	}
	return max(1, int(float64(limit)*(1-headroom)))
}
