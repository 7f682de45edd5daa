package redeliver

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// missed is one event the log shows undelivered: its GUID, the newest
// failed attempt's ID (the one asked for again) and its first attempt's
// time.
type missed struct {
	guid  string
	id    int64
	first time.Time
}

// Run reads the log back to where the last complete run ended and asks
// GitHub to redeliver what the edge missed; it logs one line and tells the
// observer. Errors are logged and returned; the next run tries again.
func (r *Redeliverer) Run(ctx context.Context) (Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	res, err := r.run(ctx)
	r.report(res, err)
	return res, err
}

func (r *Redeliverer) run(ctx context.Context) (Result, error) {
	var res Result
	now := r.now()
	if now.Before(r.notBefore) {
		res.Skipped, res.Limited, res.Retry = true, true, r.notBefore
		return res, nil
	}
	recovered, err := r.recovered(ctx, now)
	res.Recovered = recovered
	if err != nil {
		return res, err
	}
	horizon, cutoff := now.Add(-Window), now.Add(-r.cfg.Grace)
	if r.since.After(horizon) {
		horizon = r.since
	}
	candidates, err := r.scan(ctx, horizon, cutoff, &res)
	if err != nil {
		return res, r.limited(err, now, &res)
	}
	missing, err := r.unrecorded(ctx, candidates)
	if err != nil {
		return res, err
	}
	res.Missing = len(missing)
	left, err := r.ask(ctx, missing, &res)
	if err != nil {
		return res, r.limited(err, now, &res)
	}
	switch {
	case !res.Complete:
	case len(left) > 0: // the bound: the next run starts at the oldest left
		r.since = left[0].first
	default:
		r.since = cutoff
	}
	return res, nil
}

// limited notes a rate limit's wait (no run starts before it ends) and
// returns err.
func (r *Redeliverer) limited(err error, now time.Time, res *Result) error {
	if wait, ok := gh.RetryWait(err, now); ok {
		r.notBefore = now.Add(wait)
		res.Limited, res.Retry = true, r.notBefore
	}
	return err
}

// scan reads the log from the newest page until an attempt older than
// horizon (or the log's end, or the page bound) and returns the events
// whose attempts up to cutoff all failed and none of which was a
// redelivery (asked before, by this process or another, or by hand), nor
// asked for by this process; oldest first.
func (r *Redeliverer) scan(ctx context.Context, horizon, cutoff time.Time, res *Result) ([]missed, error) {
	events := map[string]*event{}
	cursor := ""
	for res.Pages < r.cfg.MaxPages {
		page, next, err := r.log.HookDeliveries(ctx, cursor, perPage)
		if err != nil {
			return nil, fmt.Errorf("redeliver: %w", err)
		}
		res.Pages++
		for _, d := range page {
			if d.DeliveredAt.Before(horizon) {
				res.Complete = true
				break
			}
			if events[d.GUID] == nil {
				events[d.GUID] = &event{missed: missed{guid: d.GUID}}
			}
			events[d.GUID].add(d, cutoff)
		}
		if res.Complete || next == "" {
			res.Complete = true
			break
		}
		cursor = next
	}
	var out []missed
	for _, e := range events {
		if _, mine := r.asked[e.guid]; !e.ok && !e.asked && !mine && e.id != 0 {
			out = append(out, e.missed)
		}
	}
	slices.SortFunc(out, func(a, b missed) int { return a.first.Compare(b.first) })
	return out, nil
}

// event is what the log shows of one GUID's attempts: whether one
// succeeded (or may be under way), whether one was a redelivery.
type event struct {
	missed
	ok, asked bool
}

// add notes attempt d, the log being read newest first: the newest failed
// attempt is the one asked for again, the oldest gives the event's time.
func (e *event) add(d gh.HookDelivery, cutoff time.Time) {
	e.first = d.DeliveredAt
	e.asked = e.asked || d.Redelivery
	switch {
	case d.StatusCode >= 200 && d.StatusCode < 400: // GitHub's "success"
		e.ok = true
	case d.DeliveredAt.After(cutoff): // may still be under way
		e.ok = true
	case e.id == 0:
		e.id = d.ID
	}
}

