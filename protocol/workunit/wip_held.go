package workunit

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/closurerules"
)

// HeldLane is the lane a closed story still holds in its increment: a
// unit whose closure does not count as done (protocol/closurerules's verdict:
// closed without evidence, needs-review under closure.final: owner, or
// never judged) is not finished, so closing it
// frees no place among the increment's lanes. A done or cancelled unit
// holds none. v is the story's closure verdict, nil when none is on
// record.
func HeldLane(unit int, v *closurerules.Verdict) (Lane, bool) {
	if v != nil && (v.Counts() || v.State == closurerules.Cancelled) {
		return Lane{}, false
	}
	why := "closed, but aepgate holds no judgement of its closure"
	switch {
	case v != nil && v.State == closurerules.NeedsReview:
		why = "needs-review, " + v.Missing
	case v != nil && v.State == closurerules.RetroOwed:
		why = "merged under an override, owing its retro-audit"
	case v != nil:
		why = "closed without evidence by " + orUnknown(v.Closer)
	}
	return Lane{Unit: unit, Held: why}, true
}

// HeldLanes are the lanes the closed stories of m hold (HeldLane).
func HeldLanes(m Milestone) []Lane {
	var out []Lane
	for _, s := range m.Stories {
		if s.Open {
			continue
		}
		if l, ok := HeldLane(s.Number, s.Closure); ok {
			out = append(out, l)
		}
	}
	return out
}

// laneName names one lane entry: the attempt as a Markdown link, or why a
// closed unit still holds its lane.
func laneName(l Lane) string {
	switch {
	case l.Held != "":
		return l.Held
	case l.URL != "":
		return fmt.Sprintf("[#%d](%s)", l.PR, l.URL)
	}
	return fmt.Sprintf("#%d", l.PR)
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown account"
	}
	return s
}
