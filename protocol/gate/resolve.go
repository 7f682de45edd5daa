package gate

import (
	"sort"
	"strconv"
	"strings"
)

// resolve answers a gate (§3.5): only a direct owner, only with a listed
// choice (exact RESUME for a HOLD), only with evidence. A resolved gate
// answered again with the same choice is idempotent; another choice is
// refused.
func (r *replayer) resolve(e Event) Outcome {
	id, err := CleanID(e.GateID)
	if err != nil {
		return refused(e.GateID, "gate-id-invalid", "gateId %q: %v", e.GateID, err)
	}
	i, ok := r.index[id]
	if !ok {
		return refused(id, "gate-missing", "no gate %q exists", id)
	}
	g := &r.st.Gates[i]
	if g.State == StateResolved {
		if g.Choice != nil && *g.Choice == e.Choice {
			return Outcome{GateID: id, Result: ResultIdempotent}
		}
		return refused(id, "gate-already-resolved", "gate %q is already resolved with %q; saw %q", id, deref(g.Choice), e.Choice)
	}
	if o, bad := r.checkOwner(id, e); bad {
		return o
	}
	if r.p.exactResume && g.IsHold() && e.Choice != ResumeChoice {
		return refused(id, "hold-needs-exact-resume", "a HOLD is lifted only by exactly %q; saw %q", ResumeChoice, e.Choice)
	}
	if !contains(g.Choices, e.Choice) && !(g.IsHold() && !r.p.exactResume) {
		return refused(id, "choice-not-listed", "choice %q is not one of %s", e.Choice, quoteAll(g.Choices))
	}
	if o, held := r.counted(g, e, e.Choice); held {
		return o
	}
	settle(g, e, e.Choice)
	return Outcome{GateID: id, Result: ResultResolved}
}

// resume lifts the open HOLD with RESUME.
func (r *replayer) resume(e Event) Outcome {
	i, ok := r.openHold()
	if !ok {
		return refused("", "no-open-hold", "there is no open HOLD to resume")
	}
	g := &r.st.Gates[i]
	if o, bad := r.checkOwner(g.GateID, e); bad {
		return o
	}
	if r.p.exactResume && e.Choice != "" && e.Choice != ResumeChoice {
		return refused(g.GateID, "hold-needs-exact-resume", "a HOLD is lifted only by exactly %q; saw %q", ResumeChoice, e.Choice)
	}
	settle(g, e, ResumeChoice)
	return Outcome{GateID: g.GateID, Result: ResultResolved}
}

// checkOwner refuses an answer that is not the direct owner's or carries no
// evidence.
func (r *replayer) checkOwner(id string, e Event) (Outcome, bool) {
	if r.p.directOwner && e.Authority != AuthorityDirectOwner {
		return refused(id, "authority-not-direct-owner", "only the direct owner may answer a gate; saw authority %q", e.Authority), true
	}
	if strings.TrimSpace(e.Evidence) == "" {
		return refused(id, "authority-evidence-required", "an owner's answer needs evidence (e.g. the comment URL)"), true
	}
	return Outcome{}, false
}

func settle(g *Gate, e Event, choice string) {
	at := e.Time.UnixMilli()
	auth, ev := AuthorityDirectOwner, e.Evidence
	g.State, g.Choice, g.Authority, g.AuthorityEvidence, g.ResolvedAt, g.ResolvedBy = StateResolved, &choice, &auth, &ev, &at, e.Actor
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func list(m map[string]bool) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

// quoteAll lists choices, each Go-quoted as every echo of what someone
// wrote is (a reply shows each quotation as a code span).
func quoteAll(choices []string) string {
	out := make([]string, len(choices))
	for i, s := range choices {
		out[i] = strconv.Quote(s)
	}
	return strings.Join(out, ", ")
}
