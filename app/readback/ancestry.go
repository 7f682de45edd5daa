package readback

import "sync"

// Ancestry remembers which commit contains which (git history never
// changes what a SHA contains), so a readback waiting on a squash or
// rebase merge compares the two commits once. The zero value is empty and
// ready; it is safe for concurrent use.
type Ancestry struct {
	mu   sync.Mutex
	seen map[string]bool
}

// maxAncestry bounds the cache; when full it starts again empty.
const maxAncestry = 4096

func (c *Ancestry) get(key string) (contains, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	contains, ok = c.seen[key]
	return contains, ok
}

func (c *Ancestry) put(key string, contains bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil || len(c.seen) >= maxAncestry {
		c.seen = map[string]bool{}
	}
	c.seen[key] = contains
}
