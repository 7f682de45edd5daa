package redeliver

import (
	"context"
	"strconv"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
)

// fakeLog is GitHub's delivery log in memory, oldest first, paged newest
// first by cursor (the index to start below). Redelivering appends an
// attempt of the same GUID answered with answer, unless refuse returns an
// error for it.
type fakeLog struct {
	entries []gh.HookDelivery
	clock   *fakeClock
	answer  int
	// hideRedeliveries leaves the attempts made on request out of the
	// listing (GitHub's log lagging behind).
	hideRedeliveries bool
	refuse           func(id int64) error
	listErr          error
	lists, asks      int
	asked            []int64
}

var _ Log = (*fakeLog)(nil)

func (l *fakeLog) add(guid string, status int, at time.Time) {
	l.entries = append(l.entries, gh.HookDelivery{ID: int64(len(l.entries) + 1), GUID: guid, DeliveredAt: at, StatusCode: status, Event: "issue_comment"})
}

func (l *fakeLog) HookDeliveries(_ context.Context, cursor string, per int) ([]gh.HookDelivery, string, error) {
	l.lists++
	if l.listErr != nil {
		return nil, "", l.listErr
	}
	var shown []gh.HookDelivery
	for i := len(l.entries) - 1; i >= 0; i-- {
		if !(l.hideRedeliveries && l.entries[i].Redelivery) {
			shown = append(shown, l.entries[i])
		}
	}
	from := 0
	if cursor != "" {
		from, _ = strconv.Atoi(cursor)
	}
	to := min(from+per, len(shown))
	next := ""
	if to < len(shown) {
		next = strconv.Itoa(to)
	}
	return shown[from:to], next, nil
}

func (l *fakeLog) RedeliverHook(_ context.Context, id int64) error {
	l.asks++
	if l.refuse != nil {
		if err := l.refuse(id); err != nil {
			return err
		}
	}
	l.asked = append(l.asked, id)
	d := l.entries[id-1]
	d.ID, d.Redelivery, d.StatusCode, d.DeliveredAt = int64(len(l.entries)+1), true, l.answer, l.clock.now
	l.entries = append(l.entries, d)
	return nil
}

// fakeRecorded is the edge's record of GUIDs.
type fakeRecorded map[string]bool

var _ Recorded = fakeRecorded(nil)

func (f fakeRecorded) RecordedDeliveries(_ context.Context, ids []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, id := range ids {
		if f[id] {
			out[id] = true
		}
	}
	return out, nil
}

type fakeClock struct{ now time.Time }

func (c *fakeClock) Now() time.Time { return c.now }
