package boardweb

import (
	"bytes"
	"html/template"
	"strconv"
	"strings"
	"unicode/utf8"
)

// BoardGraphNode is one node of a dependency graph: a story, or an item of
// a run's compliance log.
type BoardGraphNode struct {
	ID    string   // unique in the graph
	Label string   // short, e.g. "#12" or "P1-T2"
	Title string   // longer, cut to fit the box
	State string   // a story state or a status word; it picks the colour
	URL   string   // where the node links, "" for none
	Deps  []string // IDs of the nodes it depends on
}

// The graph's geometry, in SVG user units.
const (
	svgNodeW = 200
	svgNodeH = 46
	svgGapX  = 48
	svgGapY  = 14
	svgPad   = 8
	// svgTitleRunes is how much of a title fits in a box.
	svgTitleRunes = 26
)

// svgGraph is what the SVG template draws.
type svgGraph struct {
	ID            string
	Width, Height int
	Nodes         []svgNode
	Edges         []string // path data
}

type svgNode struct {
	X, Y                                  int
	Label, Title, Full, State, Class, URL string
}

// BoardGraphSVG lays nodes out left to right in layers by their longest
// chain of dependencies (a node sits one layer right of its furthest
// dependency; dependencies outside the graph and edges that would close a
// cycle are left out) and draws them as inline SVG: boxes coloured by
// state, linked to their URL, with arrows from each dependency. id makes
// the SVG's element IDs unique on the page. It is "" for no nodes.
func BoardGraphSVG(id string, nodes []BoardGraphNode) template.HTML {
	if len(nodes) == 0 {
		return ""
	}
	g := svgLayout(id, nodes)
	var buf bytes.Buffer
	if err := boardGraphTemplate().Execute(&buf, g); err != nil {
		return template.HTML("<p>graph: " + template.HTMLEscapeString(err.Error()) + "</p>")
	}
	return template.HTML(buf.String()) // the template escaped every value
}

// svgLayout places the nodes, a column per layer and a row per node of a
// layer in the nodes' order, and draws an edge from each dependency in an
// earlier layer.
func svgLayout(id string, nodes []BoardGraphNode) svgGraph {
	layer := svgLayers(nodes)
	g := svgGraph{ID: id}
	rows := map[int]int{}
	at := map[string][2]int{}
	for _, n := range nodes {
		l := layer[n.ID]
		x, y := svgPad+l*(svgNodeW+svgGapX), svgPad+rows[l]*(svgNodeH+svgGapY)
		rows[l]++
		at[n.ID] = [2]int{x, y}
		g.Width, g.Height = max(g.Width, x+svgNodeW+svgPad), max(g.Height, y+svgNodeH+svgPad)
		g.Nodes = append(g.Nodes, svgNode{X: x, Y: y, Label: n.Label, Title: svgCut(n.Title), Full: n.Label + " " + n.Title + " (" + n.State + ")",
			State: n.State, Class: htmlStateClass(n.State), URL: n.URL})
	}
	for _, n := range nodes {
		for _, d := range n.Deps {
			if from, ok := at[d]; ok && layer[d] < layer[n.ID] {
				g.Edges = append(g.Edges, svgEdge(from, at[n.ID]))
			}
		}
	}
	return g
}

// svgLayers gives each node its layer: 0 without dependencies in the
// graph, else one more than its deepest dependency's.
func svgLayers(nodes []BoardGraphNode) map[string]int {
	deps := map[string][]string{}
	for _, n := range nodes {
		deps[n.ID] = n.Deps
	}
	layer := map[string]int{}
	visiting := map[string]bool{}
	var walk func(id string) int
	walk = func(id string) int {
		if l, ok := layer[id]; ok {
			return l
		}
		visiting[id] = true
		l := 0
		for _, d := range deps[id] {
			if _, in := deps[d]; in && !visiting[d] {
				l = max(l, walk(d)+1)
			}
		}
		visiting[id] = false
		layer[id] = l
		return l
	}
	for _, n := range nodes {
		walk(n.ID)
	}
	return layer
}

// svgEdge is a curve from the right side of the box at from to the left
// side of the box at to.
func svgEdge(from, to [2]int) string {
	x1, y1 := from[0]+svgNodeW, from[1]+svgNodeH/2
	x2, y2 := to[0]-4, to[1]+svgNodeH/2
	mx := (x1 + x2) / 2
	n := func(v int) string { return strconv.Itoa(v) }
	return "M" + n(x1) + " " + n(y1) + " C" + n(mx) + " " + n(y1) + " " + n(mx) + " " + n(y2) + " " + n(x2) + " " + n(y2)
}

// svgCut shortens a title to what fits in a box, ending in "…".
func svgCut(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= svgTitleRunes {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:svgTitleRunes-1])) + "…"
}

// htmlStateClass is the CSS class of a story state or a status word.
func htmlStateClass(state string) string {
	switch strings.ToUpper(state) {
	case "CERTIFIED", "APPROVED":
		return "s-certified"
	case "MERGED", "CONDITIONAL":
		return "s-merged"
	case "IN REVIEW", "AWAITING AUDIT", "DONE":
		return "s-review"
	case "IN PROGRESS":
		return "s-progress"
	case "BLOCKED", "REJECTED", "CONFLICT":
		return "s-blocked"
	case "HELD":
		return "s-held"
	}
	return "s-open"
}
