package app

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
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
		ID  int64    `json:"id"`
		App *appInfo `json:"performed_via_github_app"`
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

type appInfo struct {
	ID int64 `json:"id"`
}

// conversationFamily: a created comment is answered where it was made; an
// edited or deleted one only changes the replay (an edited command counts
// for nothing, and a comment edited into one that was never answered is
// answered: refused) and is recorded as tampering when it was a kept
// decision's source. On a pull request, that pull request and its unit's other
// attempts are judged; on a unit's issue, the unit's attempts; on the
// control issue, every open pull request, once the comment is known to
// change a project decision (fanout.go). The App's own comments change no
// replay.
func conversationFamily() family {
	return family{
		name:   "conversation",
		events: map[string][]string{"issue_comment": {"created", "edited", "deleted"}},
		view:   func() any { return new(conversationView) },
		work: func(_ string, env envelope, raw []byte, appID int64) ([]work, error) {
			v, err := decode[conversationView](raw)
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
func commentWork(env envelope, v conversationView) []work {
	n := v.Issue.Number
	control := slices.ContainsFunc(v.Issue.Labels, func(l struct {
		Name string `json:"name"`
	}) bool {
		return l.Name == gh.ControlLabel
	})
	answer, w, edit := answerOf(env.Action, n, v)
	var then work = answerOn{thread: n, control: control, answer: answer, witness: w, once: edit} // then the unit's attempts
	if v.Issue.PullRequest != nil {
		then = judgePR{pr: n, answer: answer, guesses: verdict.GuessUnits(v.Issue.Body, env.repoName()), siblings: true, witness: w, once: edit}
	}
	if env.Action == "created" && control && v.Issue.PullRequest == nil {
		return controlWork(then, v.Comment.Body)
	}
	if env.Action == "created" {
		if c, ok := closeCommandOf(n, v, env.Action); ok && v.Issue.PullRequest == nil && !control {
			return []work{c, then} // the owner's word is kept before the attempts are judged
		}
		return []work{then}
	}
	changed := commentChanged{id: v.Comment.ID, change: env.Action, by: env.sender(), then: then, control: control && v.Issue.PullRequest == nil}
	if c, ok := closeCommandOf(n, v, env.Action); ok && env.Action == "edited" && v.Issue.PullRequest == nil && !control {
		return []work{c, changed} // an edit into `/aep close` counts for nothing, and is told so once
	}
	return []work{changed}
}

// controlWork is a comment created on the control issue's work: its
// answer, then the deployments waiting on an owner gate (the owner's
// answer, a HOLD), then the open increments when it may hold an
// acceptance or a demonstration.
func controlWork(then work, body string) []work {
	ws := []work{then, judgeDeploys{}}
	if mentionsIncrement(body) {
		ws = append(ws, judgeIncrements{open: true})
	}
	return ws
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
