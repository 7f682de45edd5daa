package webhook

import (
	"context"
	"sync"
	"time"
)

// byteBudget bounds the webhook bytes held at once, in memory or spooled
// to disk, fairly: one address holds at most perAddr of them, and
// reserved of them only GitHub's hook addresses may use. Bytes are taken
// as they arrive, never on a client's word: a sender that declares 25 MB
// and sends one byte holds one byte.
type byteBudget struct {
	max, perAddr, reserved int64
	// reserving reports whether the reserve applies now (nil: always).
	reserving func() bool

	mu sync.Mutex
	// used is everything held; general what addresses outside GitHub's
	// hook ranges hold, by address in held.
	used, general int64
	held          map[string]int64
}

// newByteBudget is a budget of max bytes, a quarter of which at most one
// address may hold and a quarter of which is kept for GitHub's hook
// addresses when reserve is set.
func newByteBudget(max int64, reserve bool) *byteBudget {
	b := &byteBudget{max: max, perAddr: max / 4, held: map[string]int64{}}
	if reserve {
		b.reserved = max / 4
	}
	return b
}

// take reserves n bytes for c and reports whether they fit; it never
// waits. GitHub's hook addresses may use the whole budget; any other
// address its own share of what is not reserved.
func (b *byteBudget) take(c client, n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.max {
		return false
	}
	if !c.hook {
		reserved := b.reserved
		if b.reserving != nil && !b.reserving() {
			reserved = 0
		}
		if b.general+n > b.max-reserved || b.held[c.addr]+n > b.perAddr {
			return false
		}
		b.general += n
		b.held[c.addr] += n
	}
	b.used += n
	return true
}

// release gives back n bytes c took.
func (b *byteBudget) release(c client, n int64) {
	if n == 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	if !c.hook {
		b.general -= n
		if b.held[c.addr] -= n; b.held[c.addr] <= 0 {
			delete(b.held, c.addr)
		}
	}
}

// DefaultPerClient is how many bodies one client address may send at once
// before their signatures are checked. GitHub's deliveries are read in
// milliseconds, so its addresses rarely hold more than a few.
const DefaultPerClient = 16

// DefaultHookPerClient is how many bodies one of GitHub's hook addresses
// may send at once before their signatures are checked: a burst of
// thousands a second from a few of GitHub's addresses fits.
const DefaultHookPerClient = 16 * DefaultPerClient

// DefaultSlotWait is how long a body waits for one of its address's slots
// before it is refused with 429: long enough for an honest burst's bodies,
// each read in milliseconds, to make room; far shorter than a slow
// sender's hold, which lasts until the pace rule cuts it.
const DefaultSlotWait = 500 * time.Millisecond

// clientSlots counts the unverified bodies each client address is sending.
type clientSlots struct {
	mu sync.Mutex
	n  map[string]int
	// freed is closed (and replaced) whenever a slot is given back.
	freed chan struct{}
}

// take claims a slot for addr, waiting up to wait for one while addr
// already has max, and reports whether it got one.
func (c *clientSlots) take(ctx context.Context, addr string, max int, wait time.Duration) bool {
	var expired <-chan time.Time
	for {
		c.mu.Lock()
		if c.n == nil {
			c.n = map[string]int{}
		}
		if c.n[addr] < max {
			c.n[addr]++
			c.mu.Unlock()
			return true
		}
		if c.freed == nil {
			c.freed = make(chan struct{})
		}
		freed := c.freed
		c.mu.Unlock()
		if wait <= 0 {
			return false
		}
		if expired == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			expired = t.C
		}
		select {
		case <-freed:
		case <-expired:
			return false
		case <-ctx.Done():
			return false
		}
	}
}

func (c *clientSlots) give(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[addr]--; c.n[addr] <= 0 {
		delete(c.n, addr)
	}
	if c.freed != nil {
		close(c.freed)
		c.freed = nil
	}
}
