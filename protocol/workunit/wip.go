package workunit

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Lane is one open attempt pull request of an increment: the pull request
// and the story (unit) it names; or, with Held set and no pull request, a
// closed story that is not done and so still holds its lane (HeldLane).
type Lane struct {
	PR   int
	Unit int
	URL  string
	// Held says why a closed story holds its lane; empty for an attempt.
	Held string
}

// Limits are the WIP limits of the repository config: how many attempts of
// one unit, and how many units of one increment, may be open at once. A
// zero limit is not checked.
type Limits struct {
	AttemptsPerUnit   int
	LanesPerIncrement int
}

// The WIP limits' names in the repository config.
const (
	LimitAttempts = "limits.attempts_per_unit"
	LimitLanes    = "limits.lanes_per_increment"
)

// Over is why one attempt exceeds a WIP limit.
type Over struct {
	// Limit is LimitAttempts or LimitLanes.
	Limit string
	// Reason names the open attempts or lanes within the limit.
	Reason string
	// Within are the open attempts within the limit: the unit's, or the
	// first attempt of each open lane.
	Within []Lane
}

// OverLimits judges the open attempts of one increment against lim and
// returns, by pull request, the limit each exceeds. The older attempts
// (lower numbers) keep their place: of one unit's attempts the first
// AttemptsPerUnit are within the limit, and of the increment's units, in
// the order of their oldest open attempt, the first LanesPerIncrement.
// An attempt over both limits is reported for the attempts limit. A held
// lane (a closed story not done) counts among the increment's units ahead
// of every open attempt, and is no attempt itself.
func OverLimits(open []Lane, lim Limits) map[int]Over {
	lanes := slices.Clone(open)
	slices.SortFunc(lanes, func(a, b Lane) int { return cmp.Or(cmp.Compare(a.PR, b.PR), cmp.Compare(a.Unit, b.Unit)) })
	out := map[int]Over{}
	byUnit := map[int][]Lane{}
	var units []int // in the order of their oldest open attempt
	for _, l := range lanes {
		if len(byUnit[l.Unit]) == 0 {
			units = append(units, l.Unit)
		}
		byUnit[l.Unit] = append(byUnit[l.Unit], l)
	}
	if lim.AttemptsPerUnit > 0 {
		for _, u := range units {
			attempts := slices.DeleteFunc(slices.Clone(byUnit[u]), func(l Lane) bool { return l.Held != "" })
			within := attempts[:min(lim.AttemptsPerUnit, len(attempts))]
			for _, l := range attempts[len(within):] {
				out[l.PR] = Over{LimitAttempts, fmt.Sprintf("%s is %d: work unit #%d already has %s open; finish or close it before another attempt",
					LimitAttempts, lim.AttemptsPerUnit, u, laneLinks(within)), within}
			}
		}
	}
	if lim.LanesPerIncrement > 0 && len(units) > lim.LanesPerIncrement {
		within := units[:lim.LanesPerIncrement]
		var names []string
		var first []Lane
		for _, u := range within {
			names = append(names, fmt.Sprintf("#%d (%s)", u, laneLinks(byUnit[u])))
			first = append(first, byUnit[u][0])
		}
		for _, u := range units[lim.LanesPerIncrement:] {
			for _, l := range byUnit[u] {
				if _, over := out[l.PR]; !over && l.Held == "" {
					out[l.PR] = Over{LimitLanes, fmt.Sprintf("%s is %d: the increment's open lanes are %s; finish one before starting work unit #%d",
						LimitLanes, lim.LanesPerIncrement, strings.Join(names, ", "), u), first}
				}
			}
		}
	}
	return out
}

// laneLinks names attempts as Markdown links: "[#10](url), [#12](url)"
// (a held lane by why it is held).
func laneLinks(ls []Lane) string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = laneName(l)
	}
	return strings.Join(out, ", ")
}
