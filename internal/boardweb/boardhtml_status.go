package boardweb

import (
	"strconv"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/rundoc"
	"github.com/aepgate/aepgate/protocol/status"
)

// RenderStatusBoard renders a run's status (what `aepgate status` shows)
// as a self-contained board page: one graph of the whole run, in which each
// phase's tasks lead to its gates and each phase's gates to the next
// phase's items, and a table per phase with each item's state, report,
// verdict and executor. title heads the page; now is shown in its footer.
func RenderStatusBoard(title string, rep status.Report, now time.Time) ([]byte, error) {
	phases := statusPhases(rep)
	repo := repoView{Name: rep.Dir, Anchor: "run"}
	for _, ph := range phases {
		repo.Increments = append(repo.Increments, phaseView(ph))
	}
	nodes := statusNodes(phases)
	repo.Graph = BoardGraphSVG("run", nodes)
	if len(nodes) == 0 {
		repo.Empty = "The compliance log records no task or gate yet."
	}
	return renderPageView(pageView{Title: title, Repos: []repoView{repo}, Generated: htmlTime(now)})
}

// phaseView is one phase as a section: its counts by state, in the order
// the states first appear, and one row per item.
func phaseView(ph statusPhase) incrementView {
	v := incrementView{Title: ph.title, Open: ph.open > 0, Local: true, Meta: phaseMeta(ph)}
	counts := map[string]int{}
	var order []string
	for _, it := range ph.items {
		if counts[it.State] == 0 {
			order = append(order, it.State)
		}
		counts[it.State]++
		v.Stories = append(v.Stories, storyView{Ref: it.ID, State: it.State, Class: htmlStateClass(it.State),
			Reason: conflictText(it), Detail: itemDetail(it)})
	}
	for _, s := range order {
		v.Counts = append(v.Counts, stateCount{State: s, Class: htmlStateClass(s), N: counts[s]})
	}
	return v
}

// statusNodes is the run's graph: a phase's tasks follow the previous
// phase's gates, and its gates follow its tasks (or, with none, the
// previous gates).
func statusNodes(phases []statusPhase) []BoardGraphNode {
	var nodes []BoardGraphNode
	var prevGates []string
	for _, ph := range phases {
		var tasks, gates []string
		for _, it := range ph.items {
			if rundoc.IsGateID(it.ID) {
				gates = append(gates, it.ID)
			} else {
				tasks = append(tasks, it.ID)
			}
		}
		gateDeps := tasks
		if len(tasks) == 0 {
			gateDeps = prevGates
		}
		for _, it := range ph.items {
			n := BoardGraphNode{ID: it.ID, Label: it.ID, Title: itemTitle(it), State: it.State, Deps: prevGates}
			if rundoc.IsGateID(it.ID) {
				n.Deps = gateDeps
			}
			nodes = append(nodes, n)
		}
		if len(gates) > 0 {
			prevGates = gates
		}
	}
	return nodes
}

// statusPhase is one phase's items, in the log's order.
type statusPhase struct {
	title string
	items []status.Item
	open  int
}

// statusPhases groups the items by phase, in the order of rep.Phases; items
// of no phase come last.
func statusPhases(rep status.Report) []statusPhase {
	index := map[string]int{}
	var out []statusPhase
	for _, p := range rep.Phases {
		index[p.ID] = len(out)
		out = append(out, statusPhase{title: phaseTitle(p)})
	}
	open := map[string]bool{}
	for _, id := range rep.Open {
		open[id] = true
	}
	for _, it := range rep.Items {
		key := ""
		if it.Phase != nil {
			key = *it.Phase
		}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, statusPhase{title: strings.TrimSpace(key + " (no phase in the guide)")})
		}
		out[i].items = append(out[i].items, it)
		if open[it.ID] {
			out[i].open++
		}
	}
	return out
}

// phaseTitle is "P1 — title", or the ID alone when the guide gives none.
func phaseTitle(p status.Phase) string {
	if p.Title != nil && *p.Title != "" {
		return p.ID + " — " + *p.Title
	}
	return p.ID
}

func phaseMeta(ph statusPhase) string {
	switch {
	case len(ph.items) == 0:
		return "nothing reported"
	case ph.open == 0:
		return "all approved"
	case ph.open == 1:
		return "1 open item"
	}
	return strconv.Itoa(ph.open) + " open items"
}

// itemTitle is the short text under an item's ID in the graph.
func itemTitle(it status.Item) string {
	if it.Executor != nil {
		return "by " + *it.Executor
	}
	return ""
}

// itemDetail is an item's report, verdict and executor in a few words.
func itemDetail(it status.Item) string {
	var parts []string
	if it.Report != nil {
		parts = append(parts, "report "+*it.Report)
	}
	if it.Verdict != nil {
		parts = append(parts, "verdict "+*it.Verdict)
	}
	if it.Executor != nil {
		parts = append(parts, "executor "+*it.Executor)
	}
	return strings.Join(parts, " · ")
}

// conflictText explains a CONFLICT, "" otherwise.
func conflictText(it status.Item) string {
	if it.Conflict == nil {
		return ""
	}
	return "status board says " + it.Conflict.StatusBoard + ", the last report heading " + it.Conflict.ReportHeader
}
