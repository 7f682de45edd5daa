package mcpserve

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/aepgate/aepgate/checks"
)

// WhatBlocksInput names the pull request to judge.
type WhatBlocksInput struct {
	Repo   string `json:"repo" jsonschema:"the repository as owner/name"`
	PR     int    `json:"pr" jsonschema:"the open pull request's number"`
	Config string `json:"config,omitempty" jsonschema:"judge under this local config file instead of the default branch's .github/aepgate.yml"`
}

// WhatBlocks is what_blocks' structured result: every check the App
// would publish, and the next steps its blocking checks name.
type WhatBlocks struct {
	Repo    string `json:"repo"`
	PR      int    `json:"pr"`
	Blocked bool   `json:"blocked"`
	// Checks are the App's check runs in the order it publishes them.
	Checks []BlockCheck `json:"checks"`
	// NextSteps are, for each blocking check, what it says is missing, in
	// the checks' order.
	NextSteps []NextStep `json:"next_steps"`
}

// BlockCheck is one check run as the App would publish it.
type BlockCheck struct {
	Name       string `json:"name"`
	Conclusion string `json:"conclusion"`
	Title      string `json:"title"`
	Blocking   bool   `json:"blocking"`
	Summary    string `json:"summary"`
}

// NextStep is one thing a blocking check says must happen.
type NextStep struct {
	Check string `json:"check"`
	Step  string `json:"step"`
}

func (t tools) whatBlocks(ctx context.Context, _ *mcp.CallToolRequest, in WhatBlocksInput) (*mcp.CallToolResult, WhatBlocks, error) {
	var out WhatBlocks
	runs, err := t.cli.Simulate(ctx, Simulation(in))
	if err != nil {
		return nil, out, fmt.Errorf("what_blocks: %w", err)
	}
	out = judgeBlocks(in.Repo, in.PR, runs)
	var b strings.Builder
	if !out.Blocked {
		fmt.Fprintf(&b, "Nothing blocks %s#%d: every check of the App passes or is neutral.\n", in.Repo, in.PR)
	} else {
		fmt.Fprintf(&b, "Next steps for %s#%d:\n", in.Repo, in.PR)
		for _, s := range out.NextSteps {
			fmt.Fprintf(&b, "- %s: %s\n", s.Check, s.Step)
		}
	}
	return text(t.cli.RunsText(runs), b.String()), out, nil
}

// judgeBlocks lists runs and the next steps of the blocking ones.
func judgeBlocks(repo string, pr int, runs []checks.Run) WhatBlocks {
	out := WhatBlocks{Repo: repo, PR: pr, Checks: []BlockCheck{}, NextSteps: []NextStep{}}
	for _, r := range runs {
		c := BlockCheck{Name: r.Name, Conclusion: string(r.Conclusion), Title: r.Title, Blocking: blocking(r.Conclusion), Summary: r.Summary}
		out.Checks = append(out.Checks, c)
		if !c.Blocking {
			continue
		}
		out.Blocked = true
		for _, s := range nextSteps(r) {
			out.NextSteps = append(out.NextSteps, NextStep{Check: r.Name, Step: s})
		}
	}
	return out
}

// blocking reports whether a run of conclusion c keeps the pull request
// from merging: everything but success, neutral and skipped (an unknown
// conclusion blocks).
func blocking(c checks.Conclusion) bool {
	switch c {
	case checks.ConclusionSuccess, checks.ConclusionNeutral, checks.ConclusionSkipped:
		return false
	}
	return true
}

// nextSteps reads what a blocking run says must happen: aepgate/merge's
// conditions that do not hold with what each is missing, aepgate/gates'
// gates and HOLDs with who opened them, who may answer and how, and for
// any other check its title and the first paragraph of its summary.
func nextSteps(r checks.Run) []string {
	var steps []string
	switch r.Name {
	case checks.NameMerge:
		steps = mergeSteps(r.Summary)
	case checks.NameGates:
		steps = gateSteps(r.Summary)
	}
	if len(steps) > 0 {
		return steps
	}
	step := r.Title
	switch p := firstParagraph(r.Summary); {
	case strings.HasPrefix(p, r.Title):
		step = p
	case p != "":
		step += ": " + p
	}
	return []string{step}
}

