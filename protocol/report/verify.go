package report

import "strings"

// arrows separate a VERIFY command from its result.
var arrows = []string{"→", "->", "=>", "⇒"}

// verifySteps splits each VERIFY value into command and result: "cmd →
// result" (also ->, =>, ⇒), or a `code span` followed by its result
// (optionally after ":" or a dash).
func verifySteps(f Field) []VerifyStep {
	var steps []VerifyStep
	add := func(text string, line int) {
		cmd, res := splitStep(text)
		steps = append(steps, VerifyStep{Command: cmd, Result: res, Line: line})
	}
	if f.Inline != "" {
		add(f.Inline, f.Line)
	}
	for i, item := range f.Items {
		add(item, f.ItemLines[i])
	}
	return steps
}

func splitStep(s string) (cmd, result string) {
	best := -1
	var arrow string
	for _, a := range arrows {
		if i := strings.Index(s, a); i >= 0 && (best < 0 || i < best) && !inCode(s, i) {
			best, arrow = i, a
		}
	}
	if best >= 0 {
		return trimCode(s[:best]), strings.TrimSpace(s[best+len(arrow):])
	}
	if strings.HasPrefix(s, "`") {
		if end := strings.Index(s[1:], "`"); end >= 0 {
			rest := strings.TrimSpace(s[end+2:])
			rest = strings.TrimSpace(strings.TrimLeft(rest, ":-–—"))
			return s[1 : end+1], rest
		}
	}
	return trimCode(s), ""
}

// inCode reports whether byte i of s lies inside a `code span`.
func inCode(s string, i int) bool {
	return strings.Count(s[:i], "`")%2 == 1
}

func trimCode(s string) string {
	return strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "`"))
}

// preservation reads "clean + pushed at <sha>".
func preservation(s string) Preservation {
	low := strings.ToLower(s)
	p := Preservation{Clean: strings.Contains(low, "clean"), Pushed: strings.Contains(low, "pushed")}
	for _, w := range strings.FieldsFunc(low, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z')
	}) {
		if len(w) >= 7 && len(w) <= 40 && isHex(w) {
			p.SHA = w
			break
		}
	}
	return p
}

func isHex(s string) bool {
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return s != ""
}
