package gh

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/aepgate/aepgate/protocol/instructor"
)

// instructionsPage is how many timeline items of the pull request and of
// the unit issue are read a page, GitHub's largest page; instructionsPages
// bounds the pages read of each (2,000 items, as instructor.MaxEvents). A
// timeline holding more, or a review holding more than a page of review
// comments, is Truncated (who instructed an agent is never guessed).
const (
	instructionsPage  = 100
	instructionsPages = 20
)

// instructionsQuery reads, a page of each at a time, what
// protocol/instructor needs for a pull request and its unit issue: on the
// pull request the assignments, labels, comments, reviews with their
// review comments, and its commits and force pushes; on the unit issue
// the assignments, labels and comments. A commit's authors include its
// Co-authored-by trailers'. A timeline read to its end is no longer asked
// for ($withPull, $withUnit).
var instructionsQuery = `query($owner: String!, $name: String!, $number: Int!, $unit: Int!, $withPull: Boolean!, $withUnit: Boolean!, $pullAfter: String, $unitAfter: String) { repository(owner: $owner, name: $name) {
  pullRequest(number: $number) @include(if: $withPull) { timelineItems(first: ` + fmt.Sprint(instructionsPage) + `, after: $pullAfter, itemTypes: [ASSIGNED_EVENT, LABELED_EVENT, ISSUE_COMMENT, PULL_REQUEST_REVIEW, PULL_REQUEST_COMMIT, HEAD_REF_FORCE_PUSHED_EVENT]) {
    pageInfo { hasNextPage endCursor }
    nodes { __typename
      ... on AssignedEvent { createdAt actor { __typename login } assignee { __typename ... on User { login } ... on Bot { login } ... on Mannequin { login } } }
      ... on LabeledEvent { createdAt actor { __typename login } label { name } }
      ... on IssueComment { createdAt url body author { __typename login } }
      ... on PullRequestReview { createdAt url body author { __typename login } comments(first: 100) { pageInfo { hasNextPage } nodes { createdAt url body author { __typename login } } } }
      ... on PullRequestCommit { commit { oid committedDate author { user { login } } committer { user { login } } authors(first: 10) { nodes { user { login } } } } }
      ... on HeadRefForcePushedEvent { createdAt actor { __typename login } afterCommit { oid } } } } }
  issue(number: $unit) @include(if: $withUnit) { timelineItems(first: ` + fmt.Sprint(instructionsPage) + `, after: $unitAfter, itemTypes: [ASSIGNED_EVENT, LABELED_EVENT, ISSUE_COMMENT]) {
    pageInfo { hasNextPage endCursor }
    nodes { __typename
      ... on AssignedEvent { createdAt actor { __typename login } assignee { __typename ... on User { login } ... on Bot { login } ... on Mannequin { login } } }
      ... on LabeledEvent { createdAt actor { __typename login } label { name } }
      ... on IssueComment { createdAt url body author { __typename login } } } } }
} }`

// loginOf is an actor as read: GraphQL spells a Bot's login without the
// "[bot]" suffix REST, webhooks and the config use, so loginIn adds it.
type loginOf struct {
	Typename string `json:"__typename"`
	Login    string
}

type userOf struct{ User *loginOf }

// instructionNode is one timeline item of instructionsQuery.
type instructionNode struct {
	Typename  string `json:"__typename"`
	CreatedAt time.Time
	URL       string
	Body      string
	Actor     *loginOf
	Author    *loginOf
	Assignee  *loginOf
	Label     *struct{ Name string }
	Comments  *struct {
		PageInfo struct{ HasNextPage bool }
		Nodes    []instructionNode
	}
	Commit *struct {
		Oid           string
		CommittedDate time.Time
		Author        *userOf
		Committer     *userOf
		Authors       struct{ Nodes []userOf }
	}
	AfterCommit *struct{ Oid string }
}

type instructionTimeline struct {
	PageInfo struct {
		HasNextPage bool
		EndCursor   string
	}
	Nodes []instructionNode
}

type instructionsData struct {
	Repository *struct {
		PullRequest *struct{ TimelineItems instructionTimeline }
		Issue       *struct{ TimelineItems instructionTimeline }
	}
}

// Instructions are a pull request's and its unit issue's timeline items
// that may instruct an agent, and the pull request's heads, as
// instructor.Items and pushes (oldest first; each commit a head, each
// force push a head). Truncated says a timeline held more than is read.
type Instructions struct {
	Items     []instructor.Item
	Heads     []Head
	Truncated bool
}

// Head is one head the pull request had: its commit, when (the commit's
// committed date, or the force push's time), who pushed it when GitHub
// says (a force push), and the logins of its author, committer and
// co-authors. Server says At is GitHub's own time of the force push; a
// commit's committed date is whatever its pusher wrote into it (GitHub
// no longer serves Commit.pushedDate).
type Head struct {
	SHA    string
	At     time.Time
	Server bool
	Pusher string
	Logins []string
}

