package route

import (
	"slices"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/app/webhook"
)

// pullView is what the pull request and review families read of a
// payload's pull request.
type pullView struct {
	PullRequest *struct {
		Number int    `json:"number"`
		Body   string `json:"body"`
		Merged bool   `json:"merged"`
		Head   struct {
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

// pullRequestFamily: a pull request opened, pushed to, edited or reopened
// is judged (a push to a held unit's pull request is answered,
// app/heldwork); one closed frees its lane (the increment's other attempts may
// now be within the WIP limits, board.md) and, merged, is read back.
func pullRequestFamily() Family {
	return Family{
		Name:   "pull request",
		Events: map[string][]string{"pull_request": append(slices.Clone(pullRequestActions), "closed")},
		View:   func() any { return new(pullView) },
		Derive: func(_ string, env webhook.Envelope, raw []byte, _ int64) ([]Work, error) {
			v, err := decode[pullView](raw)
			if err != nil || v.PullRequest == nil || v.PullRequest.Number <= 0 {
				return nil, err
			}
			p := v.PullRequest
			var out []Work
			if slices.Contains(pushActions, env.Action) && sender(env) != "" && p.Head.SHA != "" {
				out = append(out, RecordPush{SHA: p.Head.SHA, Login: sender(env)})
			}
			switch {
			case slices.Contains(pullRequestActions, env.Action):
				// A held push is answered first: the judging then shows the
				// reply on the owner's board.
				out = append(out, heldPush(env, v)...)
				out = append(out, JudgePR{PR: p.Number, Guesses: verdict.GuessUnits(p.Body, repoName(env))})
			case env.Action == "closed":
				if u := verdict.GuessUnits(p.Body, repoName(env)); len(u) == 1 {
					out = append(out, JudgeOpen{Issue: u[0]})
				}
				if p.Merged {
					out = append(out, ReadBack{PR: p.Number})
				}
			}
			return out, nil
		},
	}
}

// reviewView is what the review family reads.
type reviewView struct {
	pullView
	Review *struct {
		ID int64 `json:"id"`
	} `json:"review"`
}

// reviewFamily: a review submitted, edited or dismissed changes what the
// pull request's reviews say; only a submitted one is answered. The unit's
// other attempts are judged next (a HOLD or gate in it applies to them).
func reviewFamily() Family {
	return Family{
		Name:   "review",
		Events: map[string][]string{"pull_request_review": {"submitted", "edited", "dismissed"}},
		View:   func() any { return new(reviewView) },
		Derive: func(_ string, env webhook.Envelope, raw []byte, _ int64) ([]Work, error) {
			v, err := decode[reviewView](raw)
			if err != nil || v.PullRequest == nil || v.PullRequest.Number <= 0 || v.Review == nil {
				return nil, err
			}
			j := JudgePR{PR: v.PullRequest.Number, Guesses: verdict.GuessUnits(v.PullRequest.Body, repoName(env)), Siblings: true}
			if env.Action == "submitted" {
				j.Answer = v.Review.ID
			}
			return []Work{j}, nil
		},
	}
}

// pushView is what the push family reads.
type pushView struct {
	Ref     string `json:"ref"`
	After   string `json:"after"`
	Commits []struct {
		Added    *[]string `json:"added"`
		Modified *[]string `json:"modified"`
		Removed  *[]string `json:"removed"`
	} `json:"commits"`
}

// zeroSHA is what a push deleting a branch moves it to.
const zeroSHA = "0000000000000000000000000000000000000000"

// pushFamily: a push to a branch records its pusher; one to the default
// branch that may have changed the config has every open pull request
// judged again under it.
func pushFamily() Family {
	return Family{
		Name:   "push",
		Events: map[string][]string{"push": nil},
		View:   func() any { return new(pushView) },
		Derive: func(_ string, env webhook.Envelope, raw []byte, _ int64) ([]Work, error) {
			v, err := decode[pushView](raw)
			if err != nil {
				return nil, err
			}
			var out []Work
			if strings.HasPrefix(v.Ref, "refs/heads/") && sender(env) != "" && v.After != "" && v.After != zeroSHA {
				out = append(out, RecordPush{SHA: v.After, Login: sender(env)})
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
