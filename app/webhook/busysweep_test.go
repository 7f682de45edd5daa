package webhook

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// TestBusySweep: a burst of busy refusals is followed by one sweep after
// the wait, and a refusal during that sweep by another one; no refusal,
// no sweep.
func TestBusySweep(t *testing.T) {
	var sweeps atomic.Int32
	started := make(chan struct{}, 4)
	release := make(chan struct{})
	b := NewBusySweep(50*time.Millisecond, func(context.Context) error {
		sweeps.Add(1)
		started <- struct{}{}
		<-release
		return nil
	})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go b.Run(ctx, func(error) {})
	time.Sleep(100 * time.Millisecond)
	if n := sweeps.Load(); n != 0 {
		t.Fatalf("%d sweeps without a busy refusal, want 0", n)
	}
	for range 100 {
		b.Busy()
	}
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("no sweep within 5 s of busy refusals")
	}
	b.Busy() // during the sweep
	release <- struct{}{}
	select {
	case <-started:
	case <-time.After(5 * time.Second):
		t.Fatal("a refusal during a sweep was not swept")
	}
	close(release)
	time.Sleep(150 * time.Millisecond)
	if n := sweeps.Load(); n != 2 {
		t.Errorf("%d sweeps, want 2", n)
	}
}