// Instructions reads, a page of each timeline per GraphQL query, what
// the independence rules need of pull request number and of its unit
// issue unit (0: none): the unit issue's items first, then the pull
// request's, each oldest first.
//
// https://docs.github.com/graphql/reference/objects#pullrequesttimelineitemsconnection
func (in *Installation) Instructions(ctx context.Context, owner, repo string, number, unit int) (*Instructions, error) {
	var pull, issue Instructions
	vars := map[string]any{"owner": owner, "name": repo, "number": number, "unit": unit, "withPull": true, "withUnit": unit > 0, "pullAfter": nil, "unitAfter": nil}
	for page := 1; ; page++ {
		var data instructionsData
		if err := graphQL(ctx, in.hc, in.graphqlURL, instructionsQuery, vars, &data); err != nil {
			return nil, fmt.Errorf("instructions of %s/%s#%d: %w", owner, repo, number, err)
		}
		pullTL, issueTL, err := timelinesIn(data, vars["withPull"] == true, owner, repo, number)
		if err != nil {
			return nil, err
		}
		if pullTL != nil {
			pull.add(*pullTL, instructor.ChannelPullAssignment)
			vars["withPull"], vars["pullAfter"] = pullTL.PageInfo.HasNextPage, pullTL.PageInfo.EndCursor
		}
		if issueTL != nil {
			issue.add(*issueTL, instructor.ChannelIssueAssignment)
			vars["withUnit"], vars["unitAfter"] = issueTL.PageInfo.HasNextPage, issueTL.PageInfo.EndCursor
		}
		more := vars["withPull"] == true || vars["withUnit"] == true
		if !more || page >= instructionsPages {
			out := &Instructions{Items: append(issue.Items, pull.Items...), Heads: pull.Heads, Truncated: more || issue.Truncated || pull.Truncated}
			return out, nil
		}
	}
}

// timelinesIn are the timelines of one page's data: the pull request's
// (asked: it must be visible) and the unit issue's (nil when not asked).
func timelinesIn(data instructionsData, pullAsked bool, owner, repo string, number int) (pull, issue *instructionTimeline, err error) {
	r := data.Repository
	if r == nil || (pullAsked && r.PullRequest == nil) {
		return nil, nil, fmt.Errorf("instructions of %s/%s#%d: the pull request is not visible to the App", owner, repo, number)
	}
	if r.PullRequest != nil {
		pull = &r.PullRequest.TimelineItems
	}
	if r.Issue != nil {
		issue = &r.Issue.TimelineItems
	}
	return pull, issue, nil
}

// add appends the items and heads of tl; assignments are of channel.
// A review's comments beyond the first page make o Truncated.
func (o *Instructions) add(tl instructionTimeline, assignment instructor.Channel) {
	for _, n := range tl.Nodes {
		switch n.Typename {
		case "AssignedEvent":
			o.Items = append(o.Items, instructor.Item{Channel: assignment, Author: loginIn(n.Actor), At: n.CreatedAt, Assignee: loginIn(n.Assignee)})
		case "LabeledEvent":
			if n.Label != nil {
				o.Items = append(o.Items, instructor.Item{Channel: instructor.ChannelLabel, Author: loginIn(n.Actor), At: n.CreatedAt, Label: n.Label.Name, Ref: "label " + n.Label.Name})
			}
		case "IssueComment":
			o.Items = append(o.Items, commentItem(n, instructor.ChannelComment))
		case "PullRequestReview":
			o.Items = append(o.Items, commentItem(n, instructor.ChannelReview))
			if c := n.Comments; c != nil {
				o.Truncated = o.Truncated || c.PageInfo.HasNextPage
				for _, rc := range c.Nodes {
					o.Items = append(o.Items, commentItem(rc, instructor.ChannelReviewComment))
				}
			}
		case "PullRequestCommit":
			o.addCommit(n)
		case "HeadRefForcePushedEvent":
			if n.AfterCommit != nil {
				o.Heads = append(o.Heads, Head{SHA: n.AfterCommit.Oid, At: n.CreatedAt, Server: true, Pusher: loginIn(n.Actor)})
			}
		}
	}
}

func (o *Instructions) addCommit(n instructionNode) {
	c := n.Commit
	if c == nil {
		return
	}
	h := Head{SHA: c.Oid, At: c.CommittedDate}
	for _, u := range append([]userOf{deref(c.Author), deref(c.Committer)}, c.Authors.Nodes...) {
		if u.User != nil && u.User.Login != "" {
			h.Logins = append(h.Logins, u.User.Login)
		}
	}
	o.Heads = append(o.Heads, h)
}

func deref(u *userOf) userOf {
	if u == nil {
		return userOf{}
	}
	return *u
}

func commentItem(n instructionNode, ch instructor.Channel) instructor.Item {
	return instructor.Item{Channel: ch, Author: loginIn(n.Author), At: n.CreatedAt, Body: n.Body, Ref: n.URL}
}

// loginIn is l's login, "[bot]" added for a Bot, "" for a deleted
// account (GitHub's null actor).
func loginIn(l *loginOf) string {
	switch {
	case l == nil:
		return ""
	case l.Typename == "Bot" && l.Login != "" && !strings.HasSuffix(l.Login, "[bot]"):
		return l.Login + "[bot]"
	}
	return l.Login
}
