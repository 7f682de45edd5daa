package rundoc

import (
	"strings"
)

// Guide is a parsed execution-guide.md.
type Guide struct {
	File     string
	Sections []Section
	// Reports are all **Report:** references in document order.
	Reports []ReportRef
	// Phases are the "# Phase <n> — <title>" headings.
	Phases []PhaseTitle
	// Unclosed is a fenced block that is never closed: everything after it
	// is code, as GitHub renders it. Nil when every fence closes.
	Unclosed *Fence
}

// Section is one "### <ID> — <title>" section of the guide. Body is the
// lines after the heading line up to the next such heading.
type Section struct {
	ID      string
	Title   string
	Line    int
	Body    string
	Reports []ReportRef
}

// IsTask reports whether the section is a task or gate (its ID has a digit).
func (s Section) IsTask() bool { return HasDigit(s.ID) }

// IsGate reports whether the section is a gate task (see IsGate); sections
// whose ID has no digit are never gates in aepgate.
func (s Section) IsGate() bool { return s.IsTask() && IsGate(s.ID, s.Title) }

// ReportRef is one **Report:** reference.
type ReportRef struct {
	ID   string
	Line int
}

// PhaseTitle is a "# Phase <n> — <title>" heading; Phase is the normalized
// number ("0", "1", …).
type PhaseTitle struct {
	Phase string
	Title string
	Line  int
}

// ParseGuide parses an execution guide. Headings and Report lines inside
// fenced blocks are content, not structure.
func ParseGuide(file, b string) *Guide {
	t := newText(b)
	g := &Guide{File: file, Sections: make([]Section, 0, t.count("###"))}
	cur := -1 // index into g.Sections
	bodyStart := 0
	closeSection := func(end int) {
		if cur >= 0 {
			g.Sections[cur].Body = t.join(bodyStart, end)
		}
	}
	for i := 0; i < t.n; i++ {
		line := t.line(i)
		if t.fenced[i] {
			continue
		}
		if strings.HasPrefix(line, "###") {
			if id, title, ok := guideHeading(line); ok {
				closeSection(i)
				g.Sections = append(g.Sections, Section{ID: id, Title: TrimSpace(title), Line: i + 1})
				cur, bodyStart = len(g.Sections)-1, i+1
				continue
			}
		}
		if strings.HasPrefix(line, "#") {
			if num, title, ok := phaseHeading(line); ok {
				g.Phases = append(g.Phases, PhaseTitle{Phase: NormNumber(num), Title: TrimSpace(title), Line: i + 1})
			}
		}
		if strings.Contains(line, "**Report:**") {
			for _, ref := range reportRefs(line, i+1) {
				g.Reports = append(g.Reports, ref)
				if cur >= 0 {
					g.Sections[cur].Reports = append(g.Sections[cur].Reports, ref)
				}
			}
		}
	}
	closeSection(t.n)
	g.Unclosed = t.unclosed()
	return g
}

// reportRefs finds the Report references on one line. The ID must follow
// the label on the same line and contain a digit; trailing sentence dots are
// not part of it.
func reportRefs(line string, n int) []ReportRef {
	var refs []ReportRef
	for _, id := range appendReportIDs(nil, line) {
		id = strings.TrimRight(id, ".")
		if HasDigit(id) {
			refs = append(refs, ReportRef{ID: id, Line: n})
		}
	}
	return refs
}
