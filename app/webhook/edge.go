package app

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"time"
)

// MaxPayload is GitHub's webhook payload cap: larger events are never
// delivered (GitHub docs: Webhook events and payloads, "Payloads are capped
// at 25 MB"), so a larger body is refused.
const MaxPayload = 25 << 20

// maxBuffered bounds the webhook bytes held at once, verified or not, in
// memory or spooled to disk. Bytes count as they arrive, so only senders
// that really send hold any of it.
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
// request at warn (reason, status, client address); bodies, secrets and
// signatures never are.
type webhookHandler struct {
	secrets [][]byte
	queue   enqueuer
	metrics *metrics
	log     *slog.Logger
	// budget bounds the bytes of bodies being held (nil: no bound).
	budget *byteBudget
	// slots counts each client address's unverified bodies.
	slots clientSlots
	// edge replaces parts of the edge; its zero value is the App's own.
	edge edgeOptions
}

// edgeOptions replace parts of the webhook edge. The zero value is the
// App's own edge; a negative-control test puts a broken variant in one
// field to show the attack it stops then gets through.
type edgeOptions struct {
	// verify checks an X-Hub-Signature-256 value against the body's
	// HMAC-SHA256 under each secret; nil means a constant-time comparison.
	verify func(sig string, macs [][]byte) bool
	// maxPayload caps a body in bytes; 0 means MaxPayload.
	maxPayload int64
	// unverifiedLabel is the metrics event label of a request whose
	// signature has not verified (yet); nil means "unverified".
	unverifiedLabel func(r *http.Request) string
	// reserve is how many bytes a request takes from the budget before its
	// body is read; nil means none: the budget is charged as bytes arrive.
	reserve func(r *http.Request, limit int64) int64
	// rate is the time by which a body that began at start and has brought
	// received bytes must bring more; nil means rateDeadline.
	rate func(start time.Time, received int64) time.Time
	// perClient caps the unverified bodies one client address sends at
	// once; 0 means DefaultPerClient.
	perClient int
	// maxDepth caps a body's JSON nesting; 0 means MaxDepth.
	maxDepth int
	// spoolAt is the size past which a body goes to a temporary file; 0
	// means spoolThreshold.
	spoolAt int64
	// store is what a job keeps of a verified body; nil means
	// storedPayload.
	store func(body []byte) (json.RawMessage, error)
}

// refusal is a request the edge answers without queueing anything.
type refusal struct {
	status      int
	reason, msg string
}

// ServeHTTP streams the body within the cap, the budget and the minimum
// rate while computing its signature, verifies it, checks the headers and
// the payload, then records and queues the delivery.
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
		h.refuse(w, r, label, refusal{http.StatusMethodNotAllowed, "method_not_allowed", "POST only"})
		return
	}
	body, release, ref := h.readBody(w, r)
	defer release()
	if ref == nil && !h.verified(r.Header.Get("X-Hub-Signature-256"), body.macs) {
		ref = &refusal{http.StatusUnauthorized, "bad_signature", "missing or invalid X-Hub-Signature-256"}
	}
	if ref != nil {
		h.refuse(w, r, label, *ref)
		return
	}
	d, action, ref := h.delivery(r.Header, body)
	if ref != nil {
		h.refuse(w, r, d.Event, *ref)
		return
	}
	h.accept(r.Context(), w, d, action)
}

// readBody reads the body within the size cap, the client's slots and the
// byte budget; release gives back what it took and is never nil. A body
// refused before its end is not read further.
func (h *webhookHandler) readBody(w http.ResponseWriter, r *http.Request) (body *spooled, release func(), ref *refusal) {
	limit := cmp.Or(h.edge.maxPayload, MaxPayload)
	p := newPacer(w, h.edge.rate)
	sp := newSpooler(h.secrets, h.edge.spoolAt)
	var held int64
	release = func() {
		if h.budget != nil {
			h.budget.release(held)
		}
		sp.s.close()
	}
	if r.ContentLength > limit {
		ref = &refTooLarge
	} else {
		held, ref = h.readAsClient(r, p, sp, limit)
	}
	if ref != nil {
		p.cut()
		return nil, release, ref
	}
	p.finish()
	return sp.done(), release, nil
}

// readAsClient streams the body holding one of its client address's
// slots, and returns the bytes it took from the budget.
func (h *webhookHandler) readAsClient(r *http.Request, p *pacer, sp *spooler, limit int64) (held int64, ref *refusal) {
	addr := clientAddr(r)
	if !h.slots.take(addr, cmp.Or(h.edge.perClient, DefaultPerClient)) {
		return 0, &refTooMany
	}
	h.metrics.unverified(1)
	defer func() { h.slots.give(addr); h.metrics.unverified(-1) }()
	if h.edge.reserve != nil && h.budget != nil {
		held = h.edge.reserve(r, limit)
		if !h.budget.take(held) {
			return 0, &refBusy
		}
	}
	n, ref := h.stream(r, p, sp, limit, held)
	return held + n, ref
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

// refuse logs a refused request at warn, by reason, status and client
// address only, and answers it.
func (h *webhookHandler) refuse(w http.ResponseWriter, r *http.Request, label string, ref refusal) {
	h.log.Warn("webhook refused", "reason", ref.reason, "status", ref.status, "client", clientAddr(r))
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
