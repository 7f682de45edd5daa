// Package status computes the effective state of every task and gate in a
// run's compliance log (aepkit's status rules; docs/run-documents.md): the
// status board's verdicts combined with the report headings, where only
// APPROVED closes an item. Text renders aepkit's output; Report marshals to
// the stable `status --json` schema.
package status

import (
	"sort"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// SchemaVersion is the version of the JSON schema (docs/run-documents.md).
const SchemaVersion = 1

// Report is the status of a run. Its JSON form is `aepgate status --json`.
type Report struct {
	Version    int            `json:"version"`
	Dir        string         `json:"dir"`
	Items      []Item         `json:"items"`
	Phases     []Phase        `json:"phases"`
	Counts     map[string]int `json:"counts"`
	Open       []string       `json:"open"`
	MostRecent *string        `json:"most_recent"`
}

// Item is one ID's effective state. Items of one Report may share the
// strings their optional fields point to: treat them as read-only.
type Item struct {
	ID    string  `json:"id"`
	Phase *string `json:"phase"`
	// State is the effective state: a verdict, CONFLICT, AWAITING AUDIT or
	// the report word (PENDING when nothing was reported).
	State string `json:"state"`
	// Verdict is the verdict that stands, null when none or in conflict.
	Verdict *string `json:"verdict"`
	// Report is the last report word (DONE, BLOCKED, …), null when none.
	Report   *string   `json:"report"`
	Executor *string   `json:"executor"`
	Conflict *Conflict `json:"conflict"`
}

// Conflict records a status board verdict that disagrees with the last
// verdict heading.
type Conflict struct {
	StatusBoard  string `json:"status_board"`
	ReportHeader string `json:"report_header"`
}

// Phase is one phase with its guide title and plan weight.
type Phase struct {
	ID     string  `json:"id"`
	Title  *string `json:"title"`
	Weight float64 `json:"weight"`
}

// Compute builds the status of a run. dir is reported as given. A run
// without a log has no items.
func Compute(run *rundoc.Run, dir string) Report {
	var items []rundoc.Item
	if run.Log != nil {
		items = run.Log.Items()
	}
	r := Report{Version: SchemaVersion, Dir: dir, Items: make([]Item, 0, len(items)), Counts: map[string]int{}, Open: []string{}}
	// The optional fields point into blocks of strings, not one allocation
	// each, and share the previous item's string when it is the same.
	var strs stringArena
	prev := Item{}
	for _, it := range items {
		prev = newItem(it, prev, &strs)
		r.Items = append(r.Items, prev)
		r.Counts[it.State()]++
		if !it.Closed() {
			r.Open = append(r.Open, it.ID)
		}
	}
	if id, ok := mostRecent(run.Log); ok {
		r.MostRecent = &id
	}
	r.Phases = phases(run, r.Items)
	return r
}

// newItem is the status of it. Its optional fields reuse prev's pointers where
// they hold the same string: a run of items with one report word, verdict
// or phase costs one string, not one each.
func newItem(it rundoc.Item, prev Item, strs *stringArena) Item {
	out := Item{ID: it.ID, State: it.State(), Report: strs.optional(it.Report, prev.Report), Executor: strs.optional(it.Executor, prev.Executor)}
	if p, ok := rundoc.PhaseOf(it.ID); ok {
		out.Phase = strs.optional(phaseID(it.ID, p), prev.Phase)
	}
	switch v := it.Verdict(); v {
	case rundoc.Conflict:
		out.Conflict = &Conflict{StatusBoard: it.BoardVerdict, ReportHeader: it.HeaderVerdict}
	case "":
	default:
		out.Verdict = strs.optional(v, prev.Verdict)
	}
	return out
}

// phaseID is "P" + p for an ID whose phase is p: the ID's own prefix when
// it is spelled that way already ("P3-T1" → "P3"), so nothing is copied.
func phaseID(id, p string) string {
	if len(id) > len(p) && id[0] == 'P' && id[1:1+len(p)] == p {
		return id[:1+len(p)]
	}
	return "P" + p
}

// stringArena hands out pointers to strings kept in blocks that double in
// size as they fill (a full block is kept, not copied).
type stringArena []string

// optional returns a pointer to s: same when it already points to s, else
// a pointer to a copy of s; nil for "".
func (a *stringArena) optional(s string, same *string) *string {
	switch {
	case s == "":
		return nil
	case same != nil && *same == s:
		return same
	}
	if len(*a) == cap(*a) {
		*a = make(stringArena, 0, max(64, 2*cap(*a)))
	}
	*a = append(*a, s)
	return &(*a)[len(*a)-1]
}

// mostRecent is the last heading's ID, or the last board ID without
// headings.
func mostRecent(l *rundoc.Log) (string, bool) {
	switch {
	case l == nil:
		return "", false
	case len(l.Headings) > 0:
		return l.Headings[len(l.Headings)-1].ID, true
	case l.Board != nil && len(l.Board.Rows) > 0:
		return l.Board.Rows[len(l.Board.Rows)-1].ID, true
	}
	return "", false
}

// phases lists every phase that has an item, a guide heading or a row in the
// plan's phases table, in numeric order, with its title and weight.
func phases(run *rundoc.Run, items []Item) []Phase {
	titles := map[string]string{}
	nums := map[string]bool{}
	if run.Guide != nil {
		for _, pt := range run.Guide.Phases {
			if _, ok := titles[pt.Phase]; !ok {
				titles[pt.Phase] = pt.Title
			}
			nums[pt.Phase] = true
		}
	}
	for _, it := range items {
		if it.Phase != nil {
			nums[(*it.Phase)[1:]] = true
		}
	}
	listed, w := planPhases(run.Plan)
	for _, n := range listed {
		nums[n] = true
	}
	order := make([]string, 0, len(nums))
	for n := range nums {
		order = append(order, n)
	}
	sort.Slice(order, func(i, j int) bool { return rundoc.LessNumber(order[i], order[j]) })
	out := make([]Phase, 0, len(order))
	for _, n := range order {
		p := Phase{ID: "P" + n, Weight: 1}
		if t, ok := titles[n]; ok {
			p.Title = &t
		}
		if v, ok := w[n]; ok {
			p.Weight = v
		}
		out = append(out, p)
	}
	return out
}
