package rundoc

import (
	"fmt"
	"strings"
)

// GuideChange is one change to the Auditor's part of an execution guide
// between two versions: a task or gate added, removed or redefined, or the
// text outside the tasks (the rules of engagement, the reporting format)
// changed. aepkit reserves the whole guide to the Auditor (aepkit-compat
// §2.2): the Executor reports in the compliance log.
type GuideChange struct {
	// ID is the task's ID; "" for the text outside the tasks.
	ID string
	// Part is what changed, e.g. "Verify command", "Goal", "title",
	// "added", "removed", "text".
	Part string
}

// String says the change in words, e.g. "P1-T2's Verify command".
func (c GuideChange) String() string {
	switch {
	case c.ID == "":
		return "the guide's text outside its tasks"
	case c.Part == "added" || c.Part == "removed":
		return fmt.Sprintf("%s %s", c.ID, c.Part)
	}
	return fmt.Sprintf("%s's %s", c.ID, c.Part)
}

// VerifyPart is GuideChange.Part of a changed **Verify:** field.
const VerifyPart = "Verify command"

// CompareGuides lists how the head's execution guide differs from the
// base's, both given as the file's text ("" for a guide that did not
// exist): for each task or gate, in head's order then base's removed
// ones, its title and each bold field of its body (**Goal:**,
// **Verify:**, ...), then the text outside the tasks, each compared line
// by line without trailing spaces. Pure: two texts in.
func CompareGuides(baseText, headText string) []GuideChange {
	baseText, headText = normalize(baseText), normalize(headText)
	base, head := ParseGuide("base", baseText), ParseGuide("head", headText)
	b, h := tasksOf(base), tasksOf(head)
	var out []GuideChange
	for _, id := range h.order {
		bs, ok := b.byID[id]
		if !ok {
			out = append(out, GuideChange{ID: id, Part: "added"})
			continue
		}
		out = append(out, compareSection(bs, h.byID[id])...)
	}
	for _, id := range b.order {
		if _, ok := h.byID[id]; !ok {
			out = append(out, GuideChange{ID: id, Part: "removed"})
		}
	}
	if outsideTasks(base, baseText) != outsideTasks(head, headText) {
		out = append(out, GuideChange{Part: "text"})
	}
	return out
}

// guideTasks are a guide's task sections by ID, in order (a repeated ID
// keeps its first section).
type guideTasks struct {
	order []string
	byID  map[string]Section
}

func tasksOf(g *Guide) guideTasks {
	t := guideTasks{byID: map[string]Section{}}
	for _, s := range g.Sections {
		if _, seen := t.byID[s.ID]; s.IsTask() && !seen {
			t.order = append(t.order, s.ID)
			t.byID[s.ID] = s
		}
	}
	return t
}

// compareSection lists the parts of a task that differ between base and
// head.
func compareSection(b, h Section) []GuideChange {
	var out []GuideChange
	if b.Title != h.Title {
		out = append(out, GuideChange{ID: h.ID, Part: "title"})
	}
	bf, hf := TaskFields(b.Body), TaskFields(h.Body)
	seen := map[string]bool{}
	for _, f := range hf {
		seen[f.Label] = true
		if fieldText(bf, f.Label) != f.Text {
			out = append(out, GuideChange{ID: h.ID, Part: partName(f.Label)})
		}
	}
	for _, f := range bf {
		if !seen[f.Label] {
			out = append(out, GuideChange{ID: h.ID, Part: partName(f.Label)})
		}
	}
	return out
}

// partName is how a field is named in a change: the Verify field is its
// command, a field before any label the task's text.
func partName(label string) string {
	switch label {
	case "Verify":
		return VerifyPart
	case "":
		return "text"
	}
	return label
}

// TaskField is one bold field of a task's body: its label ("Goal",
// "Verify", ...; "" for the text before the first label) and its text up
// to the next label, each line without trailing spaces.
type TaskField struct {
	Label, Text string
}

// TaskFields splits a task's body into its bold fields. A field starts at
// a line (outside a fenced block) that begins with "**<label>:**"; the
// same label twice is joined into one field.
func TaskFields(body string) []TaskField {
	var out []TaskField
	idx := map[string]int{}
	cur, fence := "", ""
	add := func(label, line string) {
		i, ok := idx[label]
		if !ok {
			out, idx[label] = append(out, TaskField{Label: label}), len(out)
			i = len(out) - 1
		}
		out[i].Text += strings.TrimRight(line, " \t") + "\n"
	}
	for _, l := range strings.Split(body, "\n") {
		t := strings.TrimSpace(l)
		if fence == "" {
			if label, ok := fieldLabel(t); ok {
				cur = label
			}
		}
		fence = nextFence(fence, t)
		add(cur, l)
	}
	for i := range out {
		out[i].Text = strings.TrimRight(out[i].Text, "\n")
	}
	if len(out) > 0 && out[0].Label == "" && strings.TrimSpace(out[0].Text) == "" {
		out = out[1:]
	}
	return out
}

// fieldLabel is the label of a line "**<label>:** ...".
func fieldLabel(t string) (string, bool) {
	if !strings.HasPrefix(t, "**") {
		return "", false
	}
	label, _, ok := strings.Cut(t[2:], ":**")
	if !ok || label == "" || strings.Contains(label, "*") {
		return "", false
	}
	return label, true
}

// nextFence is the open fence after line t: a line of three or more
// backticks or tildes opens one when none is open, and a line of at least
// the open fence's characters closes it.
func nextFence(open, t string) string {
	if open != "" {
		if strings.HasPrefix(t, open) && strings.Trim(t, open[:1]) == "" {
			return ""
		}
		return open
	}
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		n := len(t) - len(strings.TrimLeft(t, t[:1]))
		return t[:n]
	}
	return ""
}

// fieldText is the text of the field labelled label, or a value no
// field's text can be when there is none.
func fieldText(fs []TaskField, label string) string {
	for _, f := range fs {
		if f.Label == label {
			return f.Text
		}
	}
	return "\x00absent"
}

// outsideTasks is the guide's text outside its task sections: the text
// before its first ### section (the rules of engagement, the reporting
// format) and the sections whose ID has no digit, with their titles, each
// line without trailing spaces.
func outsideTasks(g *Guide, text string) string {
	var b strings.Builder
	pre := text
	if len(g.Sections) > 0 {
		lines := strings.SplitN(text, "\n", g.Sections[0].Line)
		pre = strings.Join(lines[:len(lines)-1], "\n")
	}
	b.WriteString(trimLines(pre) + "\n")
	for _, s := range g.Sections {
		if !s.IsTask() {
			b.WriteString(s.ID + " " + s.Title + "\n" + trimLines(s.Body))
		}
	}
	return b.String()
}

// trimLines drops each line's trailing spaces and the trailing blank
// lines.
func trimLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.TrimRight(strings.Join(lines, "\n"), "\n")
}
