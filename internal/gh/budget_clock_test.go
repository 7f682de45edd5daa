package gh

import (
	"sort"
	"sync"
	"time"

	"github.com/aepgate/aepgate/internal/testkit/ghfake"
)

// fakeClock is the fake GitHub's clock as a budget's Clock. Auto: a timer
// moves the clock to its end at once (virtual time, so a test paced over
// an hour of GitHub's limits runs in seconds); otherwise timers fire only
// when the test calls Advance.
type fakeClock struct {
	f    *ghfake.Fake
	auto bool

	mu     sync.Mutex
	timers []clockTimer
}

type clockTimer struct {
	at time.Time
	fn func()
}

func (c *fakeClock) Now() time.Time { return c.f.Now() }

func (c *fakeClock) AfterFunc(d time.Duration, fn func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.auto {
		c.timers = append(c.timers, clockTimer{at: c.f.Now().Add(d), fn: fn})
		return func() bool { return false }
	}
	if d > 0 {
		c.f.Advance(d)
	}
	go fn()
	return func() bool { return false }
}

// Advance moves the clock by d and fires the timers due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.f.Advance(d)
	now := c.f.Now()
	sort.Slice(c.timers, func(i, j int) bool { return c.timers[i].at.Before(c.timers[j].at) })
	var due []func()
	for len(c.timers) > 0 && !c.timers[0].at.After(now) {
		due = append(due, c.timers[0].fn)
		c.timers = c.timers[1:]
	}
	c.mu.Unlock()
	for _, fn := range due {
		go fn()
	}
}
