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
	Payload Payload `json:"payload"`
}

// Payload is a JSON document kept in a job's args as one JSON string,
// not as an object. On PostgreSQL River indexes args with GIN (jsonb_ops),
// one index entry per key and per scalar value, where a string is one
// entry: with the GIN indexes taking inserts directly (ginDirect) a
// pull_request delivery wrote 5.5 KB of WAL with its payload an object
// and 2.7 KB with it a string (pg_stat_wal over 60,000 deliveries;
// docs/app.md). It decodes from a string, and from an object or any
// other JSON value as jobs queued before were written. Encoding replaces
// invalid UTF-8 with U+FFFD, as the views decoding it would.
type Payload []byte

// MarshalJSON writes p as a JSON string.
func (p Payload) MarshalJSON() ([]byte, error) { return json.Marshal(string(p)) }

// UnmarshalJSON reads a JSON string's text, or any other JSON value
// itself.
func (p *Payload) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*p = Payload(s)
		return nil
	}
	*p = append((*p)[:0], b...)
	return nil
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
