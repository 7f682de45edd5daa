// Package merge decides whether a pull request may merge: every condition
// the protocol puts before a merge, each with the evidence that it holds
// or what is missing. It is the rule behind the App's aepgate/merge check
// (docs/app.md), the one check to require in branch protection. Pure:
// values in, a decision out.
package merge

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aepgate/aepgate/protocol/gitsha"
)

// Input is what the merge decision is judged on, all observed at Head.
type Input struct {
	// Head is the pull request's head SHA.
	Head string
	// Report lists what is wrong with the worker report in the body (the
	// rules of the Action's aep/report); empty when it is valid.
	Report []string
	// WorkUnit says whether aepgate/work-unit holds, and why not.
	WorkUnit Verdict
	// Gates lists what blocks the merge among HOLDs and owner gates other
	// than contract-path approvals; Contract lists the unapproved
	// contract-path changes.
	Gates, Contract []string
	// Audit says whether the audit the unit's risk tier needs holds at
	// Head.
	Audit Verdict
	// Required names the workflows that must succeed at Head
	// (required_workflows.pull_request); Runs are the workflow runs GitHub
	// lists at Head.
	Required []string
	Runs     []Run
	// RunsUnreadable is GitHub's refusal when the App may not read
	// workflow runs (it lacks Actions: read).
	RunsUnreadable string
}

// Verdict is another check's answer: whether it holds, what it rests on,
// and why not.
type Verdict struct {
	OK       bool
	Evidence string
	Reasons  []string
}

// Run is one workflow run at the head: its immutable ID, its workflow's
// name, and its newest attempt's status and conclusion.
type Run struct {
	ID                           int64
	Workflow, Status, Conclusion string
	URL                          string
}

// Condition is one thing that must hold before a merge.
type Condition struct {
	Name string
	OK   bool
	// Evidence says what it rests on (run IDs, SHAs), never "green".
	Evidence []string
	// Missing says what does not hold and what would make it hold.
	Missing []string
}

// Decision is every condition in a fixed order; Ready when all hold.
type Decision struct {
	Ready      bool
	Conditions []Condition
	// RunIDs are the required workflows' successful run IDs at the head.
	RunIDs []int64
}

// Decide judges in: the worker report, the work unit, the owner gates and
// HOLDs, contract-path approvals, the audit, and the required workflows.
func Decide(in Input) Decision {
	ci, ids := workflows(in)
	d := Decision{RunIDs: ids, Conditions: []Condition{
		listed("worker report", "the worker report in the body is valid", in.Report),
		verdict("work unit", in.WorkUnit),
		listed("owner gates and HOLD", "no HOLD or open owner gate blocks the merge", in.Gates),
		listed("contract paths", "no unapproved change to a contract path", in.Contract),
		verdict("audit", in.Audit),
		ci,
	}}
	d.Ready = true
	for _, c := range d.Conditions {
		d.Ready = d.Ready && c.OK
	}
	return d
}

func listed(name, ok string, missing []string) Condition {
	if len(missing) == 0 {
		return Condition{Name: name, OK: true, Evidence: []string{ok}}
	}
	return Condition{Name: name, Missing: missing}
}

func verdict(name string, v Verdict) Condition {
	c := Condition{Name: name, OK: v.OK, Missing: v.Reasons}
	if v.Evidence != "" {
		c.Evidence = []string{v.Evidence}
	}
	if !v.OK && len(c.Missing) == 0 {
		c.Missing = []string{name + " does not hold"}
	}
	return c
}

// workflows judges the required workflows: each needs its newest run at
// the head (the highest run ID; a re-run keeps its ID and reports its
// newest attempt) completed with success.
func workflows(in Input) (Condition, []int64) {
	c := Condition{Name: "required workflows", OK: true}
	if len(in.Required) == 0 {
		c.Evidence = []string{"no workflow is required (required_workflows.pull_request is empty)"}
		return c, nil
	}
	if in.RunsUnreadable != "" {
		c.OK, c.Missing = false, []string{fmt.Sprintf("the App cannot read workflow runs (%s); grant it \"Actions: read\"", in.RunsUnreadable)}
		return c, nil
	}
	newest := map[string]Run{}
	for _, r := range in.Runs {
		if old, ok := newest[r.Workflow]; !ok || r.ID > old.ID {
			newest[r.Workflow] = r
		}
	}
	var ids []int64
	for _, name := range in.Required {
		r, ok := newest[name]
		switch {
		case !ok:
			c.Missing = append(c.Missing, fmt.Sprintf("no run of workflow %q at %s", name, gitsha.Short(in.Head)))
		case !strings.EqualFold(r.Status, "completed"):
			c.Missing = append(c.Missing, fmt.Sprintf("run %d of workflow %q at %s is %s", r.ID, name, gitsha.Short(in.Head), strings.ToLower(r.Status)))
		case !strings.EqualFold(r.Conclusion, "success"):
			c.Missing = append(c.Missing, fmt.Sprintf("run %d of workflow %q at %s concluded %s", r.ID, name, gitsha.Short(in.Head), strings.ToLower(r.Conclusion)))
		default:
			c.Evidence = append(c.Evidence, fmt.Sprintf("workflow %q: run %d succeeded at %s", name, r.ID, gitsha.Short(in.Head)))
			ids = append(ids, r.ID)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	c.OK = len(c.Missing) == 0
	return c, ids
}
