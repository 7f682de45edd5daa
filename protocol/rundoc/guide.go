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
	g := &Guide{File: file, Sections: make([]Section, 0, t.count("###")),
		Reports: make([]ReportRef, 0, strings.Count(t.src, "**Report:**"))}
	cur := -1 // index into g.Sections
	bodyStart := 0
	// refs[k] is the range of g.Reports that section k holds; the sections
	// take their subslices once g.Reports has stopped growing.
	refs := make([][2]int, 0, cap(g.Sections))
	closeSection := func(end int) {
		if cur >= 0 {
			g.Sections[cur].Body = t.join(bodyStart, end)
			refs[cur][1] = len(g.Reports)
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
				refs = append(refs, [2]int{len(g.Reports), len(g.Reports)})
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
			g.Reports = appendReportRefs(g.Reports, line, i+1)
		}
	}
	closeSection(t.n)
	for k, r := range refs {
		if r[1] > r[0] {
			g.Sections[k].Reports = g.Reports[r[0]:r[1]:r[1]]
		}
	}
	g.Unclosed = t.unclosed()
	return g
}

// appendReportRefs appends the Report references on one line. The ID must
// follow the label on the same line and contain a digit; trailing sentence
// dots are not part of it.
func appendReportRefs(refs []ReportRef, line string, n int) []ReportRef {
	var buf [4]string
	for _, id := range appendReportIDs(buf[:0], line) {
		id = strings.TrimRight(id, ".")
		if HasDigit(id) {
			refs = append(refs, ReportRef{ID: id, Line: n})
		}
	}
	return refs
}
