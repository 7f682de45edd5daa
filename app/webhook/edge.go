// Package webhook is the App's HTTP edge, POST /webhook: it streams a
// body within a size cap, a byte budget and a minimum rate while computing
// its HMAC-SHA256 under each secret, verifies the signature in constant
// time, checks the headers and the body's shape, and hands the verified
// delivery to an Enqueuer that records its ID and queues its job durably.
// Which events start work and what a job keeps of a body are the App's
// business: they come in as Config.Handled and Config.Views.
package webhook

import (
	"cmp"
	"errors"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"
)

// MaxPayload is GitHub's webhook payload cap: larger events are never
// delivered (GitHub docs: Webhook events and payloads, "Payloads are capped
// at 25 MB"), so a larger body is refused.
const MaxPayload = 25 << 20

// MaxBuffered bounds the webhook bytes held at once, verified or not, in
// memory or spooled to disk. Bytes count as they arrive, so only senders
// that really send hold any of it.
const MaxBuffered = 4 * MaxPayload

// UnverifiedEvent is the metrics label of a request whose signature has
// not verified (yet).
const UnverifiedEvent = "unverified"

// Config is what the edge needs from the App.
type Config struct {
	// Secrets are the accepted webhook secrets: the current one and,
	// during a rotation, the previous one.
	Secrets [][]byte
	// Queue records and queues verified deliveries.
	Queue Enqueuer
	// Handled reports whether an event starts work; the body of one that
	// does not is recorded without a payload.
	Handled func(event string) bool
	// Views returns new values (pointers, as json.Unmarshal takes them)
	// of the payload views a job of a handled event decodes, of the same
	// types for an event each time. A job keeps of a verified body exactly
	// the members they read (with the Envelope's), as the body has them,
	// so it decodes from what is kept what it would from the whole body;
	// a body whose fields do not have their types is refused as malformed.
	Views func(event string) []any
	// Metrics receive the edge's counts (zero: none).
	Metrics Metrics
	// Log receives one line per request (nil: none).
	Log *slog.Logger
	// Budget bounds the bytes of bodies held at once; 0 means MaxBuffered.
	Budget int64
	// TrustedProxies are the proxies whose X-Forwarded-For names the
	// client address (the rightmost hop that is not one of them); empty:
	// the connection's address is the client's.
	TrustedProxies []netip.Prefix
	// Hooks are GitHub's hook address ranges (nil: none known). Those
	// addresses get a reserved quarter of the budget, no per-address byte
	// cap and DefaultHookPerClient unverified bodies; never a pass on the
	// signature.
	Hooks HookRanges
	// OnBusy is called after each refusal with 503 busy (nil: nothing), so
	// the App can sweep for the events such refusals lost; it must not
	// block.
	OnBusy func()
	// Options replace parts of the edge (zero: the App's own).
	Options Options
}

// Handler is the HTTP edge: POST /webhook. Every accepted delivery is
// logged at info (event, action, delivery ID, result) and every refused
// request at warn (reason, status, client address); bodies, secrets and
// signatures never are.
type Handler struct {
	secrets [][]byte
	queue   Enqueuer
	events  handledEvents
	metrics Metrics
	log     *slog.Logger
	admit   admission
	onBusy  func()
	// opts replaces parts of the edge; its zero value is the App's own.
	opts Options
}

// handledEvents is what the edge knows of the App's events: which start
// work and which payload views a job of each keeps.
type handledEvents struct {
	handled func(event string) bool
	views   func(event string) []any
	// reads caches, by handled event, what the edge reads of its bodies.
	reads sync.Map
}

// admission is who may hold how much of the edge while a body arrives.
type admission struct {
	// budget bounds the bytes of bodies being held.
	budget *byteBudget
	// slots counts each client address's unverified bodies.
	slots   clientSlots
	proxies []netip.Prefix
	hooks   HookRanges
}

