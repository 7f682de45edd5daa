package app

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/store"
)

// EnqueueBatch records a batch of verified deliveries' IDs and body sums
// and inserts the jobs of the new ones whose event starts work, all in one
// transaction (store.Admit, River's InsertManyTx): one commit for the
// whole batch, and nothing of it when any part fails. A delivery ID seen
// before, or a body accepted under another ID within replayMemory, in an
// earlier batch or earlier in this one, queues nothing.
func (q *riverQueue[TTx]) EnqueueBatch(ctx context.Context, ds []webhook.Delivery) ([]webhook.Outcome, error) {
	out := make([]webhook.Outcome, len(ds))
	now := time.Now()
	err := q.db.InTx(ctx, func(tx store.Tx) error {
		var jobs []river.InsertManyParams
		for i, v := range ds {
			ad, err := store.Admit(ctx, tx, v.DeliveryID, v.Event, v.BodySHA256, now, q.replayMemory)
			if err != nil {
				return err
			}
			out[i] = webhook.Outcome{Duplicate: ad.Redelivered, ReplayOf: ad.ReplayOf}
			if out[i] == (webhook.Outcome{}) && q.handles(v.Event) {
				jobs = append(jobs, river.InsertManyParams{Args: deliveryArgs{DeliveryID: v.DeliveryID, Event: v.Event, Payload: v.Payload}})
			}
		}
		if len(jobs) == 0 {
			return nil
		}
		if _, err := q.client.InsertManyTx(ctx, tx.Raw().(TTx), jobs); err != nil {
			return fmt.Errorf("enqueue %d deliveries: %w", len(jobs), err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