// unrecorded keeps the candidates the edge has not recorded.
func (r *Redeliverer) unrecorded(ctx context.Context, candidates []missed) ([]missed, error) {
	if len(candidates) == 0 {
		return nil, nil
	}
	guids := make([]string, len(candidates))
	for i, c := range candidates {
		guids[i] = c.guid
	}
	known, err := r.recorded.RecordedDeliveries(ctx, guids)
	if err != nil {
		return nil, fmt.Errorf("redeliver: %w", err)
	}
	return slices.DeleteFunc(candidates, func(c missed) bool { return known[c.guid] }), nil
}

// ask asks GitHub to redeliver missing, oldest first, at most MaxRequests,
// pausing between requests, and returns those left for the next run. A
// rate limit ends the run (the rest wait for the next); another refusal is
// logged and that delivery counts as asked, so it is asked once, never in
// a loop.
func (r *Redeliverer) ask(ctx context.Context, missing []missed, res *Result) ([]missed, error) {
	for i, m := range missing {
		if i == r.cfg.MaxRequests {
			return missing[i:], nil
		}
		if i > 0 && r.cfg.Pause > 0 {
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("redeliver: %w", ctx.Err())
			case <-time.After(r.cfg.Pause):
			}
		}
		err := r.log.RedeliverHook(ctx, m.id)
		if _, limited := gh.RetryWait(err, r.now()); limited {
			return nil, fmt.Errorf("redeliver: %w", err)
		}
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("redeliver: %w", err)
			}
			r.logger.Warn("redelivery refused; not asked again", "guid", m.guid, "delivery_log_id", m.id, "err", err)
			res.Refused++
		} else {
			res.Requested++
		}
		r.asked[m.guid] = r.now()
	}
	return nil, nil
}

// recovered counts and forgets the GUIDs asked for that are recorded now;
// those asked longer ago than GitHub's window are forgotten uncounted.
func (r *Redeliverer) recovered(ctx context.Context, now time.Time) (int, error) {
	if len(r.asked) == 0 {
		return 0, nil
	}
	guids := make([]string, 0, len(r.asked))
	for g, at := range r.asked {
		if now.Sub(at) > Window {
			delete(r.asked, g)
			continue
		}
		guids = append(guids, g)
	}
	known, err := r.recorded.RecordedDeliveries(ctx, guids)
	if err != nil {
		return 0, fmt.Errorf("redeliver: %w", err)
	}
	for g := range known {
		delete(r.asked, g)
	}
	return len(known), nil
}

// report logs the run's line (info when it found, asked for or recovered
// something, debug otherwise) and tells the observer.
func (r *Redeliverer) report(res Result, err error) {
	r.observe(Outcome(res, err), res.Missing, res.Requested, res.Refused, res.Recovered)
	attrs := []any{"missing", res.Missing, "requested", res.Requested, "refused", res.Refused, "recovered", res.Recovered,
		"pages", res.Pages, "complete", res.Complete}
	switch {
	case res.Skipped:
		r.logger.Debug("redelivery waits for a rate limit", "until", res.Retry)
	case res.Limited:
		r.logger.Warn("redelivery rate limited", append(attrs, "retry_at", res.Retry, "err", err)...)
	case err != nil && !errors.Is(err, context.Canceled):
		r.logger.Warn("redelivery failed", append(attrs, "err", err)...)
	case err == nil && res.Missing+res.Recovered+res.Refused == 0:
		r.logger.Debug("redelivery", attrs...) // nothing missed: every few minutes, not worth an info line
	case err == nil:
		r.logger.Info("redelivery", attrs...)
	}
}

// Outcome names a run's result: waiting (a rate limit's wait was not
// over), limited (GitHub rate-limited the run), error, incomplete (the page
// bound cut the log) or ok.
func Outcome(res Result, err error) string {
	switch {
	case res.Skipped:
		return "waiting"
	case res.Limited:
		return "limited"
	case err != nil:
		return "error"
	case !res.Complete:
		return "incomplete"
	default:
		return "ok"
	}
}
