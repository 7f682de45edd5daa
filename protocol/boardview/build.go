package boardview

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/workunit"
)

// MaxCertificates is how many recent certificates a board lists.
const MaxCertificates = 10

// Build derives the board from in: each milestone (open ones first, then
// newest first) with its stories in number order and their states, the
// WIP limits the open attempts exceed, each open attempt's health, the
// owner inbox (open gates, HOLDs and stalled attempts, oldest first) and
// the recent certificates (newest first).
func Build(in Input) Board {
	b := Board{Version: Version, Repo: in.Repo, URL: in.URL, Inbox: []InboxItem{}, Increments: []Increment{}, Certificates: []Certificate{}}
	ms := slices.Clone(in.Milestones)
	slices.SortStableFunc(ms, func(x, y Milestone) int {
		if x.Open != y.Open {
			return boolOrder(x.Open)
		}
		return cmp.Compare(y.Number, x.Number)
	})
	seen := map[string]bool{}
	for _, m := range ms {
		inc := in.increment(m)
		for _, s := range inc.Stories {
			for _, a := range s.Attempts {
				b.Inbox = in.addInbox(b.Inbox, seen, s, a)
			}
		}
		for _, is := range m.Issues {
			if it, ok := in.closureInbox(is); ok && !seen[inboxKey(it)] {
				seen[inboxKey(it)] = true
				b.Inbox = append(b.Inbox, it)
			}
		}
		if it, ok := incrementItem(m, inc); ok {
			b.Inbox = append(b.Inbox, it)
		}
		for _, is := range m.Issues {
			if c, ok := certificateOf(in.URL, is); ok {
				b.Certificates = append(b.Certificates, c)
			}
		}
		b.Increments = append(b.Increments, inc)
	}
	slices.SortStableFunc(b.Inbox, func(x, y InboxItem) int {
		return cmp.Or(x.Since.Compare(y.Since), cmp.Compare(x.Subject, y.Subject), cmp.Compare(x.Question, y.Question))
	})
	slices.SortStableFunc(b.Certificates, func(x, y Certificate) int {
		return cmp.Or(y.At.Compare(x.At), cmp.Compare(y.Unit, x.Unit))
	})
	if len(b.Certificates) > MaxCertificates {
		b.Certificates = b.Certificates[:MaxCertificates]
	}
	return b
}

// boolOrder sorts true first.
func boolOrder(first bool) int {
	if first {
		return -1
	}
	return 1
}

// increment derives one milestone's stories and the WIP limits its open
// attempts exceed.
func (in Input) increment(m Milestone) Increment {
	inc := Increment{Number: m.Number, Title: m.Title, URL: m.URL, Open: m.Open, Stories: []Story{}}
	issues := slices.Clone(m.Issues)
	slices.SortFunc(issues, func(x, y Issue) int { return cmp.Compare(x.Number, y.Number) })
	var lanes []workunit.Lane
	for _, is := range issues {
		for _, p := range is.Pulls {
			if p.State == "OPEN" {
				lanes = append(lanes, workunit.Lane{PR: p.Number, Unit: is.Number, URL: p.URL})
			}
		}
		if l, ok := in.heldLane(is); ok {
			lanes = append(lanes, l)
		}
	}
	over := workunit.OverLimits(lanes, workunit.Limits{AttemptsPerUnit: in.AttemptsPerUnit, LanesPerIncrement: in.LanesPerIncrement})
	for _, is := range issues {
		inc.Stories = append(inc.Stories, in.story(is, over))
	}
	for _, pr := range slices.Sorted(maps.Keys(over)) {
		inc.Problems = append(inc.Problems, overText(pr, over[pr]))
	}
	in.progress(&inc, m)
	return inc
}

// overText says in plain text which limit an attempt exceeds and which
// attempts are within it.
func overText(pr int, o workunit.Over) string {
	names := make([]string, len(o.Within))
	for i, l := range o.Within {
		names[i] = fmt.Sprintf("#%d (work unit #%d)", l.PR, l.Unit)
		if l.Held != "" {
			names[i] = fmt.Sprintf("work unit #%d (%s)", l.Unit, l.Held)
		}
	}
	return fmt.Sprintf("#%d exceeds %s; open within it: %s", pr, o.Limit, strings.Join(names, ", "))
}

