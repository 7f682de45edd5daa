package rundoc

import (
	"strings"
)

var (
	// planSectionRE: a "## " heading, optionally numbered ("## 3. Decisions").
	planSectionRE = Lazy(`^##\s+(?:[0-9]+[.)]?\s+)?(.*?)\s*$`)
)

// Plan is a parsed plan-of-record.md.
type Plan struct {
	File     string
	Fields   []Field
	Sections []PlanSection
	Tables   []Table
}

// Field is a bold "**Label:** value" field. Value runs from the label to
// the end of its paragraph (a blank line, a heading or the next field).
type Field struct {
	Label string
	Value string
	Line  int
}

// PlanSection is a "## Title" section; Body runs to the next "#" or "##"
// heading.
type PlanSection struct {
	Title string
	Line  int
	Body  string
}

// ParsePlan parses a plan of record.
func ParsePlan(file, b string) *Plan {
	t := newText(b)
	p := &Plan{File: file, Tables: t.tables()}
	sec := -1
	secStart := 0
	closeSec := func(end int) {
		if sec >= 0 {
			p.Sections[sec].Body = t.join(secStart, end)
		}
	}
	for i := 0; i < t.n; i++ {
		line := t.line(i)
		if t.fenced[i] {
			continue
		}
		if isH1orH2(line) {
			closeSec(i)
			sec = -1
			if m := planSectionRE().FindStringSubmatch(line); m != nil && strings.HasPrefix(line, "##") {
				p.Sections = append(p.Sections, PlanSection{Title: m[1], Line: i + 1})
				sec, secStart = len(p.Sections)-1, i+1
			}
			continue
		}
		if strings.HasPrefix(line, "**") {
			if label, value, ok := boldField(line); ok {
				p.Fields = append(p.Fields, Field{Label: TrimSpace(label), Value: fieldValue(t, value, i+1), Line: i + 1})
			}
		}
	}
	closeSec(t.n)
	return p
}

func isH1orH2(line string) bool {
	return (strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## ") ||
		strings.HasPrefix(line, "#\t") || strings.HasPrefix(line, "##\t"))
}

// fieldValue joins a field's first-line value with its continuation lines.
func fieldValue(t *text, first string, from int) string {
	parts := []string{first}
	for i := from; i < t.n; i++ {
		line := t.line(i)
		if IsBlank(line) || strings.HasPrefix(line, "#") || (!t.fenced[i] && isBoldField(line)) {
			break
		}
		parts = append(parts, line)
	}
	return TrimSpace(strings.Join(parts, "\n"))
}

// Field returns the first field whose label equals label, ignoring case.
func (p *Plan) Field(label string) (Field, bool) {
	for _, f := range p.Fields {
		if strings.EqualFold(f.Label, label) {
			return f, true
		}
	}
	return Field{}, false
}

// Section returns the first "##" section whose title equals title, ignoring
// case.
func (p *Plan) Section(title string) (PlanSection, bool) {
	for _, s := range p.Sections {
		if strings.EqualFold(s.Title, title) {
			return s, true
		}
	}
	return PlanSection{}, false
}

// TableWith returns the first table whose header has all the given
// (lowercase) column names.
func (p *Plan) TableWith(cols ...string) (Table, bool) {
	for _, tb := range p.Tables {
		ok := true
		for _, c := range cols {
			if tb.Col(c) < 0 {
				ok = false
				break
			}
		}
		if ok {
			return tb, true
		}
	}
	return Table{}, false
}
