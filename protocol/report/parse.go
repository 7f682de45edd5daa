package report

import (
	"strconv"
	"strings"
)

// labels maps every accepted spelling of a field label to its canonical
// name, longest first so that "NOT DONE / OPEN" wins over "NOT DONE".
var labels = []struct{ text, name string }{
	{"NOT DONE / OPEN", FieldNotDone},
	{"NOT DONE/OPEN", FieldNotDone},
	{"PRESERVATION", FieldPreservation},
	{"LEASE / JOB", FieldLeaseJob},
	{"WORK-UNIT", FieldWorkUnit},
	{"WORK UNIT", FieldWorkUnit},
	{"LEASE/JOB", FieldLeaseJob},
	{"NOT DONE", FieldNotDone},
	{"ATTEMPT", FieldAttempt},
	{"STATUS", FieldStatus},
	{"BRANCH", FieldBranch},
	{"VERIFY", FieldVerify},
	{"FILES", FieldFiles},
	{"DONE", FieldDone},
	{"PR", FieldPR},
}

// Parse reads the worker report out of a pull request body. The report
// starts at the first STATUS label (which may be in a fenced block, a list
// or bold); each field runs until the next label, and the report ends at the
// end of its fenced block, a heading that is not a label, a thematic break
// or the end of the body. A label repeated later is recorded once (the
// first) and reported by Check as a duplicate through Duplicates.
func Parse(body string) Report {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	start, inFence, asList := findStart(lines)
	r := Report{Fields: map[string]Field{}}
	if start < 0 {
		return r
	}
	r.Found = true
	var cur *Field
	flush := func() {
		if cur == nil {
			return
		}
		if _, dup := r.Fields[cur.Name]; dup {
			r.Duplicates = append(r.Duplicates, *cur)
		} else {
			r.Fields[cur.Name] = *cur
		}
		cur = nil
	}
	nested := false // inside a fenced block within the report
	for i := start; i < len(lines); i++ {
		line := lines[i]
		if isFence(line) {
			if inFence && !nested {
				break
			}
			nested = !nested
			continue
		}
		if !nested {
			if name, rest, ok := label(line, asList); ok {
				flush()
				cur = &Field{Name: name, Line: i + 1, Inline: cleanValue(rest)}
				continue
			}
			if !inFence && endsReport(line) {
				break
			}
		}
		if item := cleanItem(line); item != "" && cur != nil {
			cur.Items = append(cur.Items, item)
			cur.ItemLines = append(cur.ItemLines, i+1)
		}
	}
	flush()
	r.fill()
	return r
}

// findStart returns the index of the first STATUS label line, whether it
// sits inside a fenced block, and whether it is a list item (then labels
// may be list items throughout).
func findStart(lines []string) (int, bool, bool) {
	inFence := false
	for i, line := range lines {
		if isFence(line) {
			inFence = !inFence
			continue
		}
		for _, list := range []bool{false, true} {
			if name, _, ok := label(line, list); ok && name == FieldStatus {
				return i, inFence, list
			}
		}
	}
	return -1, false, false
}

// label recognises a label line: optional heading marks, an optional list
// marker (only when allowList), optional emphasis, the upper-case label and
// a colon (which a heading may omit). rest is what follows.
func label(line string, allowList bool) (name, rest string, ok bool) {
	s := strings.TrimSpace(line)
	heading := strings.HasPrefix(s, "#")
	s = strings.TrimSpace(strings.TrimLeft(s, "#"))
	if m := listMarker(s); m > 0 {
		if !allowList {
			return "", "", false
		}
		s = s[m:]
	}
	s = strings.TrimLeft(s, "*_")
	for _, l := range labels {
		if !strings.HasPrefix(s, l.text) {
			continue
		}
		after := strings.TrimLeft(s[len(l.text):], "*_")
		if r, found := strings.CutPrefix(after, ":"); found {
			return l.name, r, true
		}
		if heading && strings.TrimSpace(after) == "" {
			return l.name, "", true
		}
		return "", "", false
	}
	return "", "", false
}

// listMarker returns the length of a leading "- ", "* ", "+ " or "12. "
// marker, or 0.
func listMarker(s string) int {
	if len(s) >= 2 && strings.ContainsRune("-*+", rune(s[0])) && s[1] == ' ' {
		return 2
	}
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i+1 < len(s) && (s[i] == '.' || s[i] == ')') && s[i+1] == ' ' {
		return i + 2
	}
	return 0
}

func isFence(line string) bool {
	s := strings.TrimSpace(line)
	return strings.HasPrefix(s, "```") || strings.HasPrefix(s, "~~~")
}

// endsReport: a heading that is not a label, or a thematic break.
func endsReport(line string) bool {
	s := strings.TrimSpace(line)
	if strings.HasPrefix(s, "#") {
		return true
	}
	compact := strings.ReplaceAll(s, " ", "")
	for _, c := range []string{"-", "*", "_"} {
		if len(compact) >= 3 && strings.Trim(compact, c) == "" {
			return true
		}
	}
	return false
}

// cleanValue trims an inline value and the emphasis around it.
func cleanValue(s string) string {
	return strings.TrimSpace(strings.Trim(strings.TrimSpace(s), "*_"))
}

// cleanItem trims a continuation line and its list marker or checkbox.
func cleanItem(line string) string {
	s := strings.TrimSpace(line)
	if m := listMarker(s); m > 0 {
		s = strings.TrimSpace(s[m:])
	}
	for _, box := range []string{"[x] ", "[X] ", "[ ] "} {
		s = strings.TrimPrefix(s, box)
	}
	return s
}

// fill sets the typed members from Fields.
func (r *Report) fill() {
	if f, ok := r.Fields[FieldStatus]; ok {
		r.Status = Status(strings.ToLower(strings.Trim(f.Inline, "`")))
	}
	if f, ok := r.Fields[FieldAttempt]; ok {
		if n, err := strconv.Atoi(strings.TrimPrefix(f.Inline, "#")); err == nil {
			r.Attempt = n
		}
	}
	if f, ok := r.Fields[FieldVerify]; ok {
		r.Verify = verifySteps(f)
	}
	if f, ok := r.Fields[FieldPreservation]; ok {
		r.Preservation = preservation(strings.Join(f.Values(), " "))
	}
}