// story derives one story: its contract's class, risk and dependencies,
// its attempts and its state.
func (in Input) story(is Issue, over map[int]workunit.Over) Story {
	st := workunit.Story{Body: is.Body, Kept: is.Kept}
	c, _ := st.Effective()
	s := Story{Number: is.Number, Title: is.Title, URL: is.URL, Class: string(c.Class), Risk: string(c.Risk), DependsOn: c.DependsOn, Tamper: is.Kept.Tamper()}
	pulls := slices.Clone(is.Pulls)
	slices.SortFunc(pulls, func(x, y Pull) int { return cmp.Compare(x.Number, y.Number) })
	for _, p := range pulls {
		s.Attempts = append(s.Attempts, in.attempt(p, over))
	}
	s.State, s.Reason = in.stateOf(is, s.Attempts)
	return s
}

// attempt is one pull request with, when open, its last evaluation's
// checks, its health and the WIP limit it exceeds.
func (in Input) attempt(p Pull, over map[int]workunit.Over) Attempt {
	a := Attempt{PR: p.Number, Title: p.Title, URL: p.URL, Head: p.Head, Open: p.State == "OPEN", Merged: p.State == "MERGED"}
	if !a.Open {
		return a
	}
	if f, ok := in.Facts[p.Number]; ok {
		a.Checks = f.Checks
		a.LastEvidence = f.LastEvidence.UTC()
		a.Health = HealthAt(f.LastEvidence, in.Now, in.Stall)
	}
	a.OverLimit = over[p.Number].Limit
	return a
}

// stateOf derives a story's state: a closed story's by its closure
// (closedState); an open one's certified (labelled), merged (an attempt
// merged), then from its open attempts the most pressing of held,
// blocked, in review and in progress, else open.
func (in Input) stateOf(is Issue, as []Attempt) (State, string) {
	if !is.Open {
		return in.closedState(is, as)
	}
	switch {
	case is.Certified:
		return StateCertified, ""
	case slices.ContainsFunc(as, func(a Attempt) bool { return a.Merged }):
		return StateMerged, in.readbackOwed(as)
	}
	best, reason := StateOpen, ""
	for _, a := range as {
		if !a.Open {
			continue
		}
		st, why := StateInProgress, ""
		if f, ok := in.Facts[a.PR]; ok && f.State != "" {
			st, why = f.State, f.Reason
		}
		if a.OverLimit != "" && rank(st) < rank(StateBlocked) {
			st, why = StateBlocked, fmt.Sprintf("#%d is over %s", a.PR, a.OverLimit)
		}
		if rank(st) > rank(best) {
			best, reason = st, why
		}
	}
	return best, reason
}

// rank orders the open-attempt states by how much they need attention.
func rank(s State) int {
	return slices.Index([]State{StateOpen, StateInProgress, StateInReview, StateBlocked, StateHeld}, s)
}

// addInbox adds an attempt's open gates and HOLDs (once each, however many
// attempts share them) and, when stalled, the attempt itself.
func (in Input) addInbox(inbox []InboxItem, seen map[string]bool, s Story, a Attempt) []InboxItem {
	if !a.Open {
		return inbox
	}
	for _, it := range in.Facts[a.PR].Inbox {
		if key := inboxKey(it); !seen[key] {
			seen[key] = true
			inbox = append(inbox, it)
		}
	}
	if a.Health == Stalled {
		inbox = append(inbox, InboxItem{Kind: "stall", Subject: fmt.Sprintf("#%d %s", a.PR, a.Title),
			Question: fmt.Sprintf("No new evidence (push, workflow run or report) on the attempt at work unit #%d since %s.", s.Number, a.LastEvidence.Format(time.RFC3339)),
			URL:      a.URL, Since: a.LastEvidence})
	}
	return inbox
}

// inboxKey tells inbox items apart: one item however many attempts or
// stories bring it.
func inboxKey(it InboxItem) string { return it.Kind + "\x00" + it.URL + "\x00" + it.Question }

// certificateOf is a certified issue's certificate: on its merged
// attempt's merge commit (the newest, if several merged).
func certificateOf(repoURL string, is Issue) (Certificate, bool) {
	var c Certificate
	if !is.Certified {
		return c, false
	}
	for _, p := range is.Pulls {
		if p.State == "MERGED" && p.MergeSHA != "" && !p.MergedAt.Before(c.At) {
			c = Certificate{Unit: is.Number, PR: p.Number, SHA: p.MergeSHA, URL: repoURL + "/commit/" + p.MergeSHA, At: p.MergedAt.UTC()}
		}
	}
	return c, c.PR != 0
}
