package route

import (
	"slices"
	"strings"
)

// coalescedEvents are the events whose requests to judge a pull request
// again may coalesce: conversation, reviews, checks and workflow runs.
// A pull request's own events (a new head, an edited body) are judged at
// once.
var coalescedEvents = []string{"issue_comment", "pull_request_review", "check_run", "check_suite", "workflow_run"}

// Coalescible reports whether x, derived from a delivery of event, only
// asks for a pull request to be judged again, so that it may merge with
// the other requests for it: a JudgePR of a coalesced event answering
// nothing, or answering a created comment that carries no request (no
// line starting with a slash, no fenced block), so that nothing but the
// judgement is owed to it.
func Coalescible(event string, x Work) bool {
	j, ok := x.(JudgePR)
	switch {
	case !ok || !slices.Contains(coalescedEvents, event):
		return false
	case j.Answer == 0 && j.Witness == nil:
		return true
	case j.Witness == nil || j.Witness.Comment.ID != j.Answer:
		return false
	}
	return !mayRequest(j.Witness.Comment.Body)
}

// Coalesce replaces each JudgePR of ws that ok allows (Coalescible, for
// the App) by its Rejudge, keeping the order.
func Coalesce(ws []Work, ok func(Work) bool) []Work {
	out := make([]Work, len(ws))
	for i, x := range ws {
		out[i] = x
		if j, isPR := x.(JudgePR); isPR && ok(x) {
			out[i] = Rejudge(j)
		}
	}
	return out
}

// mayRequest reports whether a comment body may hold a command or a gate
// block, under any command prefix a config allows (a slash and a word):
// a line whose first non-blank character is a slash, or a code fence.
func mayRequest(body string) bool {
	for line := range strings.Lines(body) {
		l := strings.TrimLeft(line, " \t>")
		if strings.HasPrefix(l, "/") || strings.HasPrefix(l, "~~~") || strings.HasPrefix(l, "```") {
			return true
		}
	}
	return false
}
