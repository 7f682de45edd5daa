package plans

import (
	"fmt"
	"slices"
	"strings"
)

// Reruns is what may be re-run of one state file's recorded verification
// commands, as the plan's contract at the base allows.
type Reruns struct {
	// Indexes are the entries of State.Verification to re-run, in order.
	Indexes []int
	// Commands are those entries' commands, in the same order.
	Commands []string
	// Refused are "rerun" findings for the recorded commands the base
	// contract does not list; they are not run.
	Refused []Finding
	// Unlisted is true when the base contract lists no verify_commands (or
	// there is no contract at the base): every recorded command is re-run,
	// and each is the executor's own choice.
	Unlisted bool
}

// SelectReruns decides which of s's recorded verification commands (s is
// the state file at file) may be re-run. base is progress.json at the pull
// request's base, never the head's copy: a pull request cannot widen the
// list that judges it. When base lists verify_commands, only a command
// equal to one of them, byte for byte, is re-run; any other is refused with
// a finding at its line. Without such a list every command is re-run and
// Unlisted is set, so the caller can warn that the executor chose them.
func SelectReruns(base *Progress, file string, s *State) Reruns {
	var r Reruns
	r.Unlisted = base == nil || base.VerifyCommands == nil
	for i, v := range s.Verification {
		if r.Unlisted || slices.Contains(base.VerifyCommands, v.Command) {
			r.Indexes, r.Commands = append(r.Indexes, i), append(r.Commands, v.Command)
			continue
		}
		r.Refused = append(r.Refused, Finding{Rule: "rerun", File: file, Line: s.VerificationLine(i, "command"),
			Message: fmt.Sprintf("not re-run: %q is not one of the verify_commands the base contract lists (%s); "+
				"record one of them, or have the owner add it to progress.json", v.Command, listed(base.VerifyCommands))})
	}
	return r
}

// Compare compares the re-runs, runs[i] for the recorded entry
// r.Indexes[i] of s (at file), and returns r.Refused followed by the
// mismatches, as compareRun reports them.
func (r Reruns) Compare(file string, s *State, runs []Run) []Finding {
	out := slices.Clone(r.Refused)
	for i, idx := range r.Indexes {
		if i < len(runs) {
			out = append(out, compareRun(file, s, idx, runs[i])...)
		}
	}
	return out
}

// listed quotes the contract's commands for a message.
func listed(cmds []string) string {
	if len(cmds) == 0 {
		return "none"
	}
	q := make([]string, len(cmds))
	for i, c := range cmds {
		q[i] = fmt.Sprintf("%q", c)
	}
	return strings.Join(q, ", ")
}
