package lint

// JSONReport is the `aepgate lint --format json` document. Its fields are
// stable (docs/run-documents.md).
type JSONReport struct {
	Version  int       `json:"version"`
	Dir      string    `json:"dir"`
	Clean    bool      `json:"clean"`
	Count    int       `json:"count"`
	Problems []Problem `json:"problems"`
	// Annexes is set when L9 fired.
	Annexes *AnnexSummary `json:"annexes"`
}

// AnnexSummary details the annex count for L9.
type AnnexSummary struct {
	Total     int          `json:"total"`
	Threshold int          `json:"threshold"`
	Groups    []AnnexGroup `json:"groups"`
}

// JSON returns the result as a JSONReport for the run in dir.
func (r Result) JSON(dir string) JSONReport {
	out := JSONReport{Version: 1, Dir: dir, Clean: len(r.Problems) == 0, Count: len(r.Problems), Problems: r.Problems}
	if out.Problems == nil {
		out.Problems = []Problem{}
	}
	if r.AnnexTotal > 0 {
		out.Annexes = &AnnexSummary{Total: r.AnnexTotal, Threshold: r.AnnexThreshold, Groups: r.AnnexGroups}
	}
	return out
}
