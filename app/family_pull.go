package app

import (
	"slices"
	"strings"

	"github.com/aepgate/aepgate/app/verdict"
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
// is judged; one closed frees its lane (the increment's other attempts may
// now be within the WIP limits, board.md) and, merged, is read back.
func pullRequestFamily() family {
	return family{
		name:   "pull request",
		events: map[string][]string{"pull_request": append(slices.Clone(pullRequestActions), "closed")},
		view:   func() any { return new(pullView) },
		work: func(_ string, env envelope, raw []byte, _ int64) ([]work, error) {
			v, err := decode[pullView](raw)
			if err != nil || v.PullRequest == nil || v.PullRequest.Number <= 0 {
				return nil, err
			}
			p := v.PullRequest
			var out []work
			if slices.Contains(pushActions, env.Action) && env.sender() != "" && p.Head.SHA != "" {
				out = append(out, recordPush{SHA: p.Head.SHA, Login: env.sender()})
			}
			switch {
			case slices.Contains(pullRequestActions, env.Action):
				out = append(out, judgePR{pr: p.Number, guesses: verdict.GuessUnits(p.Body, env.repoName())})
			case env.Action == "closed":
				if u := verdict.GuessUnits(p.Body, env.repoName()); len(u) == 1 {
					out = append(out, judgeOpen{issue: u[0]})
				}
				if p.Merged {
					out = append(out, readBack{PR: p.Number})
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
func reviewFamily() family {
	return family{
		name:   "review",
		events: map[string][]string{"pull_request_review": {"submitted", "edited", "dismissed"}},
		view:   func() any { return new(reviewView) },
		work: func(_ string, env envelope, raw []byte, _ int64) ([]work, error) {
			v, err := decode[reviewView](raw)
			if err != nil || v.PullRequest == nil || v.PullRequest.Number <= 0 || v.Review == nil {
				return nil, err
			}
			j := judgePR{pr: v.PullRequest.Number, guesses: verdict.GuessUnits(v.PullRequest.Body, env.repoName()), siblings: true}
			if env.Action == "submitted" {
				j.answer = v.Review.ID
			}
			return []work{j}, nil
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
func pushFamily() family {
	return family{
		name:   "push",
		events: map[string][]string{"push": nil},
		view:   func() any { return new(pushView) },
		work: func(_ string, env envelope, raw []byte, _ int64) ([]work, error) {
			v, err := decode[pushView](raw)
			if err != nil {
				return nil, err
			}
			var out []work
			if strings.HasPrefix(v.Ref, "refs/heads/") && env.sender() != "" && v.After != "" && v.After != zeroSHA {
				out = append(out, recordPush{SHA: v.After, Login: env.sender()})
			}
			if configChanged(env, v) {
				out = append(out, judgeOpen{})
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
func configChanged(env envelope, p pushView) bool {
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
