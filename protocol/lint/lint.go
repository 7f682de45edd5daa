// Package lint cross-checks a run's documents for the gaps the
// Auditor/Executor protocol names (aepkit's lint rules; docs/run-documents.md):
// IDs missing from one document, gates without a negative control, DONE
// without pasted evidence, work out of phase order, duplicated log
// paragraphs, too many annexes and, once work is reported, an unfilled plan
// or an open deferred item.
//
// Check is pure; Result.Text renders aepkit's report byte for byte.
package lint

import (
	"sync"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// DefaultAnnexThreshold is aepkit's default for --annex-threshold.
const DefaultAnnexThreshold = 6

// Options tunes a check.
type Options struct {
	// AnnexThreshold is the largest annex count that is still clean.
	AnnexThreshold int
}

// DefaultOptions returns aepkit's defaults.
func DefaultOptions() Options { return Options{AnnexThreshold: DefaultAnnexThreshold} }

// Problem is one finding. Every problem is an error; lint has no warnings.
type Problem struct {
	// Rule is "L1" … "L11".
	Rule string `json:"rule"`
	// Tag is aepkit's literal tag, e.g. "[missing report]".
	Tag string `json:"tag"`
	// ID is the task, gate, report or ledger ID concerned ("" for L2, L8, L9).
	ID string `json:"id,omitempty"`
	// File and Line locate the problem (Line is 1-based; 0 for a folder).
	File string `json:"file"`
	Line int    `json:"line"`
	// Message says what is wrong in one sentence.
	Message string `json:"message"`
	// Count and Excerpt describe a duplicated paragraph (L8).
	Count   int    `json:"count,omitempty"`
	Excerpt string `json:"excerpt,omitempty"`
}

// AnnexGroup is one line of the annex breakdown (L9).
type AnnexGroup struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// Result is the outcome of a check.
type Result struct {
	Problems []Problem `json:"problems"`
	// AnnexTotal, AnnexThreshold and AnnexGroups describe the annex count
	// when L9 fired.
	AnnexTotal     int          `json:"-"`
	AnnexThreshold int          `json:"-"`
	AnnexGroups    []AnnexGroup `json:"-"`
}

// ExitCode is aepkit's exit code for the result: 0 clean, 1 problems.
func (r Result) ExitCode() int {
	if len(r.Problems) > 0 {
		return 1
	}
	return 0
}

// Check lints a run. A missing guide or log is treated as empty; callers
// that must refuse a run without them check run.Guide and run.Log first.
func Check(run *rundoc.Run, opts Options) Result {
	c := newChecker(run)
	// Each rule adds its problems in turn, so they come in report order.
	// L7 and L8 (phase order, repeated paragraphs) are the costliest rules
	// on a large run; they run beside L1–L6 on a checker of their own, and
	// their problems join the report in their place.
	late := c.fork()
	var wg sync.WaitGroup
	wg.Go(func() {
		late.phaseOrder()
		late.duplicates()
	})
	c.missingReports()
	c.emptyGuide()
	c.missingReportLines()
	c.orphanReports()
	c.gatesWithoutControl()
	c.doneWithoutEvidence()
	wg.Wait()
	c.join(late)
	var r Result
	c.annexes(&r, opts.AnnexThreshold)
	c.planUnfilled()
	c.deferredOpen()
	r.Problems = c.problems()
	return r
}

// checker holds a run and the indexes the rules share.
type checker struct {
	guide *rundoc.Guide
	log   *rundoc.Log
	plan  *rundoc.Plan
	run   *rundoc.Run
	items []rundoc.Item
	near  int // the position item found last
	// found holds the problems in blocks, so that tens of thousands of
	// them are copied once, into the slice Result holds.
	found [][]Problem
	count int
}

// add records a problem.
func (c *checker) add(p Problem) {
	if k := len(c.found); k == 0 || len(c.found[k-1]) == cap(c.found[k-1]) {
		c.found = append(c.found, make([]Problem, 0, 16<<min(k, 8)))
	}
	k := len(c.found) - 1
	c.found[k] = append(c.found[k], p)
	c.count++
}

// fork returns a checker of the same run with no problems yet, for rules
// that run beside c's; the run and its indexes are only read.
func (c *checker) fork() *checker {
	f := *c
	f.found, f.count, f.near = nil, 0, 0
	return &f
}

// join adds the problems f found after c's, keeping their order.
func (c *checker) join(f *checker) {
	c.found = append(c.found, f.found...)
	c.count += f.count
}

// problems returns every problem added, in order (nil when none).
func (c *checker) problems() []Problem {
	if c.count == 0 {
		return nil
	}
	out := make([]Problem, 0, c.count)
	for _, b := range c.found {
		out = append(out, b...)
	}
	return out
}

func newChecker(run *rundoc.Run) *checker {
	c := &checker{guide: run.Guide, log: run.Log, plan: run.Plan, run: run}
	if c.guide == nil {
		c.guide = &rundoc.Guide{File: rundoc.GuideFile}
	}
	if c.log == nil {
		c.log = &rundoc.Log{File: rundoc.LogFile}
	}
	c.items = c.log.Items()
	return c
}

// item returns what the log says about id (an empty Item when nothing).
// Callers mostly ask in log order, so the last position found is tried
// first.
func (c *checker) item(id string) (rundoc.Item, bool) {
	k, ok := c.log.IndexNear(id, c.near)
	if !ok {
		return rundoc.Item{ID: id}, false
	}
	c.near = k
	return c.items[k], true
}

// workStarted reports whether any log item is DONE or carries a verdict.
func (c *checker) workStarted() bool {
	for _, it := range c.items {
		if it.Report == rundoc.Done || it.Verdict() != "" {
			return true
		}
	}
	return false
}
