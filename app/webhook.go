package app

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strings"
	"sync"
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

var (
	eventName  = regexp.MustCompile(`^[a-z0-9_]{1,64}$`)
	deliveryID = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)
)

// enqueuer records a verified delivery and queues its job durably, in one
// transaction; fresh is false when the delivery ID was seen before (checked
// only when dedupe is set).
type enqueuer interface {
	enqueue(ctx context.Context, d deliveryArgs, dedupe bool) (fresh bool, err error)
}

// webhookHandler is the HTTP edge: POST /webhook.
type webhookHandler struct {
	secrets [][]byte
	queue   enqueuer
	metrics *metrics
	log     *slog.Logger
	// budget bounds the bytes of bodies being held (nil: no bound).
	budget *byteBudget

	// Negative-control hooks: tests switch a protection off to show the
	// attack it stops then succeeds. Production never sets them.
	skipSignature bool
	skipSizeCap   bool
	skipDedupe    bool
	// labelUnverified labels metrics with the unverified event header.
	labelUnverified bool
}

func (h *webhookHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.answer(w, "", http.StatusMethodNotAllowed, "method_not_allowed", "POST only")
		return
	}
	// Until the signature verifies, the event header is the sender's word:
	// metrics label it "unverified", so forged requests cannot mint one
	// Prometheus series per invented event name.
	event := unverifiedEvent
	if h.labelUnverified {
		event = r.Header.Get("X-GitHub-Event")
	}
	var src io.Reader = r.Body
	if !h.skipSizeCap {
		if r.ContentLength > MaxPayload {
			h.answer(w, event, http.StatusRequestEntityTooLarge, "too_large", "payload over 25 MB")
			return
		}
		src = http.MaxBytesReader(w, r.Body, MaxPayload)
	}
	if h.budget != nil {
		// A body of unknown length may take up to the cap.
		n := int64(MaxPayload)
		if r.ContentLength >= 0 && r.ContentLength < n {
			n = r.ContentLength
		}
		if err := h.budget.acquire(r.Context(), n); err != nil {
			h.answer(w, event, http.StatusServiceUnavailable, "busy", "too many deliveries in flight; redeliver later")
			return
		}
		defer h.budget.release(n)
	}
	body, err := io.ReadAll(src)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			h.answer(w, event, http.StatusRequestEntityTooLarge, "too_large", "payload over 25 MB")
			return
		}
		h.answer(w, event, http.StatusBadRequest, "unreadable", "body could not be read")
		return
	}
	if !h.skipSignature && !h.verify(r.Header.Get("X-Hub-Signature-256"), body) {
		h.answer(w, event, http.StatusUnauthorized, "bad_signature", "missing or invalid X-Hub-Signature-256")
		return
	}
	event = r.Header.Get("X-GitHub-Event")
	id := r.Header.Get("X-GitHub-Delivery")
	switch {
	case !eventName.MatchString(event):
		h.answer(w, event, http.StatusBadRequest, "malformed", "missing or invalid X-GitHub-Event")
		return
	case !deliveryID.MatchString(id):
		h.answer(w, event, http.StatusBadRequest, "malformed", "missing or invalid X-GitHub-Delivery")
		return
	case !isJSONObject(body):
		h.answer(w, event, http.StatusBadRequest, "malformed", "body is not a JSON object")
		return
	}
	fresh, err := h.queue.enqueue(r.Context(), deliveryArgs{DeliveryID: id, Event: event, Payload: body}, !h.skipDedupe)
	switch {
	case err != nil:
		h.log.Error("enqueue delivery", "delivery", id, "event", event, "err", err)
		h.answer(w, event, http.StatusServiceUnavailable, "store_error", "could not record the delivery; redeliver later")
	case !fresh:
		h.answer(w, event, http.StatusOK, "duplicate", "delivery already received")
	default:
		h.log.Debug("delivery accepted", "delivery", id, "event", event)
		h.answer(w, event, http.StatusAccepted, "accepted", "queued")
	}
}

// verify checks sig ("sha256=<hex>") against each secret in constant time.
func (h *webhookHandler) verify(sig string, body []byte) bool {
	hexSig, ok := strings.CutPrefix(sig, "sha256=")
	if !ok {
		return false
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil || len(got) != sha256.Size {
		return false
	}
	valid := false
	for _, s := range h.secrets {
		m := hmac.New(sha256.New, s)
		m.Write(body)
		// Every secret is tried, so timing does not say which matched.
		if hmac.Equal(got, m.Sum(nil)) {
			valid = true
		}
	}
	return valid
}

func (h *webhookHandler) answer(w http.ResponseWriter, event string, status int, result, msg string) {
	if h.metrics != nil {
		h.metrics.delivery(event, result)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]string{"result": result, "message": msg})
}

func isJSONObject(b []byte) bool {
	s := strings.TrimLeft(string(b[:min(len(b), 64)]), " \t\r\n")
	return strings.HasPrefix(s, "{") && json.Valid(b)
}

// byteBudget is a weighted semaphore over bytes that honours context
// cancellation. One request larger than the whole budget may still run
// alone.
type byteBudget struct {
	max int64

	mu    sync.Mutex
	used  int64
	freed chan struct{} // closed and replaced at each release
}

func newByteBudget(max int64) *byteBudget {
	return &byteBudget{max: max, freed: make(chan struct{})}
}

func (b *byteBudget) acquire(ctx context.Context, n int64) error {
	for {
		b.mu.Lock()
		if b.used == 0 || b.used+n <= b.max {
			b.used += n
			b.mu.Unlock()
			return nil
		}
		freed := b.freed
		b.mu.Unlock()
		select {
		case <-freed:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.used -= n
	close(b.freed)
	b.freed = make(chan struct{})
}
