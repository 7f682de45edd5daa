package reverify

import (
	"fmt"

	"github.com/aepgate/aepgate/protocol/rundoc"
)

// FromBase keeps each task's Verify command as the base commit's
// execution guide states it. aepkit reserves the guide to the Auditor
// (aepkit-compat §2.2): an Executor who edits a task's **Verify:** on the
// pull request must not choose the command that judges the task. A task
// whose command in the head's guide differs from the base's, or that the
// base's guide lacks (base nil: the base has no guide), is never run: it
// comes back in changed, reported as such. The others come back with the
// base's command.
func FromBase(tasks []Task, base *rundoc.Guide) (run []Task, changed []Finding) {
	cmds := map[string]string{}
	if base != nil {
		for _, s := range base.Sections {
			if _, seen := cmds[s.ID]; s.IsTask() && !seen {
				cmds[s.ID] = VerifyCommand(s.Body)
			}
		}
	}
	for _, t := range tasks {
		cmd, ok := cmds[t.ID]
		switch {
		case !ok:
			changed = append(changed, Finding{ID: t.ID, LogLine: t.LogLine,
				Message: fmt.Sprintf("%s: the task is not in the base commit's execution guide, so its Verify command is new on this pull request; not re-run from the head's text (an auditor approves the change, or re-runs it from a base that has it)", t.ID)})
		case cmd != t.Command:
			changed = append(changed, Finding{ID: t.ID, LogLine: t.LogLine,
				Message: fmt.Sprintf("%s: the Verify command changed on this pull request; not re-run from the head's text (an auditor approves the change, or re-runs it from a base that has it)", t.ID)})
		default:
			t.Command = cmd
			run = append(run, t)
		}
	}
	return run, changed
}
