package verdict

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/ledger"
)

// itemKey names a comment or review: their IDs are separate spaces.
type itemKey struct {
	review bool
	id     int64
}

// ToKeep are the items whose requests the gate log accepted as decisions
// the App keeps (a HOLD, resume, gate or resolve) and that are not kept
// yet, in the gate log's order (docs/gates.md, "Kept decisions").
func ToKeep(ev *Evaluation) []gatelog.Item {
	g := ev.GateLog()
	if g == nil {
		return nil
	}
	have := map[itemKey]bool{}
	for _, k := range ev.Kept {
		have[itemKey{k.Item.Event == gatelog.EventReview, k.Item.ID}] = true
	}
	items := map[itemKey]*gatelog.Item{}
	for i := range g.Items {
		it := &g.Items[i]
		items[itemKey{it.Event == gatelog.EventReview, it.ID}] = it
	}
	var out []gatelog.Item
	for _, o := range g.Outcomes {
		k := itemKey{o.Review, o.ItemID}
		if !o.Accepted || !gatelog.Keeps(o.Action) || items[k] == nil || have[k] {
			continue
		}
		have[k] = true
		out = append(out, *items[k])
	}
	return out
}

// KeptRecord is the stored copy of accepted item it and its ledger row. A
// control-issue decision belongs to no unit.
func KeptRecord(at Origin, ev *Evaluation, it gatelog.Item) (ledger.Kept, ledger.Entry, error) {
	raw, err := json.Marshal(it)
	if err != nil {
		return ledger.Kept{}, ledger.Entry{}, fmt.Errorf("encode kept decision %d: %w", it.ID, err)
	}
	repo, unit := at.Owner+"/"+at.Repo, ev.Unit
	if it.Source.Kind == gatelog.ControlIssue {
		unit = 0
	}
	hash := gatelog.BodyHash(it.Body)
	k := ledger.Kept{Repo: repo, Review: it.Event == gatelog.EventReview, ItemID: it.ID, Unit: unit, Item: raw, BodySHA256: hash}
	body := map[string]any{"repository": repo, "item": it.ID, "url": it.URL, "thread": it.Source.Number, "kind": string(it.Source.Kind),
		"author": it.Author, "created": it.Created.UTC().Format(time.RFC3339Nano), "body_sha256": hash, "unit": unit}
	if o, ok := overrideOf(ev, it.ID); ok {
		body["override"] = map[string]any{"check": o.Check, "reason": o.Reason, "pull_request": o.PR, "head_sha": o.Head}
	}
	return k, ledger.Entry{Kind: "kept_decision", DeliveryID: at.Delivery, Subject: fmt.Sprintf("%s/kept/%d", repo, it.ID), Body: body}, nil
}

// TamperEntry is the ledger row of one change to a kept decision's source.
func TamperEntry(at Origin, ev *Evaluation, t gatelog.Tamper) ledger.Entry {
	repo := at.Owner + "/" + at.Repo
	return ledger.Entry{Kind: "tampering", DeliveryID: at.Delivery, Subject: fmt.Sprintf("%s/kept/%d", repo, t.ItemID),
		Body: map[string]any{"repository": repo, "item": t.ItemID, "url": t.URL, "thread": t.Source.Number, "kind": string(t.Source.Kind),
			"author": t.Author, "change": t.Change, "by": t.By, "unit": ev.Unit, "pull_request": at.PR}}
}

// KeptHolds are the kept decisions of repo's rows a HOLD on the units
// units names may come from: the control issue's and those units' own
// (their issues' and pull requests'), for HoldOn. A row that does not
// decode is an error naming it.
func KeptHolds(rows []ledger.Kept, repo string, units ...int) ([]gatelog.Kept, error) {
	var kept []gatelog.Kept
	for _, r := range rows {
		var it gatelog.Item
		if err := json.Unmarshal(r.Item, &it); err != nil {
			return nil, fmt.Errorf("kept decision %d of %s: %w", r.ItemID, repo, err)
		}
		if it.Source.Kind == gatelog.ControlIssue || slices.Contains(units, r.Unit) {
			kept = append(kept, gatelog.Kept{Item: it, Change: r.Tamper})
		}
	}
	return kept, nil
}

// overrideOf is the override comment id made, when it is one.
func overrideOf(ev *Evaluation, id int64) (gatelog.Override, bool) {
	if g := ev.GateLog(); g != nil {
		for _, o := range g.Overrides {
			if o.ItemID == id {
				return o, true
			}
		}
	}
	return gatelog.Override{}, false
}
