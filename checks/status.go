package checks

import (
	"fmt"
	"sort"
	"strings"
)

// Progress is one run folder's status, as the status report computes it:
// items by effective state, open items, and phases with their weights.
type Progress struct {
	// Dir is the run folder, relative to the repository root.
	Dir string
	// Phases are in guide order; an item without a phase is not in any.
	Phases []PhaseProgress
	// Counts maps each effective state (APPROVED, AWAITING AUDIT, …) to its
	// number of items.
	Counts map[string]int
	// Open are the items not APPROVED, in first-seen order.
	Open []OpenItem
	// MostRecent is the last entry's ID, if any.
	MostRecent string
	// Err says why the status could not be computed (e.g. no log).
	Err string
}

// PhaseProgress is one phase's share of the work.
type PhaseProgress struct {
	// ID is the phase's ID, e.g. "P0"; Title its guide title.
	ID, Title string
	// Weight is the phase's weight in the overall figure (1 by default).
	Weight float64
	// Approved and Total count the phase's items.
	Approved, Total int
}

// OpenItem is one item that is not APPROVED.
type OpenItem struct {
	// ID and State are the item and its effective state; Detail adds the
	// report or the conflict, e.g. " (report: DONE)".
	ID, State, Detail string
}

// Fraction is the phase's approved share, 0 for an empty phase.
func (p PhaseProgress) Fraction() float64 {
	if p.Total == 0 {
		return 0
	}
	return float64(p.Approved) / float64(p.Total)
}

// Overall is the weighted mean of the phases' fractions (phases without
// items or weight are left out); ok is false when no phase counts.
func (p Progress) Overall() (frac float64, ok bool) {
	var sum, weights float64
	for _, ph := range p.Phases {
		if ph.Total == 0 || ph.Weight <= 0 {
			continue
		}
		sum += ph.Fraction() * ph.Weight
		weights += ph.Weight
	}
	if weights == 0 {
		return 0, false
	}
	return sum / weights, true
}

// StatusRun renders the aep/status check run: per folder, a bar per phase,
// a Mermaid pie of items by state (GitHub renders Mermaid in check-run
// summaries) and the open items. Open items are normal while work is under
// way, so the run is neutral with open items, success when everything is
// APPROVED, and failure when a folder could not be read or an item is in
// CONFLICT (the board and the report header disagree).
func StatusRun(sha string, folders []Progress) Run {
	r := Run{Name: NameStatus, HeadSHA: sha, ExternalID: ActionExternalID(NameStatus, sha)}
	open, conflicts, broken := 0, 0, 0
	for _, f := range folders {
		if f.Err != "" {
			broken++
		}
		open += len(f.Open)
		conflicts += f.Counts["CONFLICT"]
	}
	switch {
	case len(folders) == 0:
		r.Conclusion, r.Title = ConclusionNeutral, "no run folders found"
	case broken > 0 || conflicts > 0:
		r.Conclusion = ConclusionFailure
		r.Title = fmt.Sprintf("%d unreadable, %d in conflict, %d open", broken, conflicts, open)
	case open > 0:
		r.Conclusion, r.Title = ConclusionNeutral, plural(open, "item", "items")+" open"
	default:
		r.Conclusion, r.Title = ConclusionSuccess, "all items approved"
	}
	if len(folders) == 1 {
		if frac, ok := folders[0].Overall(); ok && folders[0].Err == "" {
			r.Title = fmt.Sprintf("%.1f%% approved · %s", frac*100, r.Title)
		}
	}
	var b strings.Builder
	b.WriteString("## aepgate status\n")
	for _, f := range folders {
		statusFolder(&b, f)
	}
	if len(folders) == 0 {
		b.WriteString("\nNo run folder matched the `dir` input.\n")
	}
	r.Summary = b.String() + DocsFooter(r.Name)
	return r
}

func statusFolder(b *strings.Builder, f Progress) {
	fmt.Fprintf(b, "\n### %s\n\n", code(f.Dir))
	if f.Err != "" {
		b.WriteString("❌ " + f.Err + "\n")
		return
	}
	if frac, ok := f.Overall(); ok {
		fmt.Fprintf(b, "**%.1f%% overall** (weighted by phase)\n\n", frac*100)
	}
	if len(f.Phases) > 0 {
		rows := make([][]string, 0, len(f.Phases))
		for _, ph := range f.Phases {
			rows = append(rows, []string{ph.ID, ph.Title, code(bar(ph.Fraction(), 20)),
				fmt.Sprintf("%d/%d", ph.Approved, ph.Total), fmt.Sprintf("%g", ph.Weight)})
		}
		table(b, []string{"Phase", "Title", "Progress", "Approved", "Weight"}, rows)
		b.WriteString("\n")
	}
	if len(f.Counts) > 0 {
		statePie(b, f.Counts)
	}
	if len(f.Open) == 0 {
		b.WriteString("Nothing open: every item is APPROVED.\n")
	} else {
		fmt.Fprintf(b, "%s open (not APPROVED):\n\n", plural(len(f.Open), "item", "items"))
		for _, it := range f.Open {
			fmt.Fprintf(b, "- %s: %s%s\n", code(it.ID), it.State, it.Detail)
		}
	}
	if f.MostRecent != "" {
		fmt.Fprintf(b, "\nMost recent entry: %s\n", code(f.MostRecent))
	}
}

// statePie writes a Mermaid pie chart of items by state, largest first
// (ties by name), as the text status orders them.
func statePie(b *strings.Builder, counts map[string]int) {
	states := make([]string, 0, len(counts))
	for s := range counts {
		states = append(states, s)
	}
	sort.Slice(states, func(i, j int) bool {
		if counts[states[i]] != counts[states[j]] {
			return counts[states[i]] > counts[states[j]]
		}
		return states[i] < states[j]
	})
	b.WriteString("```mermaid\npie showData title Items by state\n")
	for _, s := range states {
		fmt.Fprintf(b, "    %q : %d\n", mermaidLabel(s), counts[s])
	}
	b.WriteString("```\n\n")
}

// mermaidLabel keeps a label inside its quotes.
func mermaidLabel(s string) string {
	return strings.NewReplacer(`"`, "'", "\n", " ", "`", "'").Replace(s)
}
