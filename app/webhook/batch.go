package webhook

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Group commit defaults, chosen by measurement (docs/app.md, "Webhook
// throughput"): at 2,000 deliveries/s on SQLite a batch of the deliveries
// that arrived while the previous one committed rarely reaches 64, and
// waiting for more than a millisecond after the first one only adds to
// every acknowledgement.
const (
	// DefaultBatchSize caps the deliveries of one commit.
	DefaultBatchSize = 128
	// DefaultBatchWait is how long a batch stays open after its first
	// delivery for more to join it, when the writer is idle.
	DefaultBatchWait = time.Millisecond
	// batchCommitTimeout bounds one batch's transaction.
	batchCommitTimeout = 10 * time.Second
)

// ErrBatcherClosed is what Enqueue returns once the batcher was closed.
var ErrBatcherClosed = errors.New("webhook: batcher closed")

// BatchEnqueuer records and queues a batch of verified deliveries in one
// transaction: out[i] is what recording ds[i] found, a delivery ID or a
// body recorded before counting whether an earlier batch or an earlier
// delivery of this one recorded it. An error means nothing of the batch
// was committed.
type BatchEnqueuer interface {
	EnqueueBatch(ctx context.Context, ds []Delivery) (out []Outcome, err error)
}

// NoSyncEnqueuer is a BatchEnqueuer that can also return once a batch
// committed, before the commit is on disk, with the wait for that: the
// Batcher then commits its next batch while the disk syncs the last one,
// and answers a batch's deliveries only after its wait returned. A wait's
// error fails the whole batch; its deliveries were recorded and are
// answered 200 and not queued again when GitHub sends them again.
type NoSyncEnqueuer interface {
	BatchEnqueuer
	EnqueueBatchNoSync(ctx context.Context, ds []Delivery) (out []Outcome, wait func(context.Context) error, err error)
}

// BatchConfig configures a Batcher.
type BatchConfig struct {
	// Size caps the deliveries of one batch; 0 means DefaultBatchSize.
	Size int
	// Wait is how long a batch stays open after its first delivery; 0
	// means DefaultBatchWait, negative means no wait (a batch is what
	// queued up while the previous one committed).
	Wait time.Duration
	// Observe, when set, is told each batch's size, commit time (to its
	// sync) and error, from more than one goroutine at a time.
	Observe func(size int, took time.Duration, err error)
	// Options replace parts of the batcher (zero: the App's own).
	Options BatchOptions
}

// BatchOptions replace parts of the batcher. The zero value is the
// batcher as the App runs it; a negative-control test puts a broken
// variant in a field.
type BatchOptions struct {
	// Answer is what Enqueue returns for a delivery handed to the writer,
	// given the channel its batch's result arrives on; nil means the
	// batch's result once it committed (or failed), so no delivery is
	// acknowledged before it is durable.
	Answer func(ctx context.Context, result <-chan Result) Result
}

// Result is one delivery's outcome in its batch.
type Result struct {
	// Outcome is what recording the delivery found.
	Outcome Outcome
	// Err is the batch's error: nothing of the batch was committed.
	Err error
}

// pending is a delivery waiting for its batch.
type pending struct {
	d      Delivery
	result chan Result
}

// Batcher is an Enqueuer that hands every delivery to one writer, which
// commits the deliveries that arrive together in one transaction (group
// commit): one commit's cost is shared by the whole batch. Each Enqueue
// returns only once its batch committed, and is on disk, with that batch's
// result. With a NoSyncEnqueuer the writer commits the next batch while
// the last one's commit is synced.
type Batcher struct {
	to      BatchEnqueuer
	size    int
	wait    time.Duration
	observe func(int, time.Duration, error)
	answer  func(context.Context, <-chan Result) Result

	in   chan pending
	stop chan struct{}
	done chan struct{}
	// syncing counts the batches committed and waiting for their sync.
	syncing sync.WaitGroup
	// mu guards closed: senders hold it shared while they hand over, so
	// once Close set closed, every delivery handed over is in b.in.
	mu     sync.RWMutex
	closed bool
}

var _ Enqueuer = (*Batcher)(nil)

// NewBatcher starts the writer of a Batcher committing to to; Close stops
// it.
func NewBatcher(to BatchEnqueuer, c BatchConfig) *Batcher {
	b := &Batcher{to: to, size: cmp.Or(c.Size, DefaultBatchSize), wait: cmp.Or(c.Wait, DefaultBatchWait),
		observe: c.Observe, answer: c.Options.Answer, stop: make(chan struct{}), done: make(chan struct{})}
	if b.size < 1 {
		b.size = 1
	}
	b.in = make(chan pending, b.size)
	if b.answer == nil {
		b.answer = awaitCommit
	}
	go b.run()
	return b
}

// Enqueue hands d to the writer and returns its batch's result; a ctx
// that ends first returns its error (the batch may still commit: a
// redelivery then finds the ID recorded).
func (b *Batcher) Enqueue(ctx context.Context, d Delivery) (Outcome, error) {
	p := pending{d: d, result: make(chan Result, 1)}
	if err := b.handOver(ctx, p); err != nil {
		return Outcome{}, err
	}
	r := b.answer(ctx, p.result)
	return r.Outcome, r.Err
}

// handOver puts p in the writer's queue unless the batcher is closed.
func (b *Batcher) handOver(ctx context.Context, p pending) error {
	b.mu.RLock()
	defer b.mu.RUnlock()
	if b.closed {
		return ErrBatcherClosed
	}
	select {
	case b.in <- p:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("enqueue delivery %s: %w", p.d.DeliveryID, ctx.Err())
	}
}

// awaitCommit is the batch's result, or ctx's error if it ends first.
func awaitCommit(ctx context.Context, result <-chan Result) Result {
	select {
	case r := <-result:
		return r
	case <-ctx.Done():
		return Result{Err: ctx.Err()}
	}
}

// Close stops taking deliveries, commits those already handed over and
// stops the writer.
func (b *Batcher) Close() {
	b.mu.Lock()
	first := !b.closed
	b.closed = true
	b.mu.Unlock()
	if first {
		close(b.stop)
	}
	<-b.done
}

// run is the writer: it collects a batch and commits it, until Close.
func (b *Batcher) run() {
	defer close(b.done)
	defer b.syncing.Wait()
	for {
		batch, open := b.collect()
		if len(batch) > 0 {
			b.commit(batch)
		}
		if !open {
			return
		}
	}
}

// collect waits for a first delivery, then takes more until the batch is
// full, its wait is over or none is left waiting when it was; open is
// false once the batcher is closed and drained.
func (b *Batcher) collect() (batch []pending, open bool) {
	select {
	case p := <-b.in:
		batch = append(batch, p)
	case <-b.stop:
		return b.drain(), false
	}
	var timeout <-chan time.Time
	if b.wait > 0 {
		t := time.NewTimer(b.wait)
		defer t.Stop()
		timeout = t.C
	}
	for len(batch) < b.size {
		select {
		case p := <-b.in:
			batch = append(batch, p)
			continue
		default:
		}
		if timeout == nil {
			return batch, true
		}
		select {
		case p := <-b.in:
			batch = append(batch, p)
		case <-timeout:
			return batch, true
		case <-b.stop:
			return append(batch, b.drain()...), false
		}
	}
	return batch, true
}

// drain takes what is left waiting after Close.
func (b *Batcher) drain() []pending {
	var out []pending
	for {
		select {
		case p := <-b.in:
			out = append(out, p)
		default:
			return out
		}
	}
}

// commit writes one batch in one transaction and gives each delivery its
// result once the commit is on disk: its outcome, or the batch's error for
// every one of them. With a NoSyncEnqueuer it returns after the commit and
// answers the batch when its wait returns.
func (b *Batcher) commit(batch []pending) {
	ds := make([]Delivery, len(batch))
	for i, p := range batch {
		ds[i] = p.d
	}
	ctx, cancel := context.WithTimeout(context.Background(), batchCommitTimeout)
	start := time.Now()
	ns, ok := b.to.(NoSyncEnqueuer)
	if !ok {
		out, err := b.to.EnqueueBatch(ctx, ds)
		cancel()
		b.finish(batch, start, out, err)
		return
	}
	out, wait, err := ns.EnqueueBatchNoSync(ctx, ds)
	if err != nil {
		cancel()
		b.finish(batch, start, nil, err)
		return
	}
	b.syncing.Go(func() {
		defer cancel()
		b.finish(batch, start, out, wait(ctx))
	})
}

// finish observes a batch and answers its deliveries.
func (b *Batcher) finish(batch []pending, start time.Time, out []Outcome, err error) {
	if err == nil && len(out) != len(batch) {
		err = fmt.Errorf("enqueue batch: %d results for %d deliveries", len(out), len(batch))
	}
	if b.observe != nil {
		b.observe(len(batch), time.Since(start), err)
	}
	for i, p := range batch {
		if err != nil {
			p.result <- Result{Err: err}
			continue
		}
		p.result <- Result{Outcome: out[i]}
	}
}
