package app

import (
	"context"
	"crypto/sha256"
	"time"

	"github.com/aepgate/aepgate/internal/store"
)

// replayMemory is how long a webhook body is remembered: a captured
// signed body sent again under a new delivery ID within it is answered
// 200 and not queued again.
const replayMemory = 24 * time.Hour

// dbReplays remembers bodies in the App's database (store.RecordBody).
type dbReplays struct{ db *store.DB }

// FirstDelivery records the body's SHA-256 under deliveryID unless it was
// recorded within replayMemory, and returns the delivery ID on record.
func (r dbReplays) FirstDelivery(ctx context.Context, sum [sha256.Size]byte, deliveryID string) (string, error) {
	now := time.Now()
	return r.db.FirstDelivery(ctx, sum, deliveryID, now, now.Add(-replayMemory))
}
