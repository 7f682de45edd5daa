package gatelog

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// Kept decisions (docs/gates.md, "Kept decisions"): any writer can edit or
// delete any comment on GitHub, so a decision aepgate once accepted is kept
// by the App as it was when accepted, and replayed from that copy whatever
// later happens to its source. An edit or deletion never lifts what the
// item blocked (a HOLD, an opened gate); it only cancels what it granted (a
// resume, a resolve), and it is reported as tampering.

// Tamper changes of a kept item's source.
const (
	ChangeEdited  = "edited"
	ChangeDeleted = "deleted"
)

// Kept is an item aepgate accepted a decision from, as it was then.
type Kept struct {
	// Item is the comment or review as GitHub showed it when the decision
	// was first accepted (created, unedited).
	Item Item
	// BodySHA256 is the hex SHA-256 of Item.Body as accepted.
	BodySHA256 string
	// Change is what GitHub reported of the source by webhook
	// (issue_comment.edited or .deleted: ChangeEdited, ChangeDeleted), which
	// a thread read only in part cannot show; "" when nothing was reported.
	Change string
	// TamperedBy is who edited or deleted the source, when the App learnt
	// it from a webhook's sender; "" when unknown.
	TamperedBy string
}

// Read says which comments of a thread the evaluation read: every comment
// whose ID is FromID or more (0: the whole thread). A kept comment of the
// thread in that range that is missing was deleted; one older than FromID
// was simply not read again.
type Read struct {
	Source Source
	FromID int64
}

// Tamper is a kept item whose source changed after aepgate accepted it.
type Tamper struct {
	ItemID int64
	// Review is set when the item is a pull request review.
	Review bool
	URL    string
	Source Source
	// Author wrote the kept item; By edited or deleted it ("" unknown).
	Author, By string
	// Change is ChangeEdited or ChangeDeleted.
	Change string
	// Created is when the kept item was posted.
	Created time.Time
}

// BodyHash is the hex SHA-256 of a kept item's body.
func BodyHash(body string) string {
	h := sha256.Sum256([]byte(body))
	return hex.EncodeToString(h[:])
}

// itemKey tells comments and reviews apart: their IDs are separate series.
type itemKey struct {
	review bool
	id     int64
}

func keyOf(it *Item) itemKey { return itemKey{review: it.Event == EventReview, id: it.ID} }

// withKept returns the items to replay: in.Items with every kept item put
// back as it was accepted where its source was edited, deleted or not read,
// every witnessed item put back as created where GitHub shows it changed,
// and the tampering seen. A tampered item is marked (Item.Tampered) so that
// what it granted no longer counts (the tampered-grant rule).
func withKept(in *Input) ([]Item, []Tamper) {
	if len(in.Kept) == 0 && len(in.Witnessed) == 0 {
		return in.Items, nil
	}
	r := newReplay(in)
	for _, k := range in.Kept {
		r.putKept(k)
	}
	for _, w := range in.Witnessed {
		r.putWitnessed(w)
	}
	return r.items, r.tampered
}

// replay is the items withKept builds, indexed by key, and the tampering
// found so far.
type replay struct {
	in       *Input
	items    []Item
	at       map[itemKey]int
	tampered []Tamper
}

// newReplay starts a replay from a copy of in.Items.
func newReplay(in *Input) *replay {
	items := append([]Item(nil), in.Items...)
	at := make(map[itemKey]int, len(items))
	for i := range items {
		at[keyOf(&items[i])] = i
	}
	return &replay{in: in, items: items, at: at}
}

// put sets it in place of the item at i when seen, else appends it.
func (r *replay) put(it Item, i int, seen bool) {
	if seen {
		r.items[i] = it
		return
	}
	r.at[keyOf(&it)] = len(r.items)
	r.items = append(r.items, it)
}

