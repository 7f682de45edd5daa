package app

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// payload is the part of a webhook payload the App reads.
type payload struct {
	Action       string `json:"action"`
	Installation *struct {
		ID int64 `json:"id"`
	} `json:"installation"`
	Repository *struct {
		Name  string `json:"name"`
		Owner struct {
			Login string `json:"login"`
		} `json:"owner"`
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
	Ref string `json:"ref"`
	// After is the SHA a push moved Ref to; Sender who sent the event.
	After  string `json:"after"`
	Sender *struct {
		Login string `json:"login"`
	} `json:"sender"`
	Commits []struct {
		Added    *[]string `json:"added"`
		Modified *[]string `json:"modified"`
		Removed  *[]string `json:"removed"`
	} `json:"commits"`
	PullRequest *struct {
		Number int    `json:"number"`
		Body   string `json:"body"`
		Head   struct {
			SHA string `json:"sha"`
		} `json:"head"`
	} `json:"pull_request"`
	Issue *struct {
		Number      int              `json:"number"`
		Body        string           `json:"body"`
		PullRequest *json.RawMessage `json:"pull_request"`
		Milestone   *numbered        `json:"milestone"`
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
		User    *struct {
			Login string `json:"login"`
			Type  string `json:"type"`
		} `json:"user"`
	} `json:"comment"`
	Review *struct {
		ID int64 `json:"id"`
	} `json:"review"`
	Milestone  *numbered `json:"milestone"`
	MergeGroup *struct {
		HeadSHA string `json:"head_sha"`
		HeadRef string `json:"head_ref"`
	} `json:"merge_group"`
	CheckRun *struct {
		Name         string   `json:"name"`
		PullRequests []prRef  `json:"pull_requests"`
		App          *appInfo `json:"app"`
	} `json:"check_run"`
	// WorkflowRun names the pull requests a completed workflow run was for
	// (same-repository pull requests whose head is the run's head).
	WorkflowRun *struct {
		PullRequests []prRef `json:"pull_requests"`
	} `json:"workflow_run"`
	CheckSuite *struct {
		PullRequests []prRef  `json:"pull_requests"`
		App          *appInfo `json:"app"`
	} `json:"check_suite"`
	Release *struct {
		TagName string `json:"tag_name"`
	} `json:"release"`
}

type numbered struct {
	Number int `json:"number"`
}

type prRef struct {
	Number int `json:"number"`
}

type appInfo struct {
	ID int64 `json:"id"`
}

// handledEvents are the events that start work; every other verified
// delivery is recorded and acknowledged, and nothing more.
var handledEvents = []string{"merge_group", "pull_request", "issues", "milestone", "check_run", "check_suite", "push", "issue_comment", "pull_request_review", "release", "workflow_run"}

func handled(event string) bool { return slices.Contains(handledEvents, event) }

// pullRequestActions are the pull_request actions that change what the
// work-unit check says.
var pullRequestActions = []string{"opened", "synchronize", "edited", "reopened"}

// pullBody is the body of the payload's pull request, "" without one.
func pullBody(p payload) string {
	if p.PullRequest == nil {
		return ""
	}
	return p.PullRequest.Body
}

// target is one pull request to evaluate, with the units its body named
// when the payload carried the body (a guess, checked against GitHub).
type target struct {
	PR      int
	Guesses []int
	// AllOpen asks for the open pull requests of the repository that name a
	// unit (issues and milestone events, reconcile): only those whose unit
	// is affected by Issue or Milestones when either is set, else all.
	AllOpen    bool
	Issue      int
	Milestones []int
	// Answer is the comment or review whose commands the evaluation
	// answers (reactions and a refusal reply), 0 for none.
	Answer int64
	// Thread, when set without PR, evaluates the gates of an issue's
	// conversation to answer a comment there: the unit's issue, or the
	// control issue when Control is set.
	Thread  int
	Control bool
	// Siblings asks, with PR, for the unit's other open pull requests to
	// be evaluated too (a comment or review changed the conversation).
	Siblings bool
	// Witness is the created comment as the signed delivery carried it.
	Witness *witness
	// Release, set alone, is a release's tag whose closure is verified
	// (aepgate/release); LatestRelease asks for the Latest release's.
	Release       string
	LatestRelease bool
	// Readback, set alone, is a merge to read back on the default branch
	// (aepgate/readback, aepgate/certificate).
	Readback *readbackTarget
	// Group, set alone, is a merge queue's group commit to judge for the
	// pull request it queues (aepgate/merge on the group's head).
	Group *mergeGroup
}

// vanishing actions make an issue or milestone unreadable, so what it
// affected cannot be asked: every open pull request is re-evaluated.
var vanishing = []string{"deleted", "transferred"}

// job is a parsed delivery: where it happened and what to evaluate.
type job struct {
	Installation int64
	Owner, Repo  string
	Targets      []target
	// Push is who moved a branch to which SHA, when the delivery says so
	// (pushOf); it is recorded before any target is evaluated.
	Push *pushed
	// Changed is a comment GitHub reported edited or deleted: if it is a
	// kept decision's source, the change is recorded as tampering.
	Changed *commentChange
}

// commentChange is an issue_comment edited or deleted delivery: which
// comment, what happened and who did it.
type commentChange struct {
	ID         int64
	Change, By string
	// Kept is set once the store said the comment is a kept decision's
	// source.
	Kept bool
}

// parseDelivery decides what a delivery asks for. A payload it cannot use
// returns an error (the job fails without retry); an event with nothing to
// do returns no targets.
func parseDelivery(event string, raw []byte, appID int64) (job, error) {
	var p payload
	if err := json.Unmarshal(raw, &p); err != nil {
		return job{}, fmt.Errorf("decode %s payload: %w", event, err)
	}
	var j job
	if p.Installation == nil || p.Repository == nil {
		return j, nil
	}
	j.Installation, j.Owner, j.Repo = p.Installation.ID, p.Repository.Owner.Login, p.Repository.Name
	switch event {
	case "pull_request":
		if p.PullRequest != nil && p.PullRequest.Number > 0 && slices.Contains(pullRequestActions, p.Action) {
			j.Targets = []target{{PR: p.PullRequest.Number, Guesses: guessUnits(p.PullRequest.Body, j.Owner+"/"+j.Repo)}}
		}
		if u := guessUnits(pullBody(p), j.Owner+"/"+j.Repo); p.Action == "closed" && len(u) == 1 {
			// A lane closed: the increment's other attempts may now be
			// within the WIP limits (board.md).
			j.Targets = []target{{AllOpen: true, Issue: u[0]}}
		}
	case "issues":
		if p.Issue != nil && p.Issue.PullRequest == nil {
			j.Targets = []target{issueTarget(p)}
		}
	case "milestone":
		t := target{AllOpen: true}
		if p.Milestone != nil && p.Milestone.Number > 0 && !slices.Contains(vanishing, p.Action) {
			t.Milestones = []int{p.Milestone.Number}
		}
		j.Targets = []target{t}
	case "check_run":
		if p.CheckRun != nil && p.Action == "rerequested" && ours(p.CheckRun.App, appID) {
			j.Targets = prTargets(p.CheckRun.PullRequests)
		}
	case "issue_comment":
		if p.Comment != nil && p.Comment.App != nil && p.Comment.App.ID == appID {
			break // the App's own reply or status comment changes no replay
		}
		j.Targets = commentTargets(p, j.Owner+"/"+j.Repo)
		if p.Comment != nil && (p.Action == "edited" || p.Action == "deleted") {
			j.Changed = &commentChange{ID: p.Comment.ID, Change: p.Action}
			if p.Sender != nil {
				j.Changed.By = p.Sender.Login
			}
		}
	case "pull_request_review":
		if p.PullRequest != nil && p.PullRequest.Number > 0 && p.Review != nil && slices.Contains(reviewActions, p.Action) {
			t := target{PR: p.PullRequest.Number, Guesses: guessUnits(p.PullRequest.Body, j.Owner+"/"+j.Repo)}
			if p.Action == "submitted" {
				t.Answer = p.Review.ID
			}
			t.Siblings = true
			j.Targets = []target{t}
		}
	case "push":
		if configChanged(p) {
			j.Targets = []target{{AllOpen: true}}
		}
	case "release":
		if p.Release != nil && p.Release.TagName != "" && slices.Contains(releaseActions, p.Action) {
			j.Targets = []target{{Release: p.Release.TagName}}
		}
	case "workflow_run":
		// A finished run may be what aepgate/merge waits for at a head.
		if p.WorkflowRun != nil && p.Action == "completed" {
			j.Targets = prTargets(p.WorkflowRun.PullRequests)
		}
	case "merge_group":
		if g, ok := groupOf(p); ok && p.Action == "checks_requested" {
			j.Targets = []target{{Group: &g}}
		}
	case "check_suite":
		if p.CheckSuite != nil && p.Action == "rerequested" && ours(p.CheckSuite.App, appID) {
			j.Targets = prTargets(p.CheckSuite.PullRequests)
		}
	}
	j.Targets = append(j.Targets, readbackTargets(event, raw)...)
	j.Push = pushOf(event, p)
	return j, nil
}

// reviewActions change what a pull request's reviews say; only a
// submitted review is answered.
var reviewActions = []string{"submitted", "edited", "dismissed"}

// commentTargets says what a comment changes: a created comment is
// answered where it was made; an edited or deleted one only changes the
// replay (an edited command counts for nothing). On a pull request, that
// pull request and its unit's other attempts are evaluated; on a unit's
// issue, the unit's attempts; on the control issue, every open pull request
// once the comment is known to change a project decision.
func commentTargets(p payload, repo string) []target {
	if p.Issue == nil || p.Issue.Number <= 0 || p.Comment == nil || !slices.Contains(commentActions, p.Action) {
		return nil
	}
	var answer int64
	var w *witness
	if p.Action == "created" {
		answer, w = p.Comment.ID, witnessOf(p)
	}
	n := p.Issue.Number
	if p.Issue.PullRequest != nil {
		return []target{{PR: n, Answer: answer, Guesses: guessUnits(p.Issue.Body, repo), Siblings: true, Witness: w}}
	}
	control := slices.ContainsFunc(p.Issue.Labels, func(l struct {
		Name string `json:"name"`
	}) bool {
		return l.Name == gh.ControlLabel
	})
	if !control {
		return []target{{Thread: n, Answer: answer, Witness: w}} // then the unit's attempts
	}
	// The open pull requests are judged (coalesced, fanout.go) only when the
	// comment changed a project decision, or was a kept one's source.
	return []target{{Thread: n, Control: true, Answer: answer, Witness: w}}
}

// witness is a comment as its signed issue_comment.created delivery
// carried it, and the issue or pull request it was posted on.
type witness struct {
	thread  int
	comment snapshot.Comment
}

// witnessOf is the created comment of p, nil without its author.
func witnessOf(p payload) *witness {
	c := p.Comment
	if c.User == nil || c.Created.IsZero() {
		return nil
	}
	return &witness{thread: p.Issue.Number, comment: snapshot.Comment{ID: c.ID, URL: c.HTMLURL, Body: c.Body,
		Author: snapshot.Actor{Login: c.User.Login, Type: c.User.Type}, Created: c.Created, Updated: c.Created}}
}

// commentActions are the issue_comment actions that change a replay.
var commentActions = []string{"created", "edited", "deleted"}

func ours(a *appInfo, appID int64) bool { return a == nil || a.ID == appID }

func prTargets(prs []prRef) []target {
	var out []target
	for _, p := range prs {
		if p.Number > 0 {
			out = append(out, target{PR: p.Number})
		}
	}
	return out
}

// issueTarget names what an issues event affects: the issue, its milestone
// and the milestone it just left or joined.
func issueTarget(p payload) target {
	t := target{AllOpen: true}
	if slices.Contains(vanishing, p.Action) || p.Issue.Number <= 0 {
		return t
	}
	t.Issue = p.Issue.Number
	for _, m := range []*numbered{p.Issue.Milestone, p.Milestone} {
		if m != nil && m.Number > 0 && !slices.Contains(t.Milestones, m.Number) {
			t.Milestones = append(t.Milestones, m.Number)
		}
	}
	return t
}

// pushCommitsListed is how many commits a push payload lists at most;
// with that many, later commits may be missing.
const pushCommitsListed = 20

// configChanged reports whether a push to the default branch may have
// changed the repository config, which every open pull request is judged
// by: a commit lists the file, or the payload cannot tell (no file lists,
// no commits, or as many commits as GitHub lists at most).
func configChanged(p payload) bool {
	if p.Repository.DefaultBranch == "" || p.Ref != "refs/heads/"+p.Repository.DefaultBranch {
		return false
	}
	if len(p.Commits) == 0 || len(p.Commits) >= pushCommitsListed {
		return true
	}
	for _, c := range p.Commits {
		if c.Added == nil || c.Modified == nil || c.Removed == nil {
			return true
		}
		for _, files := range []*[]string{c.Added, c.Modified, c.Removed} {
			if slices.Contains(*files, configPath) {
				return true
			}
		}
	}
	return false
}
