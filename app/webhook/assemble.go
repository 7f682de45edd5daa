package webhook

import (
	"context"
	"net"
	"net/http"
	"net/netip"
	"time"
)

// Edge is the App's edge assembled (NewEdge): the webhook handler, the
// batcher that commits its verified deliveries, GitHub's hook ranges and
// the sweep after busy refusals.
type Edge struct {
	Handler http.Handler
	Batcher *Batcher
	Hooks   *HookCache
	Sweeper *BusySweep
}

// Parts are what NewEdge assembles an Edge from: Config (NewEdge sets its
// Queue, Hooks and OnBusy), the batcher's queue and configuration, the
// hook ranges' reader and the ones configured beside them, and the sweep
// run BusySweep after a busy refusal (NoBusySweep: none).
type Parts struct {
	Config
	To          BatchEnqueuer
	Batch       BatchConfig
	HookRanges  func(ctx context.Context) ([]netip.Prefix, error)
	Configured  []netip.Prefix
	BusySweep   time.Duration
	Sweep       func(context.Context) error
	NoBusySweep bool
}

// NewEdge assembles the edge from p.
func NewEdge(p Parts) (*Edge, error) {
	e := &Edge{Batcher: NewBatcher(p.To, p.Batch), Hooks: &HookCache{Read: p.HookRanges, Log: p.Log, Configured: p.Configured},
		Sweeper: NewBusySweep(p.BusySweep, p.Sweep)}
	c := p.Config
	c.Queue, c.Hooks, c.OnBusy = e.Batcher, e.Hooks, e.Sweeper.Busy
	if p.NoBusySweep {
		c.OnBusy = nil
	}
	h, err := New(c)
	if err != nil {
		e.Batcher.Close()
		return nil, err
	}
	e.Handler = h
	return e, nil
}

// Serve reads GitHub's hook ranges once (bounded, so a GitHub that does
// not answer delays start-up by HookFirstRead at most), then keeps them
// fresh and sweeps after busy refusals (swept reports each sweep) until
// ctx ends; it returns the server of h on ln, which holds at most maxConns
// connections.
func (e *Edge) Serve(ctx context.Context, ln net.Listener, h http.Handler, l ServerLimits, maxConns int, swept func(error)) (*http.Server, net.Listener) {
	ok := e.Hooks.Refresh(ctx, HookFirstRead)
	go e.Hooks.Watch(ctx, ok)
	go e.Sweeper.Run(ctx, swept)
	return NewServer(h, l), LimitConns(ln, maxConns, e.Hooks)
}
