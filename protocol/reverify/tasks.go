package reverify

import (
	"strings"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// Task is one DONE task whose Verify command is re-run.
type Task struct {
	ID string
	// Command is the guide's **Verify:** fence, as a shell script.
	Command string
	// GuideLine is the line of the task's section in the guide; LogLine
	// the line of its DONE report in the compliance log.
	GuideLine, LogLine int
	// Pasted is the last non-blank line of the output pasted under the
	// report's **Verify output:** ("" when none was pasted).
	Pasted string
}

// Skipped is a DONE task that cannot be re-run, and why.
type Skipped struct {
	ID, Reason string
	LogLine    int
}

// Tasks lists the tasks of run whose latest report heading in the
// compliance log is DONE, in guide order, with their Verify command; a
// DONE task without one is Skipped.
func Tasks(run *rundoc.Run) ([]Task, []Skipped) {
	if run == nil || run.Guide == nil || run.Log == nil {
		return nil, nil
	}
	last := map[string]rundoc.Heading{}
	for _, h := range run.Log.Headings {
		if !rundoc.IsVerdict(h.State) {
			last[h.ID] = h
		}
	}
	var tasks []Task
	var skipped []Skipped
	for _, s := range run.Guide.Sections {
		h, ok := last[s.ID]
		if !s.IsTask() || !ok || h.State != rundoc.Done {
			continue
		}
		cmd := VerifyCommand(s.Body)
		if strings.TrimSpace(cmd) == "" {
			skipped = append(skipped, Skipped{ID: s.ID, LogLine: int(h.Line), Reason: "its **Verify:** block in the guide is empty or missing, so there is nothing to re-run"})
			continue
		}
		tasks = append(tasks, Task{ID: s.ID, Command: cmd, GuideLine: s.Line, LogLine: int(h.Line), Pasted: pastedLast(run.Log, h)})
	}
	return tasks, skipped
}

// VerifyCommand returns the content of the first fenced block after the
// "**Verify:**" field of a guide section's body, up to the next bold
// field; "" when there is none.
func VerifyCommand(body string) string {
	lines := strings.Split(body, "\n")
	in, fence := false, ""
	var out []string
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case fence != "" && strings.HasPrefix(t, fence) && strings.Trim(t, fence[:1]) == "":
			return strings.Join(out, "\n")
		case fence != "":
			out = append(out, l)
		case !in && strings.HasPrefix(t, "**Verify:**"):
			in = true
		case in && strings.HasPrefix(t, "**") && strings.Contains(t, ":**"):
			return ""
		case in && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			fence = openingFence(t)
		}
	}
	return ""
}

// openingFence is the fence that opens at t (three or more backticks or
// tildes): the one its closing line must repeat at least.
func openingFence(t string) string {
	n := len(t) - len(strings.TrimLeft(t, t[:1]))
	return t[:n]
}

// pastedLast is the last non-blank line of the last fence of h's Verify
// output field; "" when there is none, or when that line is the
// transcript's "$ <command>" prompt (the command printed nothing).
func pastedLast(l *rundoc.Log, h rundoc.Heading) string {
	fs := l.EvidenceFences(h)
	if len(fs) == 0 {
		return ""
	}
	last := LastLine(fs[len(fs)-1].Content)
	if strings.HasPrefix(last, "$ ") {
		return ""
	}
	return last
}

// LastLine is the last non-blank line of s, without surrounding spaces.
func LastLine(s string) string {
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		if t := strings.TrimSpace(lines[i]); t != "" {
			return t
		}
	}
	return ""
}
