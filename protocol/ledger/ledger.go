// Package ledger holds the values the App records: an Entry is one
// decision written to the append-only, hash-chained ledger, and a Kept is
// one owner decision the App accepted and keeps as it was accepted
// (docs/gates.md, "Kept decisions"). They are plain values, so the pure
// verdict can build them and the store can write them without the one
// importing the other.
package ledger

import "time"

// Entry is one decision the App made.
type Entry struct {
	// Kind names the decision, e.g. "check_run:aepgate/work-unit".
	Kind string
	// DeliveryID is the webhook delivery that led to it ("" for the sweep).
	DeliveryID string
	// Subject is what it was about, e.g. "acme/app#12@<sha>".
	Subject string
	// Body holds the inputs' IDs and SHAs and the result; it is stored as
	// JSON.
	Body any
}

// Kept is one kept decision's row.
type Kept struct {
	// Repo is "owner/name"; Review tells a review from a comment (their IDs
	// are separate series); ItemID is GitHub's ID.
	Repo   string
	Review bool
	ItemID int64
	// Unit is the work unit it was judged for (0 for the control issue).
	Unit int
	// Item is the item as accepted, as JSON the caller encodes.
	Item       []byte
	BodySHA256 string
	KeptAt     time.Time
	// LedgerSeq is the ledger row that records the keeping.
	LedgerSeq int64
	// Tamper is "edited" or "deleted" once a webhook reported it, with who
	// and when; TamperLedgered is the change already written to the ledger.
	Tamper, TamperedBy, TamperLedgered string
	TamperedAt                         time.Time
}
