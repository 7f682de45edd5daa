package action

import (
	"fmt"

	"github.com/aepgate/aepgate/checks"
)

// EventPullRequestTarget is the event whose workflow runs from the base
// branch with the base repository's token and secrets, whoever opened the
// pull request.
const EventPullRequestTarget = "pull_request_target"

// targetNote is said once in the job summary of a pull_request_target run.
const targetNote = "This is a `pull_request_target` run: the job has the base repository's token and secrets, " +
	"whoever opened the pull request. aepgate runs no command the pull request controls here: no negative controls " +
	"and no re-run of recorded commands (those checks fail saying so). Lint, status, the report and the plans rules, " +
	"which run nothing, still run when the workspace is the head. Run the executing checks from a `pull_request` workflow."

// targeted reports whether the step runs under pull_request_target, saying
// so once in the job summary.
func (r *runner) targeted() bool {
	if r.ev.Name != EventPullRequestTarget {
		return false
	}
	if !r.targetNoted {
		r.targetNoted = true
		r.notes = append(r.notes, targetNote)
	}
	return true
}

// targetRefusal is the refusal of an executing check under
// pull_request_target: what (the checks' noun) would have run (verb).
func targetRefusal(what, verb string) checks.Refusal {
	return checks.Refusal{
		Title: "not run under pull_request_target",
		Reason: fmt.Sprintf("This workflow runs on `pull_request_target`, with the base repository's token and secrets. "+
			"The %s would run the pull request's own code on this runner, so aepgate did not %s.", what, verb),
		Fix: "run this check from a workflow triggered by `pull_request` (a fork's pull request then gets a read-only token); " +
			"keep `pull_request_target` for the checks that run nothing (`checks: lint, status, report, plans` without `rerun`).",
	}
}
