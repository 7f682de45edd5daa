package rundoc

import (
	"slices"
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
	ID    string
	Title string
	Line  int
	Body  string
	// Reports are the section's Report references: the guide's Reports in
	// this span.
	Reports Span
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

// ParseGuide parses an execution guide in one pass. Headings and Report
// lines inside fenced blocks are content, not structure.
func ParseGuide(file, b string) *Guide {
	src := normalize(b)
	// Counting the markers first sizes the slices once (an upper bound; a
	// count takes a millisecond or two on a 20 MB guide). Each reference
	// follows a label, and each label holds "Report:**", which is counted
	// six times faster: '*' starts far more candidates than 'R'.
	headings, refs := strings.Count(src, "###"), strings.Count(src, reportLabel[2:])
	g := &Guide{File: file, Sections: make([]Section, 0, headings), Reports: make([]ReportRef, 0, refs)}
	sc := newScanner(src, true, false)
	cur, bodyStart := -1, 0 // current section; offset of its body
	closeSection := func(end int) {
		if cur >= 0 {
			g.Sections[cur].Body = sc.between(bodyStart, end)
			g.Sections[cur].Reports.To = int32(len(g.Reports))
		}
	}
	for sc.scan() {
		line := sc.line
		if sc.fenced || !strings.HasPrefix(line, "#") && !strings.Contains(line, reportLabel) {
			continue
		}
		if strings.HasPrefix(line, "###") {
			if id, title, ok := guideHeading(line); ok {
				closeSection(sc.off)
				g.Sections = grow(g.Sections)
				at := int32(len(g.Reports))
				g.Sections = append(g.Sections, Section{ID: id, Title: TrimSpace(title), Line: sc.i + 1, Reports: Span{at, at}})
				cur, bodyStart = len(g.Sections)-1, sc.next
				continue
			}
		}
		if strings.HasPrefix(line, "#") {
			if pt, ok := phaseTitle(sc); ok {
				g.Phases = append(g.Phases, pt)
			}
		}
		if strings.Contains(line, reportLabel) {
			g.Reports = appendReportRefs(grow(g.Reports), line, sc.i+1)
		}
	}
	closeSection(sc.next)
	_, g.Unclosed = sc.finish()
	return g
}

// grow doubles a full slice's capacity, so that a slice of a hundred
// thousand elements leaves about its own size in garbage behind, not the
// several times that append's gentler growth of large slices does.
func grow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 8))
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
