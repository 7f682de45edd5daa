package webhook

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
)

// Replays remembers the SHA-256 of every verified body with the delivery
// ID it first came under.
type Replays interface {
	// FirstDelivery records that the body with SHA-256 sum came under
	// deliveryID, unless a body with that sum was recorded within the
	// memory, and returns the delivery ID on record: deliveryID itself
	// for a new body or GitHub's redelivery of the same one.
	FirstDelivery(ctx context.Context, sum [sha256.Size]byte, deliveryID string) (string, error)
}

// replayed answers a verified delivery whose body was accepted under
// another delivery ID in the replay memory with 200 and reports true:
// a captured body sent again under a new ID is not queued again. A
// failing record refuses the delivery with 503, so GitHub can redeliver
// it.
func (h *Handler) replayed(ctx context.Context, w http.ResponseWriter, d Delivery, sum [sha256.Size]byte) bool {
	if h.replays == nil {
		return false
	}
	first, err := h.replays.FirstDelivery(ctx, sum, d.DeliveryID)
	switch {
	case err != nil:
		h.log.Error("webhook refused", "reason", "store_error", "status", http.StatusServiceUnavailable,
			"delivery", d.DeliveryID, "event", d.Event, "err", err)
		h.answer(w, d.Event, http.StatusServiceUnavailable, "store_error", "could not record the delivery; redeliver later")
		return true
	case first != d.DeliveryID:
		h.log.Warn("webhook delivery", "result", "replayed", "event", d.Event, "delivery", d.DeliveryID,
			"first_delivery", first, "body_sha256", hex.EncodeToString(sum[:]))
		h.answer(w, d.Event, http.StatusOK, "replayed", "this body was already received under another delivery ID")
		return true
	}
	return false
}
