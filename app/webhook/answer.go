package webhook

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"net/http"
)

// accept records and queues a verified delivery and logs the result:
// queued, duplicate (the delivery ID was seen before), replayed (its body
// was accepted under another delivery ID within ReplayMemory) or ignored
// (an event that starts no work, recorded only). A failing record refuses
// the delivery with 503, so GitHub can redeliver it.
func (h *Handler) accept(ctx context.Context, w http.ResponseWriter, d Delivery, env Envelope) {
	out, err := h.queue.Enqueue(ctx, d)
	if err != nil {
		h.log.Error("webhook refused", "reason", "store_error", "status", http.StatusServiceUnavailable,
			"delivery", d.DeliveryID, "event", d.Event, "err", err)
		h.answer(w, d.Event, http.StatusServiceUnavailable, "store_error", "could not record the delivery; redeliver later")
		return
	}
	log := h.log.With("event", d.Event, "delivery", d.DeliveryID).With(env.logAttrs()...)
	switch {
	case out.Duplicate:
		log.Info("webhook delivery", "result", "duplicate")
		h.answer(w, d.Event, http.StatusOK, "duplicate", "delivery already received")
	case out.ReplayOf != "":
		log.Warn("webhook delivery", "result", "replayed", "first_delivery", out.ReplayOf,
			"body_sha256", hex.EncodeToString(d.BodySHA256[:]))
		h.answer(w, d.Event, http.StatusOK, "replayed", "this body was already received under another delivery ID")
	case !h.events.handled(d.Event):
		log.Info("webhook delivery", "result", "ignored")
		h.answer(w, d.Event, http.StatusAccepted, "accepted", "recorded; this event starts no work")
	default:
		log.Info("webhook delivery", "result", "queued")
		h.answer(w, d.Event, http.StatusAccepted, "accepted", "queued")
	}
}

// refuse logs a refused request at warn, by reason, status and client
// address only (the client's as the edge's limits see it, and the
// connection's as peer when that differs), answers it and, for a busy refusal, calls OnBusy.
func (h *Handler) refuse(w http.ResponseWriter, r *http.Request, label string, ref refusal) {
	log := h.log
	if c, peer := h.client(r).addr, clientAddr(r); c != peer {
		log = log.With("peer", peer)
	}
	log.Warn("webhook refused", "reason", ref.reason, "status", ref.status, "client", h.client(r).addr)
	h.answer(w, label, ref.status, ref.reason, ref.msg)
	if ref.reason == refBusy.reason && h.onBusy != nil {
		h.onBusy()
	}
}

// answer counts the request under a bounded label and writes its JSON
// answer.
func (h *Handler) answer(w http.ResponseWriter, event string, status int, result, msg string) {
	if h.metrics.Delivery != nil {
		h.metrics.Delivery(metricsLabel(event), result)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"result": result, "message": msg})
}

// unverified moves the unverified-bodies count by d.
func (h *Handler) unverified(d float64) {
	if h.metrics.Unverified != nil {
		h.metrics.Unverified(d)
	}
}

// metricsLabel bounds an event label: "unknown" when it is empty,
// "invalid" when it is not an event name.
func metricsLabel(event string) string {
	switch {
	case event == "":
		return "unknown"
	case !eventName().MatchString(event):
		return "invalid"
	}
	return event
}
