package verdict

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/boardview"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/workunit"
)

// ClosureFacts joins a unit's stored closure facts (JSON of closure.Facts)
// and the App's own evidence rows for its merged attempts (JSON of
// closure.Attempt each).
func ClosureFacts(facts []byte, attempts [][]byte) (closurerules.Facts, error) {
	var f closurerules.Facts
	if err := json.Unmarshal(facts, &f); err != nil {
		return f, fmt.Errorf("closure facts: %w", err)
	}
	f.Attempts = nil
	for _, raw := range attempts {
		var a closurerules.Attempt
		if err := json.Unmarshal(raw, &a); err != nil {
			return f, fmt.Errorf("closure evidence: %w", err)
		}
		f.Attempts = append(f.Attempts, a)
	}
	return f, nil
}

// HoldOn is the reason of the HOLD the kept decisions put on unit (its
// own, its pull requests' or the control issue's), "" when none applies:
// the kept holds and resumes replayed in order. A resume whose source was
// tampered with lifts nothing (gatelog.TamperedGrant).
func HoldOn(kept []gatelog.Kept, unit int, prefix string) string {
	items := slices.Clone(kept)
	slices.SortStableFunc(items, func(a, b gatelog.Kept) int { return cmp.Compare(a.Item.ID, b.Item.ID) })
	held := map[int]string{} // by thread; the control issue holds everything
	for _, k := range items {
		for _, c := range command.Parse(k.Item.Body, prefix) {
			switch {
			case c.Err != nil:
			case c.Verb == command.VerbHold:
				held[k.Item.Source.Number] = c.Reason
			case c.Verb == command.VerbResume && k.Change == "" && k.Item.Tampered == "":
				delete(held, k.Item.Source.Number)
			}
		}
	}
	reasons := make([]string, 0, len(held))
	for _, k := range slices.Sorted(maps.Keys(held)) {
		reasons = append(reasons, held[k])
	}
	return strings.Join(reasons, "; ")
}

// withClosures is u with each closed same-repository story and blocker
// carrying how its closure is judged now: stored facts (nil when the App
// holds none) with GitHub's open state from the snapshot.
func withClosures(u *workunit.Issue, facts map[int]closurerules.Facts, rules closurerules.Rules) *workunit.Issue {
	if u == nil || u.Milestone == nil && len(u.BlockedBy) == 0 {
		return u
	}
	judge := func(n int, open bool) *closurerules.Verdict {
		f, ok := facts[n]
		if open || !ok {
			return nil
		}
		f.Open = false
		v := closurerules.Judge(f, rules)
		return &v
	}
	c := *u
	c.BlockedBy = slices.Clone(u.BlockedBy)
	for i, d := range c.BlockedBy {
		if d.Repo == "" {
			c.BlockedBy[i].Closure = judge(d.Number, d.Open)
		}
	}
	if u.Milestone != nil {
		m := *u.Milestone
		m.Stories = slices.Clone(m.Stories)
		for i, s := range m.Stories {
			m.Stories[i].Closure = judge(s.Number, s.Open)
		}
		c.Milestone = &m
	}
	return &c
}

// ClosureInbox lists, for the owner's board, the dependencies of the
// evaluated attempt's unit that were closed without evidence (who closed
// them, what is missing and the owner's command) or wait in needs-review
// for the owner's closure (closure.final: owner); repoURL is the
// repository's page.
func ClosureInbox(ev *Evaluation, repoURL string) []boardview.InboxItem {
	u := withClosures(ev.Snap.Units[ev.Unit], ev.Closures, ev.ClosureRules)
	if u == nil {
		return nil
	}
	var vs []*closurerules.Verdict
	c, _ := u.Effective()
	if u.Milestone != nil {
		for _, s := range u.Milestone.Stories {
			if slices.Contains(c.DependsOn, s.Number) {
				vs = append(vs, s.Closure)
			}
		}
	}
	for _, d := range u.BlockedBy {
		vs = append(vs, d.Closure)
	}
	var out []boardview.InboxItem
	for _, v := range vs {
		if v != nil && v.State == closurerules.NeedsReview {
			out = append(out, boardview.NeedsReviewItem(*v, repoURL, ev.Closures[v.Number].ClosedAt))
			continue
		}
		if v == nil || v.State != closurerules.WithoutEvidence {
			continue
		}
		out = append(out, boardview.ClosureItem(*v, repoURL, ev.Closures[v.Number].ClosedAt))
	}
	return out
}
