package app

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
)

// MaxPayload is GitHub's webhook payload cap: larger events are never
// delivered (GitHub docs: Webhook events and payloads, "Payloads are capped
// at 25 MB"), so a larger body is refused.
const MaxPayload = 25 << 20

// maxBuffered bounds the webhook bytes held in memory at once, verified or
// not: bodies are read whole before their signature can be checked, so
// without a bound concurrent unsigned 25 MB posts could exhaust memory.
const maxBuffered = 4 * MaxPayload

// unverifiedEvent is the metrics label of a request whose signature has not
// verified (yet).
const unverifiedEvent = "unverified"

// enqueuer records a verified delivery and queues its job durably, in one
// transaction; fresh is false when the delivery ID was seen before.
type enqueuer interface {
	enqueue(ctx context.Context, d deliveryArgs) (fresh bool, err error)
}

// webhookHandler is the HTTP edge: POST /webhook. Every accepted delivery
// is logged at info (event, action, delivery ID, result) and every refused
// request at warn (reason, status); bodies, secrets and signatures never
// are.
type webhookHandler struct {
	secrets [][]byte
	queue   enqueuer
	metrics *metrics
	log     *slog.Logger
	// budget bounds the bytes of bodies being held (nil: no bound).
	budget *byteBudget
	// edge replaces parts of the edge; its zero value is the App's own.
	edge edgeOptions
}

// edgeOptions replace parts of the webhook edge. The zero value is the
// App's own edge; a negative-control test puts a broken variant in one
// field to show the attack it stops then gets through.
type edgeOptions struct {
	// verify checks an X-Hub-Signature-256 value against the body; nil
	// means HMAC-SHA256 with the handler's secrets.
	verify func(sig string, body []byte) bool
	// maxPayload caps a body in bytes; 0 means MaxPayload.
	maxPayload int64
	// unverifiedLabel is the metrics event label of a request whose
	// signature has not verified (yet); nil means "unverified".
	unverifiedLabel func(r *http.Request) string
}

// refusal is a request the edge answers without queueing anything.
type refusal struct {
	status      int
	reason, msg string
}

// ServeHTTP reads the body within the cap, verifies its signature, checks
// the headers and the payload, then records and queues the delivery.
func (h *webhookHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Until the signature verifies, the event header is the sender's word:
	// metrics label it "unverified", so forged requests cannot mint one
	// Prometheus series per invented event name.
	label := unverifiedEvent
	if h.edge.unverifiedLabel != nil {
		label = h.edge.unverifiedLabel(r)
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, label, refusal{http.StatusMethodNotAllowed, "method_not_allowed", "POST only"})
		return
	}
	body, release, ref := h.readBody(w, r)
	defer release()
	if ref == nil && !h.verified(r.Header.Get("X-Hub-Signature-256"), body) {
		ref = &refusal{http.StatusUnauthorized, "bad_signature", "missing or invalid X-Hub-Signature-256"}
	}
	if ref != nil {
		h.refuse(w, label, *ref)
		return
	}
	d, action, ref := checkHeaders(r.Header, body)
	if ref != nil {
		h.refuse(w, d.Event, *ref)
		return
	}
	h.accept(r.Context(), w, d, action)
}

// readBody reads the body within the size cap and the byte budget; release
// gives its share of the budget back and is never nil.
func (h *webhookHandler) readBody(w http.ResponseWriter, r *http.Request) (body []byte, release func(), ref *refusal) {
	release = func() {}
	tooLarge := &refusal{http.StatusRequestEntityTooLarge, "too_large", "payload over 25 MB"}
	limit := h.edge.maxPayload
	if limit == 0 {
		limit = MaxPayload
	}
	if r.ContentLength > limit {
		return nil, release, tooLarge
	}
	if h.budget != nil {
		// A body of unknown length may take up to the cap.
		n := limit
		if r.ContentLength >= 0 && r.ContentLength < n {
			n = r.ContentLength
		}
		if err := h.budget.acquire(r.Context(), n); err != nil {
			return nil, release, &refusal{http.StatusServiceUnavailable, "busy", "too many deliveries in flight; redeliver later"}
		}
		release = func() { h.budget.release(n) }
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		return nil, release, tooLarge
	case err != nil:
		return nil, release, &refusal{http.StatusBadRequest, "unreadable", "body could not be read"}
	}
	return body, release, nil
}

// accept records and queues a verified delivery and logs the result:
// queued, duplicate (the delivery ID was seen before) or ignored (an event
// that starts no work, recorded only).
func (h *webhookHandler) accept(ctx context.Context, w http.ResponseWriter, d deliveryArgs, action string) {
	fresh, err := h.queue.enqueue(ctx, d)
	if err != nil {
		h.log.Error("webhook refused", "reason", "store_error", "status", http.StatusServiceUnavailable,
			"delivery", d.DeliveryID, "event", d.Event, "err", err)
		h.answer(w, d.Event, http.StatusServiceUnavailable, "store_error", "could not record the delivery; redeliver later")
		return
	}
	log := h.log.With("event", d.Event, "action", action, "delivery", d.DeliveryID)
	switch {
	case !fresh:
		log.Info("webhook delivery", "result", "duplicate")
		h.answer(w, d.Event, http.StatusOK, "duplicate", "delivery already received")
	case !handled(d.Event):
		log.Info("webhook delivery", "result", "ignored")
		h.answer(w, d.Event, http.StatusAccepted, "accepted", "recorded; this event starts no work")
	default:
		log.Info("webhook delivery", "result", "queued")
		h.answer(w, d.Event, http.StatusAccepted, "accepted", "queued")
	}
}

// refuse logs a refused request at warn, by reason and status only, and
// answers it.
func (h *webhookHandler) refuse(w http.ResponseWriter, label string, ref refusal) {
	h.log.Warn("webhook refused", "reason", ref.reason, "status", ref.status)
	h.answer(w, label, ref.status, ref.reason, ref.msg)
}

func (h *webhookHandler) answer(w http.ResponseWriter, event string, status int, result, msg string) {
	if h.metrics != nil {
		h.metrics.delivery(event, result)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"result": result, "message": msg})
}
