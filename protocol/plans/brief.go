package plans

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Brief is a phase brief, phases/phase-<N>-<name>.md, as the Executor skill
// names its parts (executor-state, "The plan and the phase briefs") and
// docs/plans.md reads them: the pre-condition commands, and each task with
// the files it lists and its verify_command. Everything else in the brief
// (shared contracts, notes for the executing agent) is kept in the file and
// not read.
type Brief struct {
	// File is the brief's repository-relative path.
	File  string
	Phase int
	// PreConditions are the commands of the fenced block under
	// "## Pre-conditions", in order.
	PreConditions []string
	// PreTasks are the tasks the pre-conditions section names ("Task 1.2")
	// outside its fenced block: each must be done before the phase's tasks.
	PreTasks []Ref
	Tasks    []BriefTask
}

// Ref is a task ID named in a brief, at its line.
type Ref struct {
	ID   string
	Line int
}

// BriefTask is one "### Task <id>: <title>" section.
type BriefTask struct {
	ID, Title string
	Line      int
	// Files are the backticked paths of the bullet list after "Files:".
	Files     []string
	FilesLine int
	// VerifyCommand is the backticked command of "verify_command:"; empty
	// when the section has none.
	VerifyCommand string
	VerifyLine    int
	// Requires are the tasks the section's "Pre-conditions:" line names
	// ("Task 1.1"): each must be done before this task's commit.
	Requires []Ref
}

// Task returns the brief's section for task id, or nil.
func (b *Brief) Task(id string) *BriefTask {
	i := slices.IndexFunc(b.Tasks, func(t BriefTask) bool { return t.ID == id })
	if i < 0 {
		return nil
	}
	return &b.Tasks[i]
}

const sep = `\s*\**\s*[:—–]\s*\**\s*`

var (
	briefFileRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^phases/phase-([1-9][0-9]{0,3})-[A-Za-z0-9][A-Za-z0-9._-]*\.md$`)
	})
	headingRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$`) })
	taskHeadRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^task\s+` + "`?" + `([A-Za-z0-9][A-Za-z0-9._-]*?)` + "`?" + `\s*(?:[:—–]\s*(.*))?$`)
	})
	preHeadRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^pre-?\s*conditions?\b`) })
	filesRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)^\s*[-*+]?\s*\**\s*files` + sep + `(.*)$`) })
	verifyRE  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?i)^\\s*[-*+]?\\s*\\**\\s*`?verify[_ ]command`?" + sep + "(.*)$")
	})
	requiresRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)^\s*[-*+]?\s*\**\s*pre-?\s*conditions?` + sep + `(.*)$`)
	})
	bulletRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*[-*+]\s+`) })
	tickRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(`+)\\s*(.+?)\\s*(`+)") })
	taskRefRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?i)\\btask\\s+`?([A-Za-z0-9][A-Za-z0-9._-]*[A-Za-z0-9])`?")
	})
	fenceRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^\\s{0,3}(```+|~~~+)") })
)

// BriefFile classifies rel, a path inside a plan folder: the phase of a
// brief phases/phase-<N>-<name>.md; ok is false for any other path.
func BriefFile(rel string) (phase int, ok bool) {
	m := briefFileRE().FindStringSubmatch(rel)
	if m == nil {
		return 0, false
	}
	phase, _ = strconv.Atoi(m[1])
	return phase, true
}

// briefParser is the state of one pass over a brief's lines.
type briefParser struct {
	b       *Brief
	e       *errs
	section string // "pre", "task" or ""
	fence   string // the open fence's marker, "" outside one
	list    *[]string
	refs    *[]Ref
}

// ParseBrief reads a phase brief leniently (spacing, case, "—" or ":");
// the error is Errors: a file over MaxFileSize, or a task ID used twice.
func ParseBrief(file string, phase int, data []byte) (*Brief, error) {
	b := &Brief{File: file, Phase: phase}
	e := &errs{file: file}
	if len(data) > MaxFileSize {
		e.add("", "file is %d bytes, over the %d-byte limit", len(data), MaxFileSize)
		return b, e.err()
	}
	p := &briefParser{b: b, e: e}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxFileSize+1)
	for n := 1; sc.Scan(); n++ {
		p.line(n, sc.Text())
	}
	return b, e.err()
}

