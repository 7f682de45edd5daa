package rundoc

import (
	"strings"
)

// Separators accepted between an ID and the rest of a heading: em dash, en
// dash and ASCII hyphen.
const sep = `[—–-]`

var (
	// guideHeadingRE: "### <ID> <sep> <title>", whitespace before the
	// separator required, after it optional.
	guideHeadingRE = Lazy(`^###\s+(` + IDChars + `)\s+` + sep + `\s*(.*)$`)
	// reportRefRE: "**Report:**", optional spaces on the same line, an
	// optionally backticked ID.
	reportRefRE = Lazy("\\*\\*Report:\\*\\*[ \\t\\p{Zs}]*`?(" + IDChars + ")`?")
	// phaseHeadingRE: "# Phase <n> — <title>".
	phaseHeadingRE = Lazy(`(?i)^#\s+phase\s+([0-9]+)(?:\s*` + sep + `\s*(.*))?$`)
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
			if m := guideHeadingRE().FindStringSubmatch(line); m != nil {
				closeSection(i)
				g.Sections = append(g.Sections, Section{ID: m[1], Title: TrimSpace(m[2]), Line: i + 1})
				cur, bodyStart = len(g.Sections)-1, i+1
				continue
			}
		}
		if strings.HasPrefix(line, "#") {
			if m := phaseHeadingRE().FindStringSubmatch(line); m != nil {
				g.Phases = append(g.Phases, PhaseTitle{Phase: NormNumber(m[1]), Title: TrimSpace(m[2]), Line: i + 1})
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
	for _, m := range reportRefRE().FindAllStringSubmatch(line, -1) {
		id := strings.TrimRight(m[1], ".")
		if HasDigit(id) {
			refs = append(refs, ReportRef{ID: id, Line: n})
		}
	}
	return refs
}
