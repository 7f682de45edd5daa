package pull

import (
	"time"

	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/contract"
	"github.com/aepgate/aepgate/app/heldwork"
	"github.com/aepgate/aepgate/app/increment"
	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/route"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/webhook"
	"github.com/aepgate/aepgate/protocol/closurerules"
)

// pullView is what the pull request and review families read of a
// payload's pull request.
type pullView struct {
	PullRequest *struct {
		Number int    `json:"number"`
		Body   string `json:"body"`
		State  string `json:"state"`
		Merged bool   `json:"merged"`
		// UpdatedAt is GitHub's time of the action: for opened and
		// synchronize, of the push.
		UpdatedAt time.Time `json:"updated_at"`
		Head      struct {
			SHA string `json:"sha"`
		} `json:"head"`
	} `json:"pull_request"`
}

// pullRequestActions are the pull_request actions that change what the
// checks on its head say.
var pullRequestActions = []string{"opened", "synchronize", "edited", "reopened"}

// pushActions are the pull_request actions whose sender moved the head:
// opening it (the head the opener proposes) and each push to it.
var pushActions = []string{"opened", "synchronize"}

// PullRequestFamily: a pull request opened, pushed to, edited or reopened
// is judged (a push to a held unit's pull request is answered,
// app/heldwork); one closed frees its lane (the increment's other attempts may
// now be within the WIP limits, board.md) and, merged, is read back.
func PullRequestFamily() route.Family {
	return route.Family{
		Name:   "pull request",
		Events: map[string][]string{"pull_request": append(slices.Clone(pullRequestActions), "closed")},
		View:   func() any { return new(pullView) },
		Derive: func(_ string, env webhook.Envelope, raw []byte, _ int64) ([]route.Work, error) {
			v, err := route.Decode[pullView](raw)
			if err != nil || v.PullRequest == nil || v.PullRequest.Number <= 0 {
				return nil, err
			}
			p := v.PullRequest
			out := []route.Work{attemptOf(env.Action, route.RepoName(env), p.Number, p.Body, p.State)}
			if slices.Contains(pushActions, env.Action) && route.Sender(env) != "" && p.Head.SHA != "" {
				out = append(out, RecordPush{SHA: p.Head.SHA, Login: route.Sender(env), At: p.UpdatedAt})
			}
			switch {
			case slices.Contains(pullRequestActions, env.Action):
				// A held push is answered first: the judging then shows the
				// reply on the owner's board.
				out = append(out, heldPush(env, v)...)
				out = append(out, JudgePR{PR: p.Number, Guesses: verdict.GuessUnits(p.Body, route.RepoName(env))})
			case env.Action == "closed":
				if u := verdict.GuessUnits(p.Body, route.RepoName(env)); len(u) == 1 {
					out = append(out, JudgeOpen{Issue: u[0]})
				}
				if p.Merged {
					out = append(out, readback.ReadBack{PR: p.Number})
				}
			}
			return out, nil
		},
	}
}

// attemptOf is what a pull_request delivery says for the attempt index:
// the unit the body names alone, open unless the action or the payload's
// state says closed (when unsure, open: an index row too many costs a
// read, one too few could hide an attempt).
func attemptOf(action, repo string, pr int, body, state string) RecordAttempt {
	unit := 0
	if g := verdict.GuessUnits(body, repo); len(g) == 1 {
		unit = g[0]
	}
	return RecordAttempt{PR: pr, Unit: unit, Open: action != "closed" && state != "closed"}
}

// reviewView is what the review family reads.
type reviewView struct {
	pullView
	Review *struct {
		ID int64 `json:"id"`
	} `json:"review"`
}

