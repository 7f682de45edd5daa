package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aepgate/aepgate/protocol/boardview"
)

// stateIcons mark a story's state on the board.
var stateIcons = map[boardview.State]string{
	boardview.StateOpen: "⚪", boardview.StateInProgress: "🔵", boardview.StateInReview: "🟣", boardview.StateBlocked: "🔴",
	boardview.StateHeld: "⏸️", boardview.StateMerged: "🟢", boardview.StateCertified: "✅", boardview.StateDone: "☑️", boardview.StateCancelled: "⛔",
}

// stateOrder is the order states are counted in an increment's heading.
var stateOrder = []boardview.State{boardview.StateCertified, boardview.StateDone, boardview.StateMerged, boardview.StateInReview, boardview.StateInProgress,
	boardview.StateBlocked, boardview.StateHeld, boardview.StateOpen, boardview.StateCancelled}

func (w boardWriter) increment(inc boardview.Increment) {
	status := "closed"
	if inc.Open {
		status = "open"
	}
	if st := stageText(inc); st != "" {
		status += " · " + st
	}
	fmt.Fprintf(w.b, "\n### %s\n\n%s · %s\n", boardLink(w.text(inc.Title), inc.URL), status, storyCounts(inc.Stories))
	for _, p := range inc.Problems {
		fmt.Fprintf(w.b, "\n> ⚠️ %s\n", w.text(p))
	}
	w.stage(inc)
	if len(inc.Stories) == 0 {
		w.b.WriteString("\nNo stories yet.\n")
		return
	}
	w.header("story", "state", "class · risk", "attempts")
	for _, s := range inc.Stories {
		state := stateIcons[s.State] + " " + string(s.State)
		if s.Reason != "" {
			state += ": " + w.text(s.Reason)
		}
		kind := strings.Trim(w.text(s.Class)+" · "+w.text(s.Risk), " ·")
		if s.Tamper != "" {
			kind += " ⚠️ " + w.text(s.Tamper)
		}
		w.row(boardLink(fmt.Sprintf("\\#%d", s.Number), s.URL)+" "+w.text(s.Title), state, kind, w.attempts(s.Attempts))
	}
	w.graph(inc)
}

// storyCounts is "3 stories: 1 certified, 2 open".
func storyCounts(ss []boardview.Story) string {
	n := map[boardview.State]int{}
	for _, s := range ss {
		n[s.State]++
	}
	var parts []string
	for _, st := range stateOrder {
		if n[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[st], st))
		}
	}
	out := plural(len(ss), "story", "stories")
	if len(parts) > 0 {
		out += ": " + strings.Join(parts, ", ")
	}
	return out
}

// attempts lists a story's attempts with their checks, health and limits,
// one per line of the cell.
func (w boardWriter) attempts(as []boardview.Attempt) string {
	var lines []string
	for _, a := range as {
		l := boardLink(fmt.Sprintf("\\#%d", a.PR), a.URL)
		switch {
		case a.Merged:
			l += " merged"
		case !a.Open:
			l += " closed"
		default:
			for _, c := range a.Checks {
				l += " " + boardLink(checkIcon(c)+" "+w.text(strings.TrimPrefix(c.Name, "aepgate/")), c.URL)
			}
			if a.Health != "" {
				l += " · " + healthText(a.Health)
			}
			if a.OverLimit != "" {
				l += " · over " + boardCode(a.OverLimit)
			}
		}
		lines = append(lines, l)
	}
	return strings.Join(lines, "<br>")
}

// checkIcon shows a check run's conclusion.
func checkIcon(c boardview.Check) string {
	if c.Status != "" && c.Status != "completed" {
		return "⏳"
	}
	switch c.Conclusion {
	case "success":
		return "✅"
	case "action_required":
		return "🚦"
	case "neutral", "skipped":
		return "⚪"
	}
	return "❌"
}

func healthText(h boardview.Health) string {
	switch h {
	case boardview.Healthy:
		return "healthy"
	case boardview.Suspect:
		return "⚠️ suspect"
	}
	return "🛑 stalled"
}

// mermaidClasses style the graph's nodes by state.
var mermaidClasses = map[boardview.State]string{
	boardview.StateOpen: "open", boardview.StateInProgress: "progress", boardview.StateInReview: "review", boardview.StateBlocked: "blocked",
	boardview.StateHeld: "held", boardview.StateMerged: "merged", boardview.StateCertified: "certified",
	boardview.StateDone: "merged", boardview.StateCancelled: "open",
}

// graph writes the increment's dependency graph as a Mermaid flowchart:
// a node per story (its number and escaped title), an edge from each
// dependency to the story that needs it, nodes styled by state.
func (w boardWriter) graph(inc boardview.Increment) {
	w.b.WriteString("\n```mermaid\ngraph LR\n")
	w.b.WriteString("  classDef open fill:#f6f8fa,stroke:#8c959f\n  classDef progress fill:#ddf4ff,stroke:#0969da\n" +
		"  classDef review fill:#fbefff,stroke:#8250df\n  classDef blocked fill:#ffebe9,stroke:#cf222e\n" +
		"  classDef held fill:#fff8c5,stroke:#9a6700\n  classDef merged fill:#dafbe1,stroke:#1a7f37\n" +
		"  classDef certified fill:#1a7f37,stroke:#116329,color:#ffffff\n")
	nums := make([]int, 0, len(inc.Stories))
	for _, s := range inc.Stories {
		nums = append(nums, s.Number)
		fmt.Fprintf(w.b, "  s%d[\"#35;%d %s\"]:::%s\n", s.Number, s.Number, w.node(s.Title), mermaidClasses[s.State])
	}
	for _, s := range inc.Stories {
		for _, d := range s.DependsOn {
			if slices.Contains(nums, d) {
				fmt.Fprintf(w.b, "  s%d --> s%d\n", d, s.Number)
			}
		}
	}
	w.b.WriteString("```\n")
}
