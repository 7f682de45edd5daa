package webhook

import (
	"net"
	"net/http"
	"sync"
)

// byteBudget bounds the webhook bytes held at once, in memory or spooled
// to disk. Bytes are taken as they arrive, never on a client's word: a
// sender that declares 25 MB and sends one byte holds one byte.
type byteBudget struct {
	max int64

	mu   sync.Mutex
	used int64
}

func newByteBudget(max int64) *byteBudget {
	return &byteBudget{max: max}
}

// take reserves n bytes and reports whether they fit; it never waits.
func (b *byteBudget) take(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.used+n > b.max {
		return false
	}
	b.used += n
	return true
}

func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
}

// DefaultPerClient is how many bodies one client address may send at once
// before their signatures are checked. GitHub's deliveries are read in
// milliseconds, so its addresses rarely hold more than a few.
const DefaultPerClient = 16

// clientSlots counts the unverified bodies each client address is sending.
// The address is the connection's (RemoteAddr): X-Forwarded-For is the
// sender's word and is not read.
type clientSlots struct {
	mu sync.Mutex
	n  map[string]int
}

// take claims a slot for addr and reports whether addr had fewer than max.
func (c *clientSlots) take(addr string, max int) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	if c.n[addr] >= max {
		return false
	}
	c.n[addr]++
	return true
}

func (c *clientSlots) give(addr string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[addr]--; c.n[addr] <= 0 {
		delete(c.n, addr)
	}
}

// clientAddr is the IP address of r's connection (RemoteAddr without the
// port).
func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