// ReviewFamily: a review submitted, edited or dismissed changes what the
// pull request's reviews say; only a submitted one is answered. The unit's
// other attempts are judged next (a HOLD or gate in it applies to them).
func ReviewFamily() route.Family {
	return route.Family{
		Name:     "review",
		Events:   map[string][]string{"pull_request_review": {"submitted", "edited", "dismissed"}},
		View:     func() any { return new(reviewView) },
		Coalesce: Coalesce,
		Derive: func(_ string, env webhook.Envelope, raw []byte, _ int64) ([]route.Work, error) {
			v, err := route.Decode[reviewView](raw)
			if err != nil || v.PullRequest == nil || v.PullRequest.Number <= 0 || v.Review == nil {
				return nil, err
			}
			j := JudgePR{PR: v.PullRequest.Number, Guesses: verdict.GuessUnits(v.PullRequest.Body, route.RepoName(env)), Siblings: true}
			if env.Action == "submitted" {
				j.Answer = v.Review.ID
			}
			return []route.Work{j}, nil
		},
	}
}

// pushView is what the push family reads.
type pushView struct {
	Ref   string `json:"ref"`
	After string `json:"after"`
	// Repository's PushedAt is GitHub's time of this push, in Unix seconds
	// as push deliveries send it; read as any value so that another
	// spelling only loses the time (pushedAt), never the delivery.
	Repository struct {
		PushedAt any `json:"pushed_at"`
	} `json:"repository"`
	Commits []struct {
		Added    *[]string `json:"added"`
		Modified *[]string `json:"modified"`
		Removed  *[]string `json:"removed"`
	} `json:"commits"`
}

// zeroSHA is what a push deleting a branch moves it to.
const zeroSHA = "0000000000000000000000000000000000000000"

// PushFamily: a push to a branch records its pusher; one to the default
// branch that may have changed the config has every open pull request
// judged again under it.
func PushFamily() route.Family {
	return route.Family{
		Name:   "push",
		Events: map[string][]string{"push": nil},
		View:   func() any { return new(pushView) },
		Derive: func(_ string, env webhook.Envelope, raw []byte, _ int64) ([]route.Work, error) {
			v, err := route.Decode[pushView](raw)
			if err != nil {
				return nil, err
			}
			var out []route.Work
			if strings.HasPrefix(v.Ref, "refs/heads/") && route.Sender(env) != "" && v.After != "" && v.After != zeroSHA {
				out = append(out, RecordPush{SHA: v.After, Login: route.Sender(env), At: pushedAt(v.Repository.PushedAt)})
			}
			if configChanged(env, v) {
				out = append(out, JudgeOpen{})
			}
			return out, nil
		},
	}
}

// pushCommitsListed is how many commits a push payload lists at most;
// with that many, later commits may be missing.
const pushCommitsListed = 20

// configChanged reports whether a push to the default branch may have
// changed the repository config, which every open pull request is judged
// by: a commit lists the file, or the payload cannot tell (no file lists,
// no commits, or as many commits as GitHub lists at most).
func configChanged(env webhook.Envelope, p pushView) bool {
	if env.Repository.DefaultBranch == "" || p.Ref != "refs/heads/"+env.Repository.DefaultBranch {
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
			if slices.Contains(*files, verdict.ConfigPath) {
				return true
			}
		}
	}
	return false
}

// checksView is what the checks family reads: the pull requests a check
// run, check suite or workflow run was for, the App that wrote it, and a
// workflow run's commit.
type checksView struct {
	CheckRun *struct {
		PullRequests []prRef `json:"pull_requests"`
		App          *appRef `json:"app"`
	} `json:"check_run"`
	CheckSuite *struct {
		PullRequests []prRef `json:"pull_requests"`
		App          *appRef `json:"app"`
	} `json:"check_suite"`
	// WorkflowRun names the pull requests a completed workflow run was for
	// (same-repository pull requests whose head is the run's head), and
	// the commit it ran on.
	WorkflowRun *struct {
		PullRequests []prRef `json:"pull_requests"`
		HeadSHA      string  `json:"head_sha"`
		HeadBranch   string  `json:"head_branch"`
		HeadCommit   *struct {
			Message string `json:"message"`
		} `json:"head_commit"`
	} `json:"workflow_run"`
}