func (p *briefParser) line(n int, s string) {
	if m := fenceRE().FindStringSubmatch(s); m != nil {
		switch {
		case p.fence == "":
			p.fence = m[1]
		case strings.HasPrefix(m[1], p.fence[:1]) && len(m[1]) >= len(p.fence):
			p.fence = ""
		}
		return
	}
	if p.fence != "" {
		if c := strings.TrimSpace(s); p.section == "pre" && c != "" && !strings.HasPrefix(c, "#") {
			p.b.PreConditions = append(p.b.PreConditions, c)
		}
		return
	}
	if m := headingRE().FindStringSubmatch(s); m != nil {
		p.heading(n, len(m[1]), m[2])
		return
	}
	p.body(n, s)
}

// heading opens the pre-conditions section on "## Pre-conditions" and a
// task on "### Task <id>: <title>"; any other heading of level 3 or less
// closes them.
func (p *briefParser) heading(n, level int, text string) {
	p.list, p.refs = nil, nil
	if level > 3 {
		return
	}
	p.section = ""
	if level == 2 && preHeadRE().MatchString(text) {
		p.section = "pre"
		return
	}
	m := taskHeadRE().FindStringSubmatch(text)
	if level != 3 || m == nil {
		return
	}
	id := strings.TrimRight(m[1], ".")
	if p.b.Task(id) != nil {
		p.e.list = append(p.e.list, Error{File: p.e.file, Line: n, Field: "Task " + id, Message: fmt.Sprintf("task %q has two sections in this brief", id)})
		return
	}
	p.b.Tasks = append(p.b.Tasks, BriefTask{ID: id, Title: strings.TrimSpace(m[2]), Line: n})
	p.section = "task"
}

// body reads a line of text: in the pre-conditions section its task
// names; in a task its Files list, verify_command and pre-conditions.
func (p *briefParser) body(n int, s string) {
	switch p.section {
	case "pre":
		p.b.PreTasks = append(p.b.PreTasks, taskRefs(n, s)...)
		return
	case "task":
	default:
		return
	}
	t := &p.b.Tasks[len(p.b.Tasks)-1]
	if m := filesRE().FindStringSubmatch(s); m != nil {
		t.FilesLine, p.list, p.refs = n, &t.Files, nil
		t.Files = append(t.Files, ticked(m[1])...)
		return
	}
	if m := verifyRE().FindStringSubmatch(s); m != nil && t.VerifyCommand == "" {
		p.list, p.refs = nil, nil
		if c := ticked(m[1]); len(c) > 0 {
			t.VerifyCommand, t.VerifyLine = c[0], n
		}
		return
	}
	if m := requiresRE().FindStringSubmatch(s); m != nil {
		p.list, p.refs = nil, &t.Requires
		t.Requires = append(t.Requires, taskRefs(n, m[1])...)
		return
	}
	p.continued(n, s)
}

// continued adds a bullet line to the open Files list or pre-conditions;
// any other non-blank line closes them.
func (p *briefParser) continued(n int, s string) {
	switch {
	case strings.TrimSpace(s) == "":
	case !bulletRE().MatchString(s):
		p.list, p.refs = nil, nil
	case p.list != nil:
		*p.list = append(*p.list, ticked(s)...)
	case p.refs != nil:
		*p.refs = append(*p.refs, taskRefs(n, s)...)
	}
}

// ticked returns the backticked spans of s.
func ticked(s string) []string {
	var out []string
	for _, m := range tickRE().FindAllStringSubmatch(s, -1) {
		if len(m[1]) == len(m[3]) && m[2] != "" {
			out = append(out, m[2])
		}
	}
	return out
}

// taskRefs returns the tasks s names as "Task <id>".
func taskRefs(n int, s string) []Ref {
	var out []Ref
	for _, m := range taskRefRE().FindAllStringSubmatch(s, -1) {
		out = append(out, Ref{ID: m[1], Line: n})
	}
	return out
}
