package action

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/sethvargo/go-githubactions"
)

// Event is what the step needs from the workflow's context and event.
type Event struct {
	// Name is GITHUB_EVENT_NAME.
	Name string
	// Owner and Repo name the repository the workflow runs in.
	Owner, Repo string
	// SHA is the commit the check runs attach to: the pull request's head
	// for pull_request events, GITHUB_SHA otherwise.
	SHA string
	// APIURL is GITHUB_API_URL; Workspace is GITHUB_WORKSPACE.
	APIURL, Workspace string
	// OutputPath and SummaryPath are $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY.
	OutputPath, SummaryPath string
	// RunURL links the workflow run, for details_url.
	RunURL string
	// PR is set for pull_request and pull_request_target events.
	PR *PullRequest
	// Tag is the release event's tag_name, or the tag a push created.
	Tag string
}

// PullRequest is the event's pull request.
type PullRequest struct {
	Number           int
	Body             string
	HeadSHA, HeadRef string
	HeadRepo         string
	BaseSHA, BaseRef string
	BaseRepo         string
	// Author is the login that opened the pull request; AuthorType is
	// GitHub's type for it (User, Bot, Organization).
	Author, AuthorType string
	// Labels are the pull request's label names when the event was sent.
	Labels []string
	// Before is the head before this push (synchronize events); empty
	// otherwise.
	Before string
}

// Fork reports whether the head lives in another repository.
func (p *PullRequest) Fork() bool {
	return p.HeadRepo != "" && !strings.EqualFold(p.HeadRepo, p.BaseRepo)
}

// eventPayload is the part of a webhook payload the step reads.
type eventPayload struct {
	Before  string `json:"before"`
	Release *struct {
		TagName string `json:"tag_name"`
	} `json:"release"`
	PullRequest *struct {
		Number int    `json:"number"`
		Body   string `json:"body"`
		Head   ref    `json:"head"`
		Base   ref    `json:"base"`
		User   struct {
			Login string `json:"login"`
			Type  string `json:"type"`
		} `json:"user"`
		Labels []struct {
			Name string `json:"name"`
		} `json:"labels"`
	} `json:"pull_request"`
}

type ref struct {
	SHA  string `json:"sha"`
	Ref  string `json:"ref"`
	Repo *struct {
		FullName string `json:"full_name"`
	} `json:"repo"`
}

func (r ref) repo() string {
	if r.Repo == nil {
		return ""
	}
	return r.Repo.FullName
}

// readEvent reads the context (GITHUB_* variables and the event file).
func readEvent(a *githubactions.Action) (Event, error) {
	ctx, err := a.Context()
	if err != nil {
		return Event{}, &InputError{fmt.Sprintf("read the workflow context: %v", err)}
	}
	owner, repo := ctx.Repo()
	ev := Event{
		Name: ctx.EventName, Owner: owner, Repo: repo, SHA: ctx.SHA, APIURL: ctx.APIURL,
		Workspace: ctx.Workspace, OutputPath: a.Getenv("GITHUB_OUTPUT"), SummaryPath: ctx.StepSummary,
	}
	if ev.Workspace == "" {
		ev.Workspace = "." // outside Actions: the current directory
	}
	if ctx.RunID != 0 && ctx.Repository != "" {
		ev.RunURL = fmt.Sprintf("%s/%s/actions/runs/%d", strings.TrimSuffix(ctx.ServerURL, "/"), ctx.Repository, ctx.RunID)
	}
	if owner == "" || repo == "" {
		return ev, &InputError{"GITHUB_REPOSITORY is not set: run aepgate action inside a GitHub Actions workflow (or set the GITHUB_* variables)"}
	}
	if ctx.RefType == "tag" {
		ev.Tag = ctx.RefName
	}
	if ctx.EventPath != "" && ctx.Event == nil {
		// go-githubactions skips a missing event file without a word.
		return ev, &InputError{fmt.Sprintf("the event file %s (GITHUB_EVENT_PATH) does not exist or holds no event", ctx.EventPath)}
	}
	if err := ev.readPR(ctx.Event); err != nil {
		return ev, err
	}
	if strings.HasPrefix(ev.Name, "pull_request") && (ev.PR == nil || ev.PR.HeadSHA == "") {
		// Without the pull request, the checks would attach to GITHUB_SHA
		// (a merge commit), skip the report and read the pull request's own
		// policy: fail closed instead.
		return ev, &InputError{fmt.Sprintf("a %s event needs its payload's pull_request with a head sha (GITHUB_EVENT_PATH names no such event)", ev.Name)}
	}
	if ev.SHA == "" {
		return ev, &InputError{"no commit to check: GITHUB_SHA is empty and the event has no pull request head"}
	}
	return ev, nil
}

func (ev *Event) readPR(raw map[string]any) error {
	if raw == nil {
		return nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return &InputError{fmt.Sprintf("read the event payload: %v", err)}
	}
	var p eventPayload
	if err := json.Unmarshal(b, &p); err != nil {
		return &InputError{fmt.Sprintf("read the event payload: %v", err)}
	}
	if p.Release != nil && p.Release.TagName != "" {
		ev.Tag = p.Release.TagName
	}
	if p.PullRequest == nil || !strings.HasPrefix(ev.Name, "pull_request") {
		return nil
	}
	pr := p.PullRequest
	ev.PR = &PullRequest{
		Number: pr.Number, Body: pr.Body, HeadSHA: pr.Head.SHA, HeadRef: pr.Head.Ref, HeadRepo: pr.Head.repo(),
		BaseSHA: pr.Base.SHA, BaseRef: pr.Base.Ref, BaseRepo: pr.Base.repo(),
		Author: pr.User.Login, AuthorType: pr.User.Type, Before: p.Before,
	}
	for _, l := range pr.Labels {
		ev.PR.Labels = append(ev.PR.Labels, l.Name)
	}
	if pr.Head.SHA != "" {
		ev.SHA = pr.Head.SHA
	}
	return nil
}
