package status

import (
	"math"
	"regexp"
	"strconv"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// phaseCellRE reads a phases-table Phase cell: "P0", "0" or "Phase 0"
// (a title may follow: "P1 — Ledger core").
var phaseCellRE = regexp.MustCompile(`(?i)^(?:p|phase\s*)?([0-9]+)(?:$|[^0-9])`)

// weights reads the optional Weight column of the plan's phases table. A
// missing, non-numeric, negative or non-finite weight is left out (default 1).
func weights(p *rundoc.Plan) map[string]float64 {
	out := map[string]float64{}
	if p == nil {
		return out
	}
	tb, ok := p.TableWith("phase", "weight")
	if !ok {
		return out
	}
	pc, wc := tb.Col("phase"), tb.Col("weight")
	for _, row := range tb.Rows {
		if len(row) <= max(pc, wc) {
			continue
		}
		m := phaseCellRE.FindStringSubmatch(row[pc])
		if m == nil {
			continue
		}
		v, err := strconv.ParseFloat(row[wc], 64)
		if err != nil || v < 0 || math.IsInf(v, 0) || math.IsNaN(v) {
			continue
		}
		n := rundoc.NormNumber(m[1])
		if _, dup := out[n]; !dup {
			out[n] = v
		}
	}
	return out
}
