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
// that must refuse a run without them check run.Missing() first.
func Check(run *rundoc.Run, opts Options) Result {
	c := newChecker(run)
	var r Result
	r.Problems = append(r.Problems, c.missingReports()...)
	r.Problems = append(r.Problems, c.emptyGuide()...)
	r.Problems = append(r.Problems, c.missingReportLines()...)
	r.Problems = append(r.Problems, c.orphanReports()...)
	r.Problems = append(r.Problems, c.gatesWithoutControl()...)
	r.Problems = append(r.Problems, c.doneWithoutEvidence()...)
	r.Problems = append(r.Problems, c.phaseOrder()...)
	r.Problems = append(r.Problems, c.duplicates()...)
	c.annexes(&r, opts.AnnexThreshold)
	r.Problems = append(r.Problems, c.planUnfilled()...)
	r.Problems = append(r.Problems, c.deferredOpen()...)
	return r
}

// checker holds a run and the indexes the rules share.
type checker struct {
	guide *rundoc.Guide
	log   *rundoc.Log
	plan  *rundoc.Plan
	run   *rundoc.Run
	items []rundoc.Item
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
func (c *checker) item(id string) (rundoc.Item, bool) {
	return c.log.Lookup(id)
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
