package gates

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/deploy"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/closurerules"
	"github.com/aepgate/aepgate/protocol/command"
	"github.com/aepgate/aepgate/protocol/incrementrules"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// conversationView is what the conversation family reads of an
// issue_comment payload.
type conversationView struct {
	Issue *struct {
		Number      int              `json:"number"`
		Body        string           `json:"body"`
		PullRequest *json.RawMessage `json:"pull_request"`
		Labels      []struct {
			Name string `json:"name"`
		} `json:"labels"`
	} `json:"issue"`
	Comment *struct {
		ID  int64   `json:"id"`
		App *appRef `json:"performed_via_github_app"`
		// The comment as created (issue_comment.created): the App's
		// witness should it be edited or deleted before it is judged.
		Body    string    `json:"body"`
		HTMLURL string    `json:"html_url"`
		Created time.Time `json:"created_at"`
		Updated time.Time `json:"updated_at"`
		User    *struct {
			Login string `json:"login"`
			Type  string `json:"type"`
		} `json:"user"`
	} `json:"comment"`
}

// ConversationFamily: a created comment is answered where it was made; an
// edited or deleted one only changes the replay (an edited command counts
// for nothing, and a comment edited into one that was never answered is
// answered: refused) and is recorded as tampering when it was a kept
// decision's source. On a pull request, that pull request and its unit's other
// attempts are judged; on a unit's issue, the unit's attempts; on the
// control issue, every open pull request, once the comment is known to
// change a project decision (fanout.go). The App's own comments change no
// replay.
func ConversationFamily() route.Family {
	return route.Family{
		Name:     "conversation",
		Events:   map[string][]string{"issue_comment": {"created", "edited", "deleted"}},
		View:     func() any { return new(conversationView) },
		Coalesce: pull.Coalesce,
		Derive: func(_ string, env webhook.Envelope, raw []byte, appID int64) ([]route.Work, error) {
			v, err := route.Decode[conversationView](raw)
			if err != nil || v.Issue == nil || v.Issue.Number <= 0 || v.Comment == nil {
				return nil, err
			}
			if v.Comment.App != nil && v.Comment.App.ID == appID {
				return nil, nil
			}
			return commentWork(env, v), nil
		},
	}
}

// commentWork is what one comment delivery asks for.
func commentWork(env webhook.Envelope, v conversationView) []route.Work {
	n := v.Issue.Number
	control := slices.ContainsFunc(v.Issue.Labels, func(l struct {
		Name string `json:"name"`
	}) bool {
		return l.Name == gh.ControlLabel
	})
	answer, w, edit := answerOf(env.Action, n, v)
	var then route.Work = AnswerOn{Thread: n, Control: control, Answer: answer, Witness: w, Once: edit} // then the unit's attempts
	if v.Issue.PullRequest != nil {
		then = pull.JudgePR{PR: n, Answer: answer, Guesses: verdict.GuessUnits(v.Issue.Body, route.RepoName(env)), Siblings: true, Witness: w, Once: edit}
	}
	if env.Action == "created" && control && v.Issue.PullRequest == nil {
		return controlWork(then, v.Comment.Body)
	}
	if env.Action == "created" {
		if c, ok := closeCommandOf(n, v, env.Action); ok && v.Issue.PullRequest == nil && !control {
			return []route.Work{c, then} // the owner's word is kept before the attempts are judged
		}
		if v.Issue.PullRequest != nil && (hasVerbLine(v.Comment.Body, command.VerbAcceptMerge) || hasVerbLine(v.Comment.Body, command.VerbWaive)) {
			return []route.Work{then, readback.ReadBack{PR: n}} // an owner's acceptance of the merge, or waiver of its retro-audit: read it back again
		}
		return []route.Work{then}
	}
	return changeWork(env, v, control, then, answer != 0)
}

// changeWork is what a comment edited or deleted asks for: then, judging
// the conversation again. On the control issue then runs only for a
// comment edited into a request (answered: refused once); a kept
// decision's source there is judged on every pull request instead.
func changeWork(env webhook.Envelope, v conversationView, control bool, then route.Work, answered bool) []route.Work {
	changed := CommentChanged{ID: v.Comment.ID, Change: env.Action, By: route.Sender(env), Then: then, Control: control && v.Issue.PullRequest == nil}
	if changed.Control && !answered {
		changed.Then = nil
	}
	if c, ok := closeCommandOf(v.Issue.Number, v, env.Action); ok && env.Action == "edited" && v.Issue.PullRequest == nil && !control {
		return []route.Work{c, changed} // an edit into `/aep close` counts for nothing, and is told so once
	}
	return []route.Work{changed}
}

// controlWork is a comment created on the control issue's work: its
// answer, then the deployments waiting on an owner gate (the owner's
// answer, a HOLD), then the open increments when it may hold an
// acceptance or a demonstration.
func controlWork(then route.Work, body string) []route.Work {
	ws := []route.Work{then, deploy.JudgeDeploys{}}
	if mentionsIncrement(body) {
		ws = append(ws, increment.JudgeIncrements{Open: true})
	}
	return ws
}

// answerOf is what a comment delivery answers: a created comment, with its
// witness, or one edited into a request, once (an edit is refused, and
// told so whichever of the comment's deliveries is judged first).
func answerOf(action string, thread int, v conversationView) (id int64, w *verdict.Witness, once bool) {
	switch {
	case action == "created":
		return v.Comment.ID, witnessOf(thread, v), false
	case action == "edited" && route.MayRequest(v.Comment.Body):
		return v.Comment.ID, nil, true
	}
	return 0, nil, false
}

// witnessOf is the created comment of v on thread, nil without its author.
func witnessOf(thread int, v conversationView) *verdict.Witness {
	c := v.Comment
	if c.User == nil || c.Created.IsZero() {
		return nil
	}
	return &verdict.Witness{Thread: thread, Comment: snapshot.Comment{ID: c.ID, URL: c.HTMLURL, Body: c.Body,
		Author: snapshot.Actor{Login: c.User.Login, Type: c.User.Type}, Created: c.Created, Updated: c.Created}}
}

// hasCloseLine reports a line that starts with a slash word and the verb
// close, whatever the prefix: the config that names it is read only then.
func hasCloseLine(body string) bool { return hasVerbLine(body, command.VerbClose) }

// hasVerbLine reports a line that starts with a slash word and verb,
// whatever the prefix.
func hasVerbLine(body, verb string) bool {
	for line := range strings.Lines(body) {
		f := strings.Fields(line)
		if strings.HasPrefix(line, "/") && len(f) >= 2 && f[1] == verb {
			return true
		}
	}
	return false
}

// closeCommandOf is the close command work of a comment (event is the
// issue_comment action) that holds the word "close" after a slash (the
// prefix is the config's, known only once it is read).
func closeCommandOf(issue int, v conversationView, event string) (closure.CloseCommand, bool) {
	c := v.Comment
	if c.User == nil || !hasCloseLine(c.Body) {
		return closure.CloseCommand{}, false
	}
	return closure.CloseCommand{Issue: issue, Body: c.Body, Cmd: closurerules.Command{
		Actor: closurerules.Actor{Login: c.User.Login, Type: c.User.Type}, CommentID: c.ID,
		Event: "issue_comment." + event, Created: c.Created, Updated: c.Updated}}, true
}

type appRef struct {
	ID int64 `json:"id"`
}

// mentionsIncrement reports a comment that may accept or demonstrate an
// increment (the prefix is the config's, known only once it is read).
func mentionsIncrement(body string) bool {
	return strings.Contains(body, incrementrules.DemoInfo) || strings.Contains(body, " accept ")
}
