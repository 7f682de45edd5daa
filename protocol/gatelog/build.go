package gatelog

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/gate"
)

// builder turns items into gate events, remembering which request each
// event came from.
type builder struct {
	in       *Input
	rules    []Rule
	events   []gate.Event
	refs     []int // per event: index in outcomes, -1 for none
	outcomes []Outcome
	keys     []int // per outcome: its sort key (2×entry, +1 for an approval)
	seq      int   // the entry being translated
	// units maps each gate id a create event names to its work unit.
	units      map[string]*string
	contractPR map[string]int
	// deciders are who may answer each contract gate (contractGates).
	deciders map[string][]string
	// contractFiles are the files of each contract gate.
	contractFiles map[string][]string
	origins       map[string]Source // where each item-opened gate was opened (noteOrigin)
	unit          string
	unitHold      string // the open unit HOLD's id, "" when none
	projectHold   bool   // a project HOLD was put on and not lifted
	overrides     []Override
	holdIDs       map[string]bool // unit HOLD ids minted so far
	approvals     []approval
}

// entry is one thing to translate, in time order: an item, or a pull
// request's contract change.
type entry struct {
	at   time.Time
	id   int64
	item *Item
	pr   *PullRequestState
	// auto is one of pr's own gates (PullRequestState.Auto).
	auto *gate.Event
}

// Build derives the gate log from in with DefaultRules.
func Build(in Input) Result { return BuildWith(in, DefaultRules()) }

// BuildWith derives the gate log from in, letting through only the
// requests that pass every rule; tests pass fewer rules to show what each
// one stops. Items are taken in order of Created, ties by ID; a pull
// request's contract-change gate comes before items of the same time.
func BuildWith(in Input, rules []Rule) Result {
	var tampered []Tamper
	in.Items, tampered = withKept(&in)
	b := &builder{in: &in, rules: rules, units: map[string]*string{}, contractPR: map[string]int{}, deciders: map[string][]string{}, contractFiles: map[string][]string{}, holdIDs: map[string]bool{}, unit: strconv.Itoa(in.Unit)}
	for i, e := range entries(&in) {
		b.seq = i
		switch {
		case e.auto != nil:
			b.contractPR[e.auto.GateID] = e.pr.Number
			b.emit(*e.auto, -1)
		case e.pr != nil:
			b.contract(*e.pr)
		default:
			b.item(e.item)
		}
	}
	events, refs := b.events, b.refs
	st := gate.Replay(in.log(events))
	if ins := b.approve(st); len(ins) > 0 {
		events, refs = insert(events, refs, ins)
		st = gate.Replay(in.log(events))
	}
	b.settle(st, refs)
	b.sortOutcomes()
	r := Result{Log: gate.Log{Project: in.Project, Events: events}, Outcomes: b.outcomes, State: st, ContractPR: b.contractPR, Deciders: b.deciders, ContractFiles: b.contractFiles, Tampered: tampered, Items: in.Items, Overrides: b.overrides, unit: in.Unit}
	r.Blockers, _ = r.MergeBlockers(in.PR) // merge is a check action: no error
	return r
}

// entries orders the items and contract changes by time, then ID.
func entries(in *Input) []entry {
	out := make([]entry, 0, len(in.Items)+len(in.PullRequests))
	for i := range in.PullRequests {
		p := &in.PullRequests[i]
		out = append(out, entry{at: p.HeadAt, id: math.MinInt64, pr: p})
		for j := range p.Auto {
			out = append(out, entry{at: p.Auto[j].Time, id: math.MinInt64 + 1, pr: p, auto: &p.Auto[j]})
		}
	}
	for i := range in.Items {
		out = append(out, entry{at: in.Items[i].Created, id: in.Items[i].ID, item: &in.Items[i]})
	}
	sort.SliceStable(out, func(a, b int) bool {
		if !out[a].at.Equal(out[b].at) {
			return out[a].at.Before(out[b].at)
		}
		return out[a].id < out[b].id
	})
	return out
}

// log is events as the gate log of in's project, counted under its
// policy's approvals.
func (in *Input) log(events []gate.Event) gate.Log {
	return gate.Log{Project: in.Project, Events: events, Approvals: in.Policy.Approvals, Distinct: in.Policy.Distinct}
}

// emit appends an event that came from outcome ref (-1: none).
func (b *builder) emit(e gate.Event, ref int) {
	if e.Type == gate.EventCreate {
		if _, seen := b.units[e.GateID]; !seen {
			b.units[e.GateID] = e.WorkUnit
		}
	}
	b.events = append(b.events, e)
	b.refs = append(b.refs, ref)
}

// settle marks each outcome with what Replay did to its event.
func (b *builder) settle(st gate.State, refs []int) {
	for _, o := range st.Outcomes {
		ref := refs[o.Index]
		if ref < 0 {
			continue
		}
		out := &b.outcomes[ref]
		if o.GateID != "" {
			out.GateID = o.GateID
		}
		switch o.Result {
		case gate.ResultRefused, gate.ResultMalformed:
			out.Accepted, out.Reason = false, refusal(o, b.in.Policy.Prefix)
		case gate.ResultReusedDecision, gate.ResultCounted:
			out.Reason = o.Message
		}
	}
}

// refusal is Replay's refusal with what would be accepted.
func refusal(o gate.Outcome, prefix string) string {
	switch o.Token {
	case "gate-missing":
		return o.Message + "; `" + prefixOr(prefix) + " status` lists the gates that apply here"
	case "no-open-hold":
		return o.Message + " on the control issue"
	}
	return strings.TrimSpace(o.Message)
}

// record appends an outcome of the current entry; approval outcomes sort
// after the entry's commands.
func (b *builder) record(o Outcome) int {
	key := 2 * b.seq
	if o.Action == ActionApprove {
		key++
	}
	b.outcomes, b.keys = append(b.outcomes, o), append(b.keys, key)
	return len(b.outcomes) - 1
}

// sortOutcomes puts the outcomes in item order.
func (b *builder) sortOutcomes() {
	idx := make([]int, len(b.outcomes))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return b.keys[idx[i]] < b.keys[idx[j]] })
	out := make([]Outcome, len(idx))
	for i, k := range idx {
		out[i] = b.outcomes[k]
	}
	b.outcomes = out
}
