package gh

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/protocol/instructor"
	"github.com/google/go-github/v62/github"
)

// timelinePage is the timeline events asked for per page, GitHub's most.
const timelinePage = 100

// Assignments reads the assigned and unassigned events of issue number's
// timeline, oldest first, in pages of 100: at most instructor.MaxEvents
// events of any kind, after which the timeline is Truncated. Any failure
// is an error: who instructed an agent is never guessed.
//
// https://docs.github.com/rest/issues/timeline#list-timeline-events-for-an-issue
func (in *Installation) Assignments(ctx context.Context, owner, repo string, number int) (instructor.Timeline, error) {
	what := fmt.Sprintf("timeline of %s/%s#%d", owner, repo, number)
	opts := &github.ListOptions{PerPage: timelinePage}
	var tl instructor.Timeline
	for read := 0; ; {
		if read >= instructor.MaxEvents {
			tl.Truncated = true
			return tl, nil
		}
		events, resp, err := in.rest.Issues.ListIssueTimeline(ctx, owner, repo, number, opts)
		if err != nil {
			return instructor.Timeline{}, classify(what, err)
		}
		read += len(events)
		tl.Events = append(tl.Events, assignmentEvents(events)...)
		if resp.NextPage == 0 {
			return tl, nil
		}
		opts.Page = resp.NextPage
	}
}

// assignmentEvents are the assigned and unassigned events among events.
func assignmentEvents(events []*github.Timeline) []instructor.Event {
	var out []instructor.Event
	for _, e := range events {
		switch k := e.GetEvent(); k {
		case instructor.KindAssigned, instructor.KindUnassigned:
			out = append(out, instructor.Event{ID: e.GetID(), Kind: k, Assignee: e.GetAssignee().GetLogin(), Actor: e.GetActor().GetLogin()})
		}
	}
	return out
}
