package app

import (
	"context"
	"slices"
	"strings"
	"time"
)

// pushed is one branch move a delivery reports: Login (the sender) moved
// a branch to SHA.
type pushed struct {
	SHA, Login string
}

// pushActions are the pull_request actions whose sender moved the head:
// opening it (the head the opener proposes) and each push to it.
var pushActions = []string{"opened", "synchronize"}

// zeroSHA is what a push deleting a branch moves it to.
const zeroSHA = "0000000000000000000000000000000000000000"

// pushOf returns the branch move a delivery reports, or nil: the sender
// and head of pull_request opened and synchronize, the sender and after
// of a push to a branch. GitHub records no pusher on a commit, so these
// senders are the only evidence of who put a commit on a pull request.
func pushOf(event string, p payload) *pushed {
	if p.Sender == nil || p.Sender.Login == "" {
		return nil
	}
	var sha string
	switch {
	case event == "pull_request" && p.PullRequest != nil && slices.Contains(pushActions, p.Action):
		sha = p.PullRequest.Head.SHA
	case event == "push" && strings.HasPrefix(p.Ref, "refs/heads/"):
		sha = p.After
	}
	if sha == "" || sha == zeroSHA {
		return nil
	}
	return &pushed{SHA: sha, Login: p.Sender.Login}
}

// recordPush keeps j's branch move, if any, so the audit counts its
// pusher as an author of that commit.
func (a *App) recordPush(ctx context.Context, j job) error {
	if j.Push == nil {
		return nil
	}
	return a.db.RecordPusher(ctx, j.Owner+"/"+j.Repo, j.Push.SHA, j.Push.Login, time.Now())
}
