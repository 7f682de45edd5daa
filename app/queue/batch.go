package queue

import (
	"context"
	"fmt"
	"time"

	"github.com/riverqueue/river"

	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/store"
)

// Enqueue admits one verified delivery and, when it is new and its event
// starts work, inserts its job, in one transaction (a batch of one,
// EnqueueBatch).
func (q *Queue) Enqueue(ctx context.Context, v webhook.Delivery) (webhook.Outcome, error) {
	out, err := q.EnqueueBatch(ctx, []webhook.Delivery{v})
	if err != nil {
		return webhook.Outcome{}, err
	}
	return out[0], nil
}

// EnqueueBatch records a batch of verified deliveries' IDs and body sums
// and inserts the jobs of the new ones whose event starts work, all in one
// transaction (store.AdmitBatch, insertDeliveries): one commit for the
// whole batch, and nothing of it when any part fails. A delivery ID seen
// before, or a body accepted under another ID within the replay memory, in
// an earlier batch or earlier in this one, queues nothing.
func (q *Queue) EnqueueBatch(ctx context.Context, ds []webhook.Delivery) ([]webhook.Outcome, error) {
	out, wait, err := q.EnqueueBatchNoSync(ctx, ds)
	if err != nil {
		return nil, err
	}
	if err := wait(ctx); err != nil {
		return nil, fmt.Errorf("enqueue %d deliveries: %w", len(ds), err)
	}
	return out, nil
}

// EnqueueBatchNoSync is EnqueueBatch returning once the batch committed,
// with the wait for the commit to be on disk (store.DB.InWriteTxNoSync):
// the edge commits its next batch meanwhile, and acknowledges this one
// when the wait returns.
func (q *Queue) EnqueueBatchNoSync(ctx context.Context, ds []webhook.Delivery) ([]webhook.Outcome, func(context.Context) error, error) {
	out := make([]webhook.Outcome, len(ds))
	arrivals := make([]store.Arrival, len(ds))
	for i, v := range ds {
		arrivals[i] = store.Arrival{ID: v.DeliveryID, Event: v.Event, Sum: v.BodySHA256}
	}
	now := time.Now()
	wait, err := q.db.InWriteTxNoSync(ctx, func(tx store.Tx) error {
		ads, err := store.AdmitBatch(ctx, tx, arrivals, now, q.replayMemory)
		if err != nil {
			return err
		}
		var jobs []Delivery
		for i, v := range ds {
			out[i] = webhook.Outcome{Duplicate: ads[i].Redelivered, ReplayOf: ads[i].ReplayOf}
			if out[i] == (webhook.Outcome{}) && q.handles(v.Event) {
				jobs = append(jobs, Delivery{DeliveryID: v.DeliveryID, Event: v.Event, Payload: Payload(v.Payload)})
			}
		}
		if len(jobs) == 0 {
			return nil
		}
		if err := q.insertDeliveries(ctx, tx, jobs); err != nil {
			return fmt.Errorf("enqueue %d deliveries: %w", len(jobs), err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	return out, wait, nil
}

// insertDeliveries inserts a delivery job for each of ds inside tx: on
// SQLite by one plain statement a chunk (insertSQLiteDeliveries), on
// PostgreSQL by River's InsertManyFastTx (COPY FROM).
func (q *Queue) insertDeliveries(ctx context.Context, tx store.Tx, ds []Delivery) error {
	if q.db.Dialect == store.SQLite {
		return insertSQLiteDeliveries(ctx, tx, ds)
	}
	jobs := make([]river.InsertManyParams, len(ds))
	for i, d := range ds {
		jobs[i] = river.InsertManyParams{Args: d}
	}
	return q.e.insertManyTx(ctx, tx, jobs)
}
