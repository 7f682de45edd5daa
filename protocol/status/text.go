package status

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// NoEntries is printed when the log has neither headings nor board rows.
const NoEntries = "no task entries found in compliance-log.md.\n"

// Text renders the report as aepkit prints it, ending with a newline.
func (r Report) Text() string {
	if len(r.Items) == 0 {
		return NoEntries
	}
	var b strings.Builder
	b.WriteString("Status board:\n")
	for _, c := range r.sortedCounts() {
		fmt.Fprintf(&b, "  %-15s %d\n", c.state, c.n)
	}
	fmt.Fprintf(&b, "\n%d open (not APPROVED):\n", len(r.Open))
	for _, it := range r.Items {
		if it.State != rundoc.Approved {
			for _, part := range [...]string{"  - ", it.ID, ": ", it.State, detail(it), "\n"} {
				b.WriteString(part)
			}
		}
	}
	if r.MostRecent != nil {
		fmt.Fprintf(&b, "\nMost recent entry: %s (%s)\n", *r.MostRecent, r.state(*r.MostRecent))
	}
	return b.String()
}

type stateCount struct {
	state string
	n     int
}

func (r Report) sortedCounts() []stateCount {
	out := make([]stateCount, 0, len(r.Counts))
	for s, n := range r.Counts {
		out = append(out, stateCount{s, n})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].n != out[j].n {
			return out[i].n > out[j].n
		}
		return out[i].state < out[j].state
	})
	return out
}

func detail(it Item) string {
	if it.Conflict != nil {
		return fmt.Sprintf(" (status board: %s, report header: %s)", it.Conflict.StatusBoard, it.Conflict.ReportHeader)
	}
	if it.Verdict != nil && it.Report != nil {
		return " (report: " + *it.Report + ")"
	}
	return ""
}

func (r Report) state(id string) string {
	for _, it := range r.Items {
		if it.ID == id {
			return it.State
		}
	}
	return rundoc.Pending
}
