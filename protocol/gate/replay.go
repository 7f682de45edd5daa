package gate

import (
	"fmt"
	"sort"
	"strings"
)

// Outcome results.
const (
	ResultCreated        = "created"
	ResultIdempotent     = "idempotent"
	ResultReusedDecision = "reused-decision"
	ResultResolved       = "resolved"
	ResultRefused        = "refused"
	ResultMalformed      = "malformed"
)

// Outcome says what one event did, for the App's reply to the comment that
// carried it and for the dry-run's report.
type Outcome struct {
	Index  int    `json:"index"`
	Type   string `json:"type"`
	GateID string `json:"gateId,omitempty"`
	// Result is created, idempotent, reused-decision, resolved, counted
	// (ResultCounted), refused or malformed.
	Result string `json:"result"`
	// Token names the refusal when Result is refused or malformed.
	Token   string `json:"token,omitempty"`
	Message string `json:"message,omitempty"`
}

// State is the project's gates after replaying its events.
type State struct {
	Project  string    `json:"project"`
	Gates    []Gate    `json:"gates"`
	Outcomes []Outcome `json:"outcomes"`
	// Malformed lists the events that could not be read; each blocks.
	Malformed []Outcome `json:"malformed"`
	// Counts are, per gate whose category needs more than one owner
	// (Log.Approvals), how the answers of each choice count.
	Counts map[string][]Count `json:"counts,omitempty"`
}

type replayer struct {
	st    State
	index map[string]int
	p     protections
	count counter
}

// Replay applies the log's events in time order (equal times keep input
// order) and returns the resulting gates and what each event did. Refused
// events change nothing; malformed events are kept so that they block.
func Replay(log Log) State { return replay(log, allProtections()) }

// replay is Replay under p.
func replay(log Log, p protections) State {
	order := make([]int, len(log.Events))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return log.Events[order[a]].Time.Before(log.Events[order[b]].Time)
	})
	r := &replayer{st: State{Project: log.Project, Gates: []Gate{}, Outcomes: []Outcome{}, Malformed: []Outcome{}}, index: map[string]int{}, p: p,
		count: counter{need: log.Approvals, distinct: log.Distinct}}
	for _, i := range order {
		o := r.apply(i, log.Events[i])
		r.st.Outcomes = append(r.st.Outcomes, o)
		if o.Result == ResultMalformed {
			r.st.Malformed = append(r.st.Malformed, o)
		}
	}
	return r.st
}

func (r *replayer) apply(i int, e Event) Outcome {
	if e.Malformed != "" {
		return Outcome{Index: i, Type: e.Type, Result: ResultMalformed, Token: "gate-event-malformed", Message: e.Malformed}
	}
	var o Outcome
	switch e.Type {
	case EventCreate:
		o = r.create(e)
	case EventHold:
		o = r.hold(e)
	case EventResolve:
		o = r.resolve(e)
	case EventResume:
		o = r.resume(e)
	default:
		o = Outcome{Result: ResultMalformed, Token: "gate-event-malformed",
			Message: fmt.Sprintf("unknown event type %q (expected create, hold, resolve or resume)", e.Type)}
	}
	o.Index, o.Type = i, e.Type
	return o
}

func refused(id, token, format string, args ...any) Outcome {
	return Outcome{GateID: id, Result: ResultRefused, Token: token, Message: fmt.Sprintf(format, args...)}
}

func (r *replayer) add(g Gate) {
	r.index[g.GateID] = len(r.st.Gates)
	r.st.Gates = append(r.st.Gates, g)
}

func (r *replayer) openHold() (int, bool) {
	for i, g := range r.st.Gates {
		if g.IsHold() && g.State == StateOpen {
			return i, true
		}
	}
	return 0, false
}

// hold puts the project on HOLD (§3.4): an open HOLD is returned as is;
// otherwise project-hold, or project-hold-<ms> once that is resolved.
func (r *replayer) hold(e Event) Outcome {
	if i, ok := r.openHold(); ok {
		return Outcome{GateID: r.st.Gates[i].GateID, Result: ResultIdempotent}
	}
	reason := strings.TrimSpace(e.Reason)
	if reason == "" {
		return refused(HoldID, "hold-reason-required", "a HOLD needs a reason")
	}
	ms := e.Time.UnixMilli()
	id := HoldID
	if r.exists(id) {
		id = fmt.Sprintf("%s-%d", HoldID, ms)
	}
	for n := 2; r.exists(id); n++ {
		id = fmt.Sprintf("%s-%d-%d", HoldID, ms, n)
	}
	key := fmt.Sprintf("hold:%d", ms)
	g := Gate{
		SchemaVersion: 1, Project: r.st.Project, GateID: id, Question: "Project HOLD: " + reason,
		Choices: []string{ResumeChoice}, DecisionKey: &key, ExternalEffect: holdEffect,
		OwnerOnlyCategory: holdCategory, BlockingScope: scopeProject, SafeDefault: holdDefault,
		State: StateOpen, CreatedAt: ms, Evidence: e.Evidence, CreatedBy: e.Actor,
	}
	g.DecisionFingerprint = Fingerprint(g)
	r.add(g)
	return Outcome{GateID: id, Result: ResultCreated}
}

func (r *replayer) exists(id string) bool {
	_, ok := r.index[id]
	return ok
}
