package rundoc

import "strings"

// Effective states that are not report or verdict words.
const (
	Conflict      = "CONFLICT"
	AwaitingAudit = "AWAITING AUDIT"
)

// Item is what the log says about one ID once the status board and the
// report headings are combined (aepkit's status rules; docs/run-documents.md).
type Item struct {
	ID string
	// Report is the last non-verdict heading word ("" when none).
	Report string
	// HeaderVerdict is the last verdict heading word ("" when none).
	HeaderVerdict string
	// BoardVerdict is the board's Verdict cell when it is a verdict word.
	BoardVerdict string
	// Executor is the board's Executor/Model cell ("" when none).
	Executor string
	// Line is where the ID first appears in the log.
	Line int
}

// Verdict is the verdict that stands: "" when there is none, Conflict when
// the board and the last verdict heading disagree.
func (it Item) Verdict() string {
	switch {
	case it.BoardVerdict != "" && it.HeaderVerdict != "" && it.BoardVerdict != it.HeaderVerdict:
		return Conflict
	case it.BoardVerdict != "":
		return it.BoardVerdict
	default:
		return it.HeaderVerdict
	}
}

// State is the effective state: the verdict if any, AWAITING AUDIT for a
// DONE report, otherwise the report word or PENDING.
func (it Item) State() string {
	if v := it.Verdict(); v != "" {
		return v
	}
	switch it.Report {
	case Done:
		return AwaitingAudit
	case "":
		return Pending
	}
	return it.Report
}

// Closed reports whether the item is APPROVED, the only closing state.
func (it Item) Closed() bool { return it.State() == Approved }

// Items returns one Item per ID, combining the status board and the
// headings, in first-seen order: board IDs first, then heading IDs. The
// slice is shared; callers must not modify it.
func (l *Log) Items() []Item {
	if l == nil {
		return nil
	}
	return l.items
}

// IndexNear returns the position of id's Item in Items, and false when
// the log never names it, for a caller walking the log in order: it tries
// positions near and near+1 (its last answer, and the one after) before
// the index, which spares a map lookup for almost every ID of a log whose
// IDs appear in the order of its board.
func (l *Log) IndexNear(id string, near int) (int, bool) {
	if l == nil {
		return 0, false
	}
	if k, ok := nearIndex(l.items, id, near); ok {
		return k, true
	}
	return l.index.lookup(l.items, id)
}

// nearIndex returns whichever of positions k and k+1 holds id's Item.
func nearIndex(items []Item, id string, k int) (int, bool) {
	for _, k := range [2]int{k, k + 1} {
		if k >= 0 && k < len(items) && items[k].ID == id {
			return k, true
		}
	}
	return 0, false
}

func (l *Log) combine() ([]Item, idIndex) {
	n := len(l.Headings) / 2
	if l.Board != nil {
		n = max(n, len(l.Board.Rows))
	}
	idx := newIDIndex(n)
	items := make([]Item, 0, n)
	last := -1 // the previous ID's position: IDs mostly come in order
	get := func(id string, line int) *Item {
		k, ok := nearIndex(items, id, last)
		if !ok {
			k, ok = idx.lookup(items, id)
		}
		if !ok {
			k = len(items)
			items = append(items, Item{ID: id, Line: line})
			idx.add(items, k)
		}
		last = k
		return &items[k]
	}
	if l.Board != nil {
		for _, r := range l.Board.Rows {
			it := get(r.ID, r.Line)
			it.BoardVerdict = ""
			if IsVerdict(r.Verdict) {
				it.BoardVerdict = r.Verdict
			}
			if r.Executor != "" && !IsRuleCell(r.Executor) {
				it.Executor = r.Executor
			}
		}
	}
	for _, h := range l.Headings {
		it := get(h.ID, int(h.Line))
		if IsVerdict(h.State) {
			it.HeaderVerdict = h.State
		} else {
			it.Report = h.State
		}
	}
	return items, idx
}

// upperWord is w uppercased. A state or verdict word (APPROVED, DONE, …) is
// returned as its constant, not as a piece of the document: comparing two
// of them is then a comparison of two identical strings, which Go decides
// without reading their bytes, so combining and judging a hundred thousand
// items does not go back to the document's text for each word.
func upperWord(w string) string {
	u := strings.ToUpper(w)
	for _, c := range [...]string{Approved, Done, Pending, Conditional, Rejected} {
		if u == c {
			return c
		}
	}
	return u
}
