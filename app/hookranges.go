package app

import (
	"context"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// hookRefresh is how often GitHub's hook ranges are read again; GitHub
// changes them rarely and announces it. After a failed read the App tries
// again after hookRetry and keeps the last list it read meanwhile.
const (
	hookRefresh = 6 * time.Hour
	hookRetry   = time.Minute
	// hookFirstRead bounds the read at start-up, so the edge knows
	// GitHub's addresses before it serves and a GitHub that does not
	// answer delays nothing for long.
	hookFirstRead = 5 * time.Second
)

// hookRanges is the cached list of GitHub's hook ranges (GET /meta
// "hooks"), empty until first read. The edge and the listener use it only
// to reserve a share of their budgets for GitHub's addresses; nothing
// skips the signature for them.
type hookRanges struct {
	mu       sync.RWMutex
	prefixes []netip.Prefix
}

// Contains reports whether ip is in one of GitHub's hook ranges.
func (h *hookRanges) Contains(ip netip.Addr) bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return slices.ContainsFunc(h.prefixes, func(p netip.Prefix) bool { return p.Contains(ip) })
}

// Known reports whether any range was read (GHES lists none).
func (h *hookRanges) Known() bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.prefixes) > 0
}

func (h *hookRanges) set(p []netip.Prefix) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.prefixes = p
}

// readHookRanges reads GitHub's hook ranges into a.hooks and reports
// whether it could; a failure is logged and the last list kept.
func (a *App) readHookRanges(ctx context.Context, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p, err := a.clients.HookRanges(ctx)
	if err != nil {
		a.log.Warn("GitHub's hook ranges not read; keeping the last list", "err", err)
		return false
	}
	a.hooks.set(p)
	a.log.Debug("GitHub's hook ranges read", "ranges", len(p))
	return true
}

// watchHookRanges reads GitHub's hook ranges every hookRefresh (every
// hookRetry after a failure) until ctx ends.
func (a *App) watchHookRanges(ctx context.Context, ok bool) {
	for {
		wait := hookRefresh
		if !ok {
			wait = hookRetry
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		ok = a.readHookRanges(ctx, 30*time.Second)
	}
}
