package webhook

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// txQueue is an in-memory BatchEnqueuer with a transaction's all-or-nothing
// effect: a batch is applied to a copy and kept only if every delivery of it
// went in. fail names a delivery ID whose first insert fails, in the middle
// of its batch (an injected store error).
type txQueue struct {
	mu      sync.Mutex
	seen    map[string]bool
	queued  map[string]int
	batches [][]string
	fail    string
	failed  bool
}

func (q *txQueue) EnqueueBatch(_ context.Context, ds []Delivery) ([]Outcome, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	seen, queued := cloneMap(q.seen), cloneMap(q.queued)
	var ids []string
	out := make([]Outcome, len(ds))
	for i, d := range ds {
		ids = append(ids, d.DeliveryID)
		if d.DeliveryID == q.fail && !q.failed {
			q.failed = true
			return nil, errors.New("injected: disk I/O error")
		}
		if seen[d.DeliveryID] {
			out[i].Duplicate = true
			continue
		}
		seen[d.DeliveryID] = true
		queued[d.DeliveryID]++
	}
	q.seen, q.queued = seen, queued
	q.batches = append(q.batches, ids)
	return out, nil
}

func cloneMap[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// pushBody is a small signed-able push payload of delivery i.
func pushBody(i int) []byte {
	return fmt.Appendf(nil, `{"ref":"refs/heads/b%d","commits":[],"installation":{"id":1},"repository":{"name":"app","owner":{"login":"acme"}}}`, i)
}

// deliverAll posts the deliveries with ids at once and returns each one's
// status.
func deliverAll(h http.Handler, ids []string) map[string]int {
	var mu sync.Mutex
	out := map[string]int{}
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			body := pushBody(i)
			code := post(h, hook{event: "push", id: id, sig: sign("current", body), body: body})
			mu.Lock()
			defer mu.Unlock()
			out[id] = code
		})
	}
	wg.Wait()
	return out
}

// TestBatcherFailureMidBatch: 24 deliveries arrive at once and are
// committed in batches of 8; the store fails in the middle of one batch.
// No delivery of that batch is acknowledged (each gets 503), GitHub's
// redelivery of every unacknowledged one (simulated) then succeeds, and
// every delivery is queued exactly once. The negative control answers each
// delivery as soon as the writer took it, before its batch committed: the
// failed batch's deliveries are then acknowledged but never queued, lost.
func TestBatcherFailureMidBatch(t *testing.T) {
	early := func(context.Context, <-chan Result) Result { return Result{} }
	for _, control := range []bool{false, true} {
		name := "acknowledged after commit"
		if control {
			name = "negative control: acknowledged before commit"
		}
		t.Run(name, func(t *testing.T) {
			q := &txQueue{fail: "d-13"}
			var opts BatchOptions
			if control {
				opts.Answer = early
			}
			b := NewBatcher(q, BatchConfig{Size: 8, Wait: 5 * time.Second, Options: opts})
			defer b.Close()
			h := newEdge(b)
			var ids []string
			for i := range 24 {
				ids = append(ids, fmt.Sprintf("d-%02d", i))
			}
			first := deliverAll(h, ids)
			var redeliver []string
			for _, id := range ids {
				if first[id] >= 300 {
					redeliver = append(redeliver, id)
				}
			}
			if control {
				b.Close() // the early answers left the batches committing
			} else if got := len(redeliver); got != 8 {
				t.Errorf("unacknowledged after the failed batch: %d %v, want the 8 of its batch", got, redeliver)
			}
			for id, code := range deliverAll(h, redeliver) {
				if code >= 300 {
					t.Errorf("redelivery of %s answered %d", id, code)
				}
			}
			lost := 0
			for _, id := range ids {
				if n := q.queued[id]; n != 1 {
					lost++
					if !control {
						t.Errorf("delivery %s queued %d times, want 1", id, n)
					}
				}
			}
			if control && lost == 0 {
				t.Fatal("acknowledging before the commit lost nothing, so waiting for it is not what keeps deliveries")
			}
			if control {
				t.Logf("negative control: %d acknowledged deliveries lost", lost)
			}
		})
	}
}

// TestBatcherDuplicates: a delivery ID twice in one batch, and again in a
// later batch, is queued once; every copy is answered 2xx, the copies 200.
func TestBatcherDuplicates(t *testing.T) {
	q := &txQueue{}
	b := NewBatcher(q, BatchConfig{Size: 4, Wait: 5 * time.Second})
	defer b.Close()
	h := newEdge(b)
	body := pushBody(1)
	codes := make([]int, 4)
	var wg sync.WaitGroup
	for i, id := range []string{"same", "same", "a", "b"} {
		wg.Go(func() { codes[i] = post(h, hook{event: "push", id: id, sig: sign("current", body), body: body}) })
	}
	wg.Wait()
	slices.Sort(codes)
	if diff := cmp.Diff([]int{http.StatusOK, http.StatusAccepted, http.StatusAccepted, http.StatusAccepted}, codes); diff != "" {
		t.Errorf("answers in one batch (-want +got):\n%s", diff)
	}
	b2 := NewBatcher(q, BatchConfig{Wait: -1})
	defer b2.Close()
	if got := post(newEdge(b2), hook{event: "push", id: "same", sig: sign("current", body), body: body}); got != http.StatusOK {
		t.Errorf("the same ID in a later batch answered %d, want 200", got)
	}
	if diff := cmp.Diff(map[string]int{"same": 1, "a": 1, "b": 1}, q.queued); diff != "" {
		t.Errorf("queued (-want +got):\n%s", diff)
	}
	if got := len(q.batches); got != 2 {
		t.Errorf("commits = %d %v, want 2 (one batch of 4, then one of 1)", got, q.batches)
	}
}

