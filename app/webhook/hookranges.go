package webhook

import (
	"context"
	"log/slog"
	"net/netip"
	"slices"
	"sync"
	"time"
)

// HookRefresh is how often GitHub's hook ranges are read again; GitHub
// changes them rarely and announces it. After a failed read they are read
// again after hookRetry, and the last list read is kept meanwhile.
const (
	HookRefresh = 6 * time.Hour
	hookRetry   = time.Minute
	// HookFirstRead bounds the read at start-up, so the edge knows
	// GitHub's addresses before it serves and a GitHub that does not
	// answer delays nothing for long.
	HookFirstRead = 5 * time.Second
	// hookReadTimeout bounds each later read.
	hookReadTimeout = 30 * time.Second
)

// HookCache is the cached list of GitHub's hook ranges (GET /meta
// "hooks"), empty until first read, and the ranges the operator names as
// GitHub's: the HookRanges of the edge and of the listener. They use it
// only to reserve a share of their budgets for GitHub's addresses and to
// spare them the per-address byte cap; nothing skips the signature for
// them.
type HookCache struct {
	// Read reads GitHub's hook ranges.
	Read func(ctx context.Context) ([]netip.Prefix, error)
	// Log receives a warning for each failed read (nil: none).
	Log *slog.Logger
	// Configured are the addresses GitHub sends webhooks from as the
	// operator names them (--github-hook-addresses), counted as hook
	// ranges beside those GET /meta lists: GitHub Enterprise Server lists
	// none, so without them its deliveries meet the per-address cap.
	Configured []netip.Prefix

	mu       sync.RWMutex
	prefixes []netip.Prefix
}

var _ HookRanges = (*HookCache)(nil)

// Contains reports whether ip is in one of GitHub's hook ranges.
func (h *HookCache) Contains(ip netip.Addr) bool {
	in := func(p netip.Prefix) bool { return p.Contains(ip) }
	if slices.ContainsFunc(h.Configured, in) {
		return true
	}
	h.mu.RLock()
	defer h.mu.RUnlock()
	return slices.ContainsFunc(h.prefixes, in)
}

// Known reports whether any range is configured or was read (GHES lists
// none).
func (h *HookCache) Known() bool {
	h.mu.RLock()
	defer h.mu.RUnlock()
	return len(h.Configured) > 0 || len(h.prefixes) > 0
}

// Refresh reads GitHub's hook ranges within timeout and reports whether
// it could; a failure is logged and the last list kept.
func (h *HookCache) Refresh(ctx context.Context, timeout time.Duration) bool {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	p, err := h.Read(ctx)
	log := h.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err != nil {
		log.Warn("GitHub's hook ranges not read; keeping the last list", "err", err)
		return false
	}
	h.mu.Lock()
	h.prefixes = p
	h.mu.Unlock()
	log.Debug("GitHub's hook ranges read", "ranges", len(p))
	return true
}

// Watch reads GitHub's hook ranges every HookRefresh (every hookRetry
// after a failure; ok: whether the last read succeeded) until ctx ends.
func (h *HookCache) Watch(ctx context.Context, ok bool) {
	for {
		wait := HookRefresh
		if !ok {
			wait = hookRetry
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		ok = h.Refresh(ctx, hookReadTimeout)
	}
}
