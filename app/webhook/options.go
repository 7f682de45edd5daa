package webhook

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"time"
)

// Delivery is one verified webhook delivery as the edge hands it on.
type Delivery struct {
	// DeliveryID is the X-GitHub-Delivery header.
	DeliveryID string
	// Event is the X-GitHub-Event header.
	Event string
	// Payload is what the edge kept of the body (the members Config.Views
	// read), for an event Config.Handled starts work for; nil otherwise.
	Payload json.RawMessage
	// BodySHA256 is the body's SHA-256, by which a body already accepted
	// under another delivery ID is known.
	BodySHA256 [sha256.Size]byte
}

// Outcome is what recording a verified delivery found. Its zero value is
// a new delivery, recorded and, when its event starts work, queued.
type Outcome struct {
	// Duplicate is set when the delivery ID was recorded before: nothing
	// is queued (GitHub's redelivery keeps the ID).
	Duplicate bool
	// ReplayOf, when set, is the other delivery ID under which a body with
	// the same SHA-256 was accepted within ReplayMemory: a captured body
	// sent again under a new ID; nothing is queued.
	ReplayOf string
}

// Enqueuer records a verified delivery (its ID and its body's SHA-256)
// and queues its job durably, in one transaction.
type Enqueuer interface {
	Enqueue(ctx context.Context, d Delivery) (Outcome, error)
}

// Metrics receive the edge's counts; a nil func counts nothing.
type Metrics struct {
	// Delivery counts one answered request by event label and result. The
	// label is "unverified" until the signature verifies, then the event
	// header when it is a valid event name, "unknown" when it is missing
	// and "invalid" otherwise, so a sender cannot mint labels.
	Delivery func(event, result string)
	// Unverified moves the count of bodies being read whose signature is
	// not checked yet by delta.
	Unverified func(delta float64)
}

// Options replace parts of the webhook edge. The zero value is the edge
// as the App runs it; a negative-control test puts a broken variant in one
// field to show the attack it stops then gets through.
type Options struct {
	// Verify checks an X-Hub-Signature-256 value against the body's
	// HMAC-SHA256 under each secret; nil means a constant-time comparison.
	Verify func(sig string, macs [][]byte) bool
	// MaxPayload caps a body in bytes; 0 means MaxPayload.
	MaxPayload int64
	// UnverifiedLabel is the metrics event label of a request whose
	// signature has not verified (yet); nil means "unverified".
	UnverifiedLabel func(r *http.Request) string
	// Reserve is how many bytes a request takes from the budget before its
	// body is read; nil means none: the budget is charged as bytes arrive.
	Reserve func(r *http.Request, limit int64) int64
	// Rate is the time by which a body with the given progress must bring
	// more; nil means the minimum rate over a sliding window: 64 KiB in
	// every 2 s, 60 s in all.
	Rate func(p Progress) time.Time
	// PerClient caps the unverified bodies one client address sends at
	// once; 0 means DefaultPerClient.
	PerClient int
	// HookPerClient is PerClient for GitHub's hook addresses; 0 means
	// DefaultHookPerClient.
	HookPerClient int
	// SlotWait is how long a body waits for a slot of its address before
	// it is refused; 0 means DefaultSlotWait, negative not at all.
	SlotWait time.Duration
	// PerAddressBytes caps the bytes one address outside GitHub's hook
	// ranges holds; 0 means a quarter of the budget.
	PerAddressBytes int64
	// KeepBudgetUntilQueued holds a body's bytes in the budget until its
	// delivery is queued instead of giving them back once the body is
	// verified and reduced to its payload.
	KeepBudgetUntilQueued bool
	// EventFits reports whether a body with the given top-level keys fits
	// event; nil means the table of GitHub's events (eventShapes).
	EventFits func(event string, keys []string) bool
	// MaxDepth caps a body's JSON nesting; 0 means MaxDepth.
	MaxDepth int
	// SpoolAt is the size past which a body goes to a temporary file; 0
	// means 1 MiB.
	SpoolAt int64
}
