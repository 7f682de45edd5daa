// Package rundoc parses the Auditor/Executor protocol's run documents
// (execution-guide.md, compliance-log.md, plan-of-record.md and the annexes/
// folder) into a typed model that keeps the file and line of every element.
//
// The package is pure: it takes bytes and names in and gives values out.
// Reading a directory from disk is internal/rundir's job.
package rundoc

import "sync"

// File names of the run documents, as aepkit writes them.
const (
	GuideFile = "execution-guide.md"
	LogFile   = "compliance-log.md"
	PlanFile  = "plan-of-record.md"
	AnnexDir  = "annexes"
	// KeepFile is the placeholder that keeps an empty annexes/ folder in git;
	// it is never counted as an annex.
	KeepFile = ".gitkeep"
)

// Files is the raw input of a run: document contents by file name (GuideFile,
// LogFile, PlanFile; a missing document has no key) and the names of the
// regular files in annexes/. Each document must be smaller than 1 GiB, so
// that its line numbers and the counts of what it holds fit an int32
// (internal/rundir refuses anything over 50 MB).
type Files struct {
	Docs    map[string]string
	Annexes []string
}

// Span is a range [From, To) of a slice the parse keeps: a section's
// Report references in Guide.Reports, a report's evidence in Log.Fences.
// Such a slice has fewer elements than its document has bytes: under 1 GiB
// (see Files), so int32 holds the bounds.
type Span struct{ From, To int32 }

// Len is the number of elements in the span.
func (s Span) Len() int { return int(s.To - s.From) }

// Run is a parsed run directory. A document that was not supplied is nil.
type Run struct {
	Guide   *Guide
	Log     *Log
	Plan    *Plan
	Annexes []string
}

// Parse builds the model of a run from its files. It never fails: text that
// does not follow the format is simply not recognised, as in aepkit. The
// guide is parsed on a goroutine of its own while the log is parsed.
func Parse(f Files) *Run {
	r := &Run{Annexes: append([]string(nil), f.Annexes...)}
	var wg sync.WaitGroup
	if b, ok := f.Docs[GuideFile]; ok {
		wg.Go(func() { r.Guide = ParseGuide(GuideFile, b) })
	}
	if b, ok := f.Docs[LogFile]; ok {
		r.Log = ParseLog(LogFile, b)
	}
	if b, ok := f.Docs[PlanFile]; ok {
		r.Plan = ParsePlan(PlanFile, b)
	}
	wg.Wait()
	return r
}
