package status

import (
	"math"
	"strconv"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// phaseCellRE reads a phases-table Phase cell: "P0", "0" or "Phase 0"
// (a title may follow: "P1 — Ledger core").
var phaseCellRE = rundoc.LazyRaw(`(?i)^(?:p|phase\s*)?([0-9]+)(?:$|[^0-9])`)

// planPhases reads the plan's phases table (the first table with a Phase
// column): the phase numbers it lists and, from its optional Weight column,
// their weights. A missing, non-numeric, negative or non-finite weight is
// left out (default 1).
func planPhases(p *rundoc.Plan) (listed []string, weights map[string]float64) {
	weights = map[string]float64{}
	if p == nil {
		return nil, weights
	}
	tb, ok := p.TableWith("phase")
	if !ok {
		return nil, weights
	}
	pc, wc := tb.Col("phase"), tb.Col("weight")
	for _, row := range tb.Rows {
		if len(row) <= pc {
			continue
		}
		m := phaseCellRE().FindStringSubmatch(row[pc])
		if m == nil {
			continue
		}
		n := rundoc.NormNumber(m[1])
		listed = append(listed, n)
		if wc < 0 || wc >= len(row) {
			continue
		}
		v, err := strconv.ParseFloat(row[wc], 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		if _, dup := weights[n]; !dup {
			weights[n] = v
		}
	}
	return listed, weights
}