// mergeSteps are the rows of aepgate/merge's condition table that do not
// hold: "<condition>: <what is missing>".
func mergeSteps(summary string) []string {
	var steps []string
	for _, cells := range tableRows(summary) {
		if len(cells) == 3 && cells[1] == "❌" {
			steps = append(steps, cells[0]+": "+cells[2])
		}
	}
	return steps
}

// gateSteps are aepgate/gates' sections, one per open gate or HOLD ("###
// 1. HOLD on work unit #1: …"), each with the rows saying who opened it,
// who may answer and how.
func gateSteps(summary string) []string {
	var steps []string
	var cur *strings.Builder
	flush := func() {
		if cur != nil {
			steps = append(steps, cur.String())
		}
		cur = nil
	}
	for line := range strings.Lines(summary) {
		line = strings.TrimSpace(line)
		if h, ok := strings.CutPrefix(line, "### "); ok {
			flush()
			cur = &strings.Builder{}
			cur.WriteString(plain(gateHeading().ReplaceAllString(h, "")))
			continue
		}
		cells := rowCells(line)
		if cur == nil || len(cells) != 2 {
			continue
		}
		switch cells[0] {
		case "Opened", "Who may answer", "Reply", "Choices":
			fmt.Fprintf(cur, "; %s: %s", strings.ToLower(cells[0]), cells[1])
		}
	}
	flush()
	return steps
}

// gateHeading is a gate section's number, "1. ".
var gateHeading = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d+\.\s+`) })

// tableRows are the cells of every Markdown table row of s that is not a
// header or separator row.
func tableRows(s string) [][]string {
	var rows [][]string
	for line := range strings.Lines(s) {
		if cells := rowCells(strings.TrimSpace(line)); cells != nil {
			rows = append(rows, cells)
		}
	}
	return rows
}

// rowCells splits a Markdown table row into its cells, made plain; nil
// for a line that is not a row, or is a separator or a header ("Field",
// "Condition") row.
func rowCells(line string) []string {
	if !strings.HasPrefix(line, "|") || !strings.HasSuffix(line, "|") || len(line) < 2 {
		return nil
	}
	inner := strings.ReplaceAll(line[1:len(line)-1], `\|`, "\x00")
	parts := strings.Split(inner, "|")
	cells := make([]string, len(parts))
	for i, p := range parts {
		cells[i] = plain(strings.ReplaceAll(strings.TrimSpace(p), "\x00", "|"))
	}
	if strings.Trim(strings.Join(cells, ""), "-: ") == "" || cells[0] == "Field" || cells[0] == "Condition" {
		return nil
	}
	return cells
}

// mdLink is a Markdown link; plain keeps its text.
var mdLink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`) })

// plain strips the Markdown a summary's cells and headings carry: links
// (their text kept), HTML line breaks and escaped characters.
func plain(s string) string {
	s = mdLink().ReplaceAllString(s, "$1")
	s = strings.NewReplacer("<br>", "; ", "<br/>", "; ", "&lt;", "<", "&gt;", ">", "&amp;", "&", `\_`, "_", `\*`, "*").Replace(s)
	return strings.TrimSpace(s)
}

// firstParagraph is the summary's first paragraph that is not a heading,
// a table or a rule, on one line.
func firstParagraph(summary string) string {
	for _, p := range strings.Split(summary, "\n\n") {
		p = strings.TrimSpace(p)
		if p == "" || strings.HasPrefix(p, "#") || strings.HasPrefix(p, "|") || strings.HasPrefix(p, "---") {
			continue
		}
		return plain(strings.Join(strings.Fields(p), " "))
	}
	return ""
}
