package queue

import (
	"context"
	"testing"
	"time"

	"github.com/riverqueue/river"
)

// toyArgs is a job kind a feature owns.
type toyArgs struct {
	N int `json:"n"`
}

func (toyArgs) Kind() string { return "aepgate_toy" }

type toyWorker struct {
	river.WorkerDefaults[toyArgs]
	got chan<- int
}

func (w *toyWorker) Work(_ context.Context, j *river.Job[toyArgs]) error {
	w.got <- j.Args.N
	return nil
}

// TestKindsRegisteredByFeatures: a job kind the queue's caller registers
// (Kind) is worked on its own River queue; unregistered (the negative
// control), the queue refuses to insert it.
func TestKindsRegisteredByFeatures(t *testing.T) {
	ctx := context.Background()
	got := make(chan int, 1)
	toy := Kind{Queue: "aepgate_toy", Add: func(w *river.Workers) { river.AddWorker(w, &toyWorker{got: got}) }}
	bare := newTestQueue(t, tempDB(t), Runners{Handles: func(string) bool { return true }})
	if _, err := bare.Insert(ctx, toyArgs{N: 1}, &river.InsertOpts{Queue: toy.Queue}); err == nil {
		t.Error("a kind nobody registered was inserted")
	}
	q := newTestQueue(t, tempDB(t), Runners{Handles: func(string) bool { return true }, Kinds: []Kind{toy}})
	if _, err := q.Insert(ctx, toyArgs{N: 7}, &river.InsertOpts{Queue: toy.Queue}); err != nil {
		t.Fatal(err)
	}
	if err := q.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Stop(context.Background()) })
	select {
	case n := <-got:
		if n != 7 {
			t.Errorf("worked %d, want 7", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the registered kind's job was not worked in 30 s")
	}
}