// New builds the edge; it refuses a Config without secrets, an empty
// secret, or without a queue, a Handled or a Views.
func New(c Config) (*Handler, error) {
	switch {
	case len(c.Secrets) == 0:
		return nil, errors.New("webhook: a secret is required")
	case c.Queue == nil || c.Handled == nil || c.Views == nil:
		return nil, errors.New("webhook: a queue, a handled-events func and a views func are required")
	}
	for _, s := range c.Secrets {
		if len(s) == 0 {
			return nil, errors.New("webhook: a secret is empty")
		}
	}
	if c.Log == nil {
		c.Log = slog.New(slog.DiscardHandler)
	}
	budget := newByteBudget(cmp.Or(c.Budget, MaxBuffered), c.Hooks != nil)
	if c.Hooks != nil {
		budget.reserving = c.Hooks.Known
	}
	if c.Options.PerAddressBytes > 0 {
		budget.perAddr = c.Options.PerAddressBytes
	}
	return &Handler{secrets: c.Secrets, queue: c.Queue, events: handledEvents{handled: c.Handled, views: c.Views}, metrics: c.Metrics,
		log: c.Log, admit: admission{budget: budget, proxies: c.TrustedProxies, hooks: c.Hooks}, opts: c.Options,
		onBusy: c.OnBusy}, nil
}

// refusal is a request the edge answers without queueing anything.
type refusal struct {
	status      int
	reason, msg string
}

// ServeHTTP streams the body within the cap, the budget and the minimum
// rate while computing its signature, verifies it, checks the headers and
// the payload, gives the body's bytes back to the budget, then records
// and queues the delivery (the queue knows a body accepted before under
// another delivery ID, in the same transaction).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Until the signature verifies, the event header is the sender's word:
	// metrics label it "unverified", so forged requests cannot mint one
	// Prometheus series per invented event name.
	label := UnverifiedEvent
	if h.opts.UnverifiedLabel != nil {
		label = h.opts.UnverifiedLabel(r)
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		h.refuse(w, r, label, refusal{http.StatusMethodNotAllowed, "method_not_allowed", "POST only"})
		return
	}
	c := h.client(r)
	body, release, ref := h.readBody(w, r, c)
	defer release()
	if ref == nil && !h.verified(r.Header.Get("X-Hub-Signature-256"), body.macs) {
		ref = &refusal{http.StatusUnauthorized, "bad_signature", "missing or invalid X-Hub-Signature-256"}
	}
	if ref != nil {
		h.refuse(w, r, label, *ref)
		return
	}
	d, env, ref := h.delivery(r.Header, body)
	if ref != nil {
		h.refuse(w, r, d.Event, *ref)
		return
	}
	if !h.opts.KeepBudgetUntilQueued {
		// What is queued is the payload the job keeps: the body's bytes
		// are done with, so a slow commit never holds the budget.
		release()
	}
	h.accept(r.Context(), w, d, env)
}

// readBody reads the body within the size cap, the client's slots and the
// byte budget; release gives back what it took, once however often it is
// called, and is never nil. A body refused before its end is not read
// further.
func (h *Handler) readBody(w http.ResponseWriter, r *http.Request, c client) (body *spooled, release func(), ref *refusal) {
	limit := cmp.Or(h.opts.MaxPayload, MaxPayload)
	p := newPacer(w, h.opts.Rate)
	sp := newSpooler(h.secrets, h.opts.SpoolAt)
	var held int64
	release = sync.OnceFunc(func() {
		h.admit.budget.release(c, held)
		sp.s.close()
	})
	if r.ContentLength > limit {
		ref = &refTooLarge
	} else {
		held, ref = h.readAsClient(r, c, p, sp, limit)
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
func (h *Handler) readAsClient(r *http.Request, c client, p *pacer, sp *spooler, limit int64) (held int64, ref *refusal) {
	if !h.admit.slots.take(r.Context(), c.addr, h.perClient(c), h.slotWait()) {
		return 0, &refTooMany
	}
	h.unverified(1)
	defer func() { h.admit.slots.give(c.addr); h.unverified(-1) }()
	if h.opts.Reserve != nil {
		held = h.opts.Reserve(r, limit)
		if !h.admit.budget.take(c, held) {
			return 0, &refBusy
		}
	}
	n, ref := h.stream(r, c, p, sp, limit, held)
	return held + n, ref
}

// perClient is how many unverified bodies c may send at once.
func (h *Handler) perClient(c client) int {
	if c.hook {
		return cmp.Or(h.opts.HookPerClient, DefaultHookPerClient)
	}
	return cmp.Or(h.opts.PerClient, DefaultPerClient)
}

// slotWait is how long a body waits for a slot of its address.
func (h *Handler) slotWait() time.Duration {
	if h.opts.SlotWait < 0 {
		return 0
	}
	return cmp.Or(h.opts.SlotWait, DefaultSlotWait)
}
