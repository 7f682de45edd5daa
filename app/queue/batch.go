package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/store"
)

// Enqueue records a verified delivery's ID and, when its event starts
// work, inserts its job, in one transaction (a batch of one,
// EnqueueBatch); fresh is false when the ID was recorded before.
func (q *Queue) Enqueue(ctx context.Context, v webhook.Delivery) (bool, error) {
	fresh, err := q.EnqueueBatch(ctx, []webhook.Delivery{v})
	if err != nil {
		return false, err
	}
	return fresh[0], nil
}

// EnqueueBatch records a batch of verified deliveries' IDs and inserts the
// jobs of the fresh ones whose event starts work, all in one transaction
// (River's InsertManyTx): one commit for the whole batch, and nothing of
// it when any part fails. A delivery ID seen before, in an earlier batch
// or earlier in this one, is not fresh and queues nothing.
func (q *Queue) EnqueueBatch(ctx context.Context, ds []webhook.Delivery) ([]bool, error) {
	fresh := make([]bool, len(ds))
	now := time.Now()
	err := q.db.InTx(ctx, func(tx store.Tx) error {
		var jobs []river.InsertManyParams
		for i, v := range ds {
			var err error
			if fresh[i], err = store.RecordDelivery(ctx, tx, v.DeliveryID, v.Event, now); err != nil {
				return err
			}
			if fresh[i] && q.handles(v.Event) {
				jobs = append(jobs, river.InsertManyParams{Args: Delivery{DeliveryID: v.DeliveryID, Event: v.Event, Payload: v.Payload}})
			}
		}
		if len(jobs) == 0 {
			return nil
		}
		if err := q.e.insertManyTx(ctx, tx, jobs); err != nil {
			return fmt.Errorf("enqueue %d deliveries: %w", len(jobs), err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return fresh, nil
}
