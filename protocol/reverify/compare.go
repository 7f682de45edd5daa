package reverify

import (
	"fmt"
	"strings"
	"time"
)

// Outcome is what re-running one task's command observed.
type Outcome struct {
	ExitCode int
	Output   string
	Took     time.Duration
}

// Finding is one false green: a DONE task whose evidence a re-run does not
// reproduce, with both sides shown.
type Finding struct {
	ID      string
	LogLine int
	Message string
}

// Compare judges each task's re-run, outcomes[i] for tasks[i]: a non-zero
// exit is a false green; so is output that no longer contains the pasted
// output's last line. A task without pasted output is judged by its exit
// alone.
func Compare(tasks []Task, outcomes []Outcome) []Finding {
	var out []Finding
	for i, t := range tasks {
		if i >= len(outcomes) {
			break
		}
		if msg := judge(t, outcomes[i]); msg != "" {
			out = append(out, Finding{ID: t.ID, LogLine: t.LogLine, Message: msg})
		}
	}
	return out
}

func judge(t Task, o Outcome) string {
	tail := LastLine(o.Output)
	switch {
	case o.ExitCode != 0:
		return fmt.Sprintf("false green: %s is DONE, but its Verify command exited %d on re-run.\npasted (last line): %s\nre-run (last line): %s",
			t.ID, o.ExitCode, orNothing(t.Pasted), orNothing(tail))
	case t.Pasted != "" && !strings.Contains(o.Output, t.Pasted):
		return fmt.Sprintf("false green: %s is DONE, but the re-run's output no longer contains the pasted output's last line.\npasted (last line): %s\nre-run (last line): %s",
			t.ID, t.Pasted, orNothing(tail))
	}
	return ""
}

// orNothing shows an empty value as "(nothing)".
func orNothing(s string) string {
	if s == "" {
		return "(nothing)"
	}
	return s
}
