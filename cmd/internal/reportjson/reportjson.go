// Package reportjson holds the JSON reports of the commands that aepgate
// mcp also returns as structured output ('review check --format json',
// 'plans verify --format json'): one definition for the command line
// (package cmd/internal/cli) and the MCP server (cmd/internal/mcpserve).
package reportjson

// ReviewCheck is what review check prints, as text or as JSON.
type ReviewCheck struct {
	File   string `json:"file"`
	Form   string `json:"form"`
	Commit string `json:"commit"`
	// Valid: no problem; the App would accept the block and its evidence
	// at Commit.
	Valid    bool   `json:"valid"`
	Verdict  string `json:"verdict,omitempty"`
	WorkUnit string `json:"work_unit,omitempty"`
	// Bundle is the evidence bundle read; nil when it was not read.
	Bundle   *ReviewBundle   `json:"bundle,omitempty"`
	Quotes   []ReviewQuote   `json:"quotes"`
	Problems []ReviewProblem `json:"problems"`
	// NotChecked are the rules only the App can apply, on the pull request.
	NotChecked []string `json:"not_checked"`
}

// ReviewBundle is the evidence bundle: its identity and its files.
type ReviewBundle struct {
	Identity string       `json:"identity"`
	Bytes    int          `json:"bytes"`
	Files    []BundleFile `json:"files"`
}

// BundleFile is one file of the bundle as read at the commit.
type BundleFile struct {
	Path    string `json:"path"`
	SHA256  string `json:"sha256,omitempty"`
	Bytes   int    `json:"bytes"`
	Symlink bool   `json:"symlink,omitempty"`
	Missing bool   `json:"missing,omitempty"`
}

// ReviewQuote is one evidence entry and where its quote was found.
type ReviewQuote struct {
	// Evidence is the entry's JSON path, e.g. "$.findings[0].evidence[1]".
	Evidence string `json:"evidence"`
	Path     string `json:"path"`
	// Status is "found", "not found", or "path refused" when a bundle
	// rule refused the file, so the quote was not looked for.
	Status    string `json:"status"`
	StartLine int    `json:"start_line,omitempty"`
	EndLine   int    `json:"end_line,omitempty"`
}

// ReviewProblem is one problem at its JSON path in the block.
type ReviewProblem struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// PlansVerify is the --format json report (version 1; fields may be added).
type PlansVerify struct {
	Version  int            `json:"version"`
	Dir      string         `json:"dir"`
	Base     string         `json:"base"`
	Head     string         `json:"head"`
	Phase    int            `json:"phase"`
	Dialect  string         `json:"dialect,omitempty"`
	OK       bool           `json:"ok"`
	Phases   []PlansPhase   `json:"phases"`
	Findings []PlansFinding `json:"findings"`
}

// PlansPhase is one phase and its derived status.
type PlansPhase struct {
	ID     int    `json:"id"`
	Title  string `json:"title"`
	Status string `json:"status"`
}

// PlansFinding is one finding.
type PlansFinding struct {
	Rule    string `json:"rule"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Message string `json:"message"`
}