type prRef struct {
	Number int `json:"number"`
}

// ChecksFamily: a re-run asked of one of the App's check runs or suites
// judges its pull requests again; a completed workflow run may be what
// aepgate/merge waits for at a head, and on the default branch what a
// merge's readback waits for.
func ChecksFamily() route.Family {
	return route.Family{
		Name: "workflow and check",
		Events: map[string][]string{
			"check_run": {"rerequested"}, "check_suite": {"rerequested"}, "workflow_run": {"completed"},
		},
		View:     func() any { return new(checksView) },
		Coalesce: Coalesce,
		Derive: func(event string, env webhook.Envelope, raw []byte, appID int64) ([]route.Work, error) {
			v, err := route.Decode[checksView](raw)
			if err != nil {
				return nil, err
			}
			switch {
			case event == "check_run" && v.CheckRun != nil && ours(v.CheckRun.App, appID):
				return prWork(v.CheckRun.PullRequests), nil
			case event == "check_suite" && v.CheckSuite != nil && ours(v.CheckSuite.App, appID):
				return prWork(v.CheckSuite.PullRequests), nil
			case event == "workflow_run" && v.WorkflowRun != nil:
				return append(prWork(v.WorkflowRun.PullRequests), workflowReadback(env, v)...), nil
			}
			return nil, nil
		},
	}
}

// workflowReadback is the merge a workflow run completed on the default
// branch belongs to (the commit message's pull request number is a guess,
// checked against GitHub).
func workflowReadback(env webhook.Envelope, v checksView) []route.Work {
	w := v.WorkflowRun
	if w.HeadSHA == "" || env.Repository.DefaultBranch == "" || w.HeadBranch != env.Repository.DefaultBranch {
		return nil
	}
	t := readback.ReadBack{SHA: w.HeadSHA}
	if w.HeadCommit != nil {
		t.Guesses = readback.Guesses(w.HeadCommit.Message)
	}
	return []route.Work{t, increment.JudgeIncrements{Open: true, AtMerge: w.HeadSHA}} // the readback may complete an increment
}

func ours(a *appRef, appID int64) bool { return a == nil || a.ID == appID }

// prWork judges each named pull request.
func prWork(prs []prRef) []route.Work {
	var out []route.Work
	for _, p := range prs {
		if p.Number > 0 {
			out = append(out, JudgePR{PR: p.Number})
		}
	}
	return out
}

// mergeGroupView is what the merge group family reads.
type mergeGroupView struct {
	MergeGroup *struct {
		HeadSHA string `json:"head_sha"`
		HeadRef string `json:"head_ref"`
	} `json:"merge_group"`
}

// MergeGroupFamily: a merge queue's group commit is judged for the pull
// request it queues (aepgate/merge on the group's head).
func MergeGroupFamily() route.Family {
	return route.Family{
		Name:   "merge group",
		Events: map[string][]string{"merge_group": {"checks_requested"}},
		View:   func() any { return new(mergeGroupView) },
		Derive: func(_ string, _ webhook.Envelope, raw []byte, _ int64) ([]route.Work, error) {
			v, err := route.Decode[mergeGroupView](raw)
			if err != nil {
				return nil, err
			}
			if g, ok := groupOf(v); ok {
				return []route.Work{JudgeQueued(g)}, nil
			}
			return nil, nil
		},
	}
}

var groupRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^refs/heads/gh-readonly-queue/.+/pr-([0-9]+)-([0-9a-f]{40})$`)
})

// groupOf reads a merge_group payload's group.
func groupOf(p mergeGroupView) (MergeGroup, bool) {
	if p.MergeGroup == nil || len(p.MergeGroup.HeadSHA) != 40 {
		return MergeGroup{}, false
	}
	m := groupRef().FindStringSubmatch(p.MergeGroup.HeadRef)
	if m == nil {
		return MergeGroup{}, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n <= 0 {
		return MergeGroup{}, false
	}
	return MergeGroup{GroupSHA: p.MergeGroup.HeadSHA, PRHead: m[2], PR: n}, true
}

// issuesView is what the issues and milestones family reads.
type issuesView struct {
	Issue *struct {
		Number      int              `json:"number"`
		Body        string           `json:"body"`
		PullRequest *json.RawMessage `json:"pull_request"`
		Milestone   *numbered        `json:"milestone"`
		ClosedAt    string           `json:"closed_at"`
	} `json:"issue"`
	Milestone *numbered `json:"milestone"`
	// Changes names what an edit changed: a milestone's description, for
	// milestone.edited.
	Changes *struct {
		Description *json.RawMessage `json:"description"`
		Body        *struct {
			From string `json:"from"`
		} `json:"body"`
	} `json:"changes"`
	Sender *struct {
		Login string `json:"login"`
		Type  string `json:"type"`
	} `json:"sender"`
	// Assignee is issues.assigned's assignee.
	Assignee *struct {
		Login string `json:"login"`
	} `json:"assignee"`
}

type numbered struct {
	Number int `json:"number"`
	// Description is a milestone's, as an edit left it (milestone.edited).
	Description string `json:"description"`
}

// vanishing actions make an issue or milestone unreadable, so what it
// affected cannot be asked: every open pull request is judged again.
var vanishing = []string{"deleted", "transferred"}

// IssuesFamily: a change to an issue or milestone (a unit's contract, its
// dependencies, an increment's stories) has the open pull requests it
// affects judged again; an agent assigned to a held unit is answered
// (app/heldwork).
func IssuesFamily() route.Family {
	return route.Family{
		Name:   "issues and milestones",
		Events: map[string][]string{"issues": nil, "milestone": nil},
		View:   func() any { return new(issuesView) },
		Derive: func(event string, env webhook.Envelope, raw []byte, _ int64) ([]route.Work, error) {
			v, err := route.Decode[issuesView](raw)
			if err != nil {
				return nil, err
			}
			if event == "milestone" {
				j := JudgeOpen{}
				if v.Milestone != nil && v.Milestone.Number > 0 && !slices.Contains(vanishing, env.Action) {
					j.Milestones = []int{v.Milestone.Number}
				}
				return append([]route.Work{j}, milestoneIncrement(env, v)...), nil
			}
			if v.Issue == nil || v.Issue.PullRequest != nil {
				return nil, nil
			}
			keep := keptContract(env, v)
			if env.Action == "closed" && v.Sender != nil && v.Issue.Number > 0 {
				// The closure is judged first: its dependents are judged on it.
				c := closure.JudgeClosure{Issue: v.Issue.Number, By: v.Sender.Login, ByType: v.Sender.Type, ClosedAt: v.Issue.ClosedAt}
				return append([]route.Work{c, issueWork(env, v)}, storyIncrement(env, v)...), nil
			}
			out := append(append(keep, issueWork(env, v)), storyIncrement(env, v)...)
			return append(out, heldAssignment(env, v)...), nil
		},
	}
}

// keptContract keeps the contract of an issue as GitHub's signed delivery
// shows it first: as opened, or as it was before an edit.
func keptContract(env webhook.Envelope, v issuesView) []route.Work {
	switch {
	case v.Issue.Number <= 0:
		return nil
	case env.Action == "opened":
		return []route.Work{contract.KeepContract{Issue: v.Issue.Number, Body: v.Issue.Body}}
	case env.Action == "edited" && v.Changes != nil && v.Changes.Body != nil:
		return []route.Work{contract.KeepContract{Issue: v.Issue.Number, Body: v.Changes.Body.From}}
	}
	return nil
}

// issueWork names what an issues event affects: the issue, its milestone
// and the milestone it just left or joined.
func issueWork(env webhook.Envelope, v issuesView) JudgeOpen {
	var j JudgeOpen
	if slices.Contains(vanishing, env.Action) || v.Issue.Number <= 0 {
		return j
	}
	j.Issue = v.Issue.Number
	for _, m := range []*numbered{v.Issue.Milestone, v.Milestone} {
		if m != nil && m.Number > 0 && !slices.Contains(j.Milestones, m.Number) {
			j.Milestones = append(j.Milestones, m.Number)
		}
	}
	return j
}

// milestoneIncrement judges a milestone's increment when it is closed,
// reopened or edited (its description declares the demonstration and
// risk); who closed it is the delivery's sender.
func milestoneIncrement(env webhook.Envelope, v issuesView) []route.Work {
	if v.Milestone == nil || v.Milestone.Number <= 0 || !slices.Contains([]string{"closed", "opened", "edited"}, env.Action) {
		return nil
	}
	j := increment.JudgeIncrements{Milestones: []int{v.Milestone.Number}}
	if env.Action == "closed" && v.Sender != nil {
		j.ClosedBy = closurerules.Actor{Login: v.Sender.Login, Type: v.Sender.Type}
	}
	if env.Action == "edited" && v.Sender != nil && v.Changes != nil && v.Changes.Description != nil {
		j.EditedBy, j.EditedTo = closurerules.Actor{Login: v.Sender.Login, Type: v.Sender.Type}, v.Milestone.Description
	}
	return []route.Work{j}
}

// storyIncrement judges the increment of a story closed, reopened or
// moved between milestones (after its closure is judged).
func storyIncrement(env webhook.Envelope, v issuesView) []route.Work {
	if !slices.Contains([]string{"closed", "reopened", "milestoned", "demilestoned"}, env.Action) {
		return nil
	}
	var ms []int
	for _, m := range []*numbered{v.Issue.Milestone, v.Milestone} {
		if m != nil && m.Number > 0 && !slices.Contains(ms, m.Number) {
			ms = append(ms, m.Number)
		}
	}
	if len(ms) == 0 {
		return nil
	}
	return []route.Work{increment.JudgeIncrements{Milestones: ms}}
}

// heldPush is the held work of a pull_request.synchronize: the push to the
// pull request naming exactly one unit.
func heldPush(env webhook.Envelope, v pullView) []route.Work {
	p := v.PullRequest
	if env.Action != "synchronize" || route.Sender(env) == "" || p.Head.SHA == "" {
		return nil
	}
	u := verdict.GuessUnits(p.Body, route.RepoName(env))
	if len(u) != 1 {
		return nil
	}
	return []route.Work{heldwork.HeldWork{Kind: heldwork.KindPush, Unit: u[0], Thread: p.Number, By: route.Sender(env), Head: p.Head.SHA}}
}

// heldAssignment is the held work of an issues.assigned: the assignee on
// the unit's issue (app/heldwork answers only the config's agents).
func heldAssignment(env webhook.Envelope, v issuesView) []route.Work {
	if env.Action != "assigned" || v.Assignee == nil || v.Assignee.Login == "" || v.Issue.Number <= 0 {
		return nil
	}
	return []route.Work{heldwork.HeldWork{Kind: heldwork.KindAssignment, Unit: v.Issue.Number, Thread: v.Issue.Number, By: route.Sender(env), Assignee: v.Assignee.Login}}
}

type appRef struct {
	ID int64 `json:"id"`
}

// pushedAt is a push delivery's repository.pushed_at as a time: Unix
// seconds, or an RFC 3339 time; the zero time (unknown) for anything else.
func pushedAt(v any) time.Time {
	switch x := v.(type) {
	case float64:
		if x > 0 {
			return time.Unix(int64(x), 0).UTC()
		}
	case string:
		if t, err := time.Parse(time.RFC3339, x); err == nil {
			return t.UTC()
		}
	}
	return time.Time{}
}