// putKept puts kept item k back as accepted, unless GitHub shows it intact,
// and records its tampering.
func (r *replay) putKept(k Kept) {
	orig := k.Item
	orig.Updated, orig.Tampered, orig.Kept = orig.Created, "", true
	i, seen := r.at[keyOf(&orig)]
	if seen && !r.items[i].Updated.After(r.items[i].Created) && BodyHash(r.items[i].Body) == k.BodySHA256 {
		// Intact: GitHub shows it as accepted; the head an override was
		// accepted at is the App's, kept with it.
		r.items[i].Kept, r.items[i].Head = true, orig.Head
		return
	}
	change := keptChange(r.in.Read, k, orig, seen)
	by := k.TamperedBy
	if seen && r.items[i].EditedBy != "" {
		by = r.items[i].EditedBy
	}
	if change != "" {
		orig.Tampered = change
		r.tampered = append(r.tampered, Tamper{ItemID: orig.ID, Review: orig.Event == EventReview, URL: orig.URL, Source: orig.Source, Author: orig.Author, By: by, Change: change, Created: orig.Created})
	}
	r.put(orig, i, seen)
}

// keptChange is how the source of kept item k (as orig) changed when GitHub
// does not show it intact: edited when seen, deleted when missing from what
// was read or reported deleted, edited when reported so, else "".
func keptChange(reads []Read, k Kept, orig Item, seen bool) string {
	switch {
	case seen:
		return ChangeEdited
	case k.Change == ChangeDeleted, readWhole(reads, orig):
		return ChangeDeleted
	case k.Change == ChangeEdited:
		return ChangeEdited
	}
	return ""
}

// putWitnessed puts witnessed item w back as created where GitHub shows it
// edited or deleted, and records that tampering.
func (r *replay) putWitnessed(w Item) {
	i, seen := r.at[keyOf(&w)]
	if seen && r.items[i].Kept || len(requests(w.Body, r.in.Policy.Prefix)) == 0 {
		// Kept already (the kept copy counts), or it decided nothing as
		// created: what GitHub shows is judged (an edit adds nothing).
		return
	}
	w.Updated, w.Kept, w.Tampered = w.Created, false, ""
	switch {
	case seen && (r.items[i].Updated.After(r.items[i].Created) || r.items[i].Body != w.Body):
		w.Tampered, w.EditedBy = ChangeEdited, r.items[i].EditedBy
	case !seen && readWhole(r.in.Read, w):
		w.Tampered = ChangeDeleted
	default:
		return
	}
	r.put(w, i, seen)
	r.tampered = append(r.tampered, Tamper{ItemID: w.ID, URL: w.URL, Source: w.Source, Author: w.Author, By: w.EditedBy, Change: w.Tampered, Created: w.Created})
}

// readWhole reports whether the evaluation read the part of its thread
// where it would be: a deleted comment is missing from there.
func readWhole(reads []Read, it Item) bool {
	if it.Event == EventReview {
		return false // reviews cannot be deleted once submitted
	}
	for _, r := range reads {
		if r.Source == it.Source && it.ID >= r.FromID {
			return true
		}
	}
	return false
}

// grants are the actions an edit or deletion of their source cancels.
var grants = map[string]bool{ActionResume: true, ActionResolve: true, ActionApprove: true, ActionOverride: true}

// acceptedBlock reports whether a is what a kept item blocked with (a HOLD
// or an opened gate): it was judged when first accepted and stays in force
// whatever later happens to its sender's permission or listing, until an
// owner lifts it.
func acceptedBlock(a Attempt) bool { return a.Item.Kept && !grants[a.Action] }

// Keeps reports whether an accepted request of this action is a decision
// the App keeps: what blocks (HOLD, an opened gate), which an edit never
// lifts, and what grants (resume, resolve, override), which an edit
// cancels. Keeping
// both means a thread read only from where the App last read it replays
// the same as the whole thread.
func Keeps(action string) bool {
	return action == ActionHold || action == ActionOpenGate || grants[action] && action != ActionApprove
}
