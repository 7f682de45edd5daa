package rundoc

import "strings"

// ParseGuidePhases is ParseGuide for a reader that needs only the phase
// titles, as status does: the same pass over the same lines, fenced blocks
// included, keeping Phases and Unclosed. Sections and Reports are nil, so
// neither the sections nor the Report references of a large guide are
// looked for or kept. The strings it keeps are copies, so b is not kept
// alive by them: a large guide's text can be collected once parsed.
func ParseGuidePhases(file, b string) *Guide { return guidePhases(file, b, true) }

// guidePhases is ParseGuidePhases; fences false reads fenced blocks as
// text, the broken variant its negative-control test uses.
func guidePhases(file, b string, fences bool) *Guide {
	g := &Guide{File: file}
	sc := newScanner(normalize(b), fences, false)
	for sc.scan() {
		// A phase heading is "# Phase <n> …": one '#', then a space
		// (phaseHeading), so a section heading ("### …") is never one.
		if sc.fenced || !strings.HasPrefix(sc.line, "#") {
			continue
		}
		if pt, ok := phaseTitle(sc); ok {
			pt.Phase, pt.Title = strings.Clone(pt.Phase), strings.Clone(pt.Title)
			g.Phases = append(g.Phases, pt)
		}
	}
	if _, g.Unclosed = sc.finish(); g.Unclosed != nil {
		g.Unclosed.Content = strings.Clone(g.Unclosed.Content)
	}
	return g
}

// phaseTitle is the phase heading on sc's current line, when it is one.
func phaseTitle(sc *scanner) (PhaseTitle, bool) {
	num, title, ok := phaseHeading(sc.line)
	return PhaseTitle{Phase: NormNumber(num), Title: TrimSpace(title), Line: sc.i + 1}, ok
}