// TestBatcherBounds: a batch closes at its size, and at its wait when
// fewer deliveries came; Close commits what was handed over, then refuses.
func TestBatcherBounds(t *testing.T) {
	q := &txQueue{}
	var mu sync.Mutex
	var sizes []int
	observe := func(n int, _ time.Duration, _ error) { mu.Lock(); sizes = append(sizes, n); mu.Unlock() }
	b := NewBatcher(q, BatchConfig{Size: 3, Wait: 50 * time.Millisecond, Observe: observe})
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			if _, err := b.Enqueue(context.Background(), Delivery{DeliveryID: fmt.Sprint(i), Event: "push"}); err != nil {
				t.Errorf("enqueue %d: %v", i, err)
			}
		})
	}
	wg.Wait()
	b.Close()
	slices.Sort(sizes)
	if diff := cmp.Diff([]int{1, 3}, sizes); diff != "" {
		t.Errorf("batch sizes (-want +got):\n%s", diff)
	}
	if _, err := b.Enqueue(context.Background(), Delivery{DeliveryID: "late"}); !errors.Is(err, ErrBatcherClosed) {
		t.Errorf("enqueue after Close: %v, want ErrBatcherClosed", err)
	}
}

// syncQueue is a NoSyncEnqueuer over txQueue whose batches (of one
// delivery) wait until the test sends their sync's result on release[id];
// committed gets each batch's IDs as it commits.
type syncQueue struct {
	txQueue
	committed chan []string
	release   map[string]chan error
}

func (q *syncQueue) EnqueueBatchNoSync(ctx context.Context, ds []Delivery) ([]Outcome, func(context.Context) error, error) {
	out, err := q.EnqueueBatch(ctx, ds)
	if err != nil {
		return nil, nil, err
	}
	var ids []string
	for _, d := range ds {
		ids = append(ids, d.DeliveryID)
	}
	release := q.release[ids[0]]
	q.committed <- ids
	return out, func(ctx context.Context) error {
		select {
		case err := <-release:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}, nil
}

// TestBatcherPipelinesSync: while a batch's commit is being synced the
// writer commits the next batch, and no delivery is answered before its
// own batch's sync returned; a failed sync fails only its batch. The
// negative control answers a delivery as soon as it is handed over
// (BatchOptions.Answer): the check sees it answered before its sync.
func TestBatcherPipelinesSync(t *testing.T) {
	for _, control := range []bool{false, true} {
		t.Run(map[bool]string{false: "batcher", true: "negative control: answered at once"}[control], func(t *testing.T) {
			q := &syncQueue{committed: make(chan []string, 4), release: map[string]chan error{"a": make(chan error, 1), "b": make(chan error, 1)}}
			var opts BatchOptions
			if control {
				opts.Answer = func(context.Context, <-chan Result) Result { return Result{} }
			}
			b := NewBatcher(q, BatchConfig{Size: 1, Wait: -1, Options: opts})
			defer b.Close()
			answered := map[string]chan error{"a": make(chan error, 1), "b": make(chan error, 1)}
			enqueue := func(id string) {
				go func() {
					_, err := b.Enqueue(context.Background(), Delivery{DeliveryID: id, Event: "push"})
					answered[id] <- err
				}()
			}
			early := func(id string) bool {
				select {
				case err := <-answered[id]:
					answered[id] <- err
					return true
				default:
					return false
				}
			}
			enqueue("a")
			if got := <-q.committed; !slices.Equal(got, []string{"a"}) {
				t.Fatalf("first batch %v", got)
			}
			enqueue("b")
			select {
			case got := <-q.committed:
				if !slices.Equal(got, []string{"b"}) {
					t.Fatalf("second batch %v", got)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the second batch did not commit while the first one's sync ran")
			}
			if early("a") || early("b") {
				if !control {
					t.Fatal("a delivery was answered before its batch's sync returned")
				}
				q.release["a"] <- nil
				q.release["b"] <- nil
				return
			}
			if control {
				t.Fatal("negative control: the check saw no early answer")
			}
			q.release["a"] <- nil
			if err := <-answered["a"]; err != nil {
				t.Errorf("a: %v", err)
			}
			if early("b") {
				t.Error("b answered before its sync returned")
			}
			q.release["b"] <- errors.New("injected: EIO")
			if err := <-answered["b"]; err == nil {
				t.Error("b answered without error after its sync failed")
			}
		})
	}
}
