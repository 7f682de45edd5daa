package queue

import (
	"encoding/json"
)

// Delivery is the durable job of one verified webhook delivery.
type Delivery struct {
	DeliveryID string `json:"delivery_id"`
	Event      string `json:"event"`
	// Payload is what the job keeps of the body: the fields its handlers
	// read (what their payload views read, kept by the edge), not the
	// whole body.
	Payload json.RawMessage `json:"payload"`
}

// deliveryKind is Delivery's job kind in River's table.
const deliveryKind = "aepgate_delivery"

// Kind names the job kind in River's table.
func (Delivery) Kind() string { return deliveryKind }

// Reconcile is the periodic sweep's job.
type Reconcile struct{}

// Kind names the job kind in River's table.
func (Reconcile) Kind() string { return "aepgate_reconcile" }

// Fanout is the job that judges every open pull request of one
// repository once after a decision on its control issue changed (a
// project HOLD, resume or gate, or tampering with one): the changes of one
// window are coalesced into one pass, which runs at the window's end and so
// sees them all. A control-issue comment that changes nothing (a stranger's,
// or one without an accepted request) asks for none.
type Fanout struct {
	Installation int64  `json:"installation"`
	Owner        string `json:"owner"`
	Repo         string `json:"repo"`
	// Slot numbers the fan-out window the job was asked in.
	Slot int64 `json:"slot"`
}

// Kind names the job kind in River's table.
func (Fanout) Kind() string { return "aepgate_fanout" }
