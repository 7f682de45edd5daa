package app

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"sync"
)

// readbackPayload is the part of a pull_request or workflow_run payload
// readback reads.
type readbackPayload struct {
	Action      string `json:"action"`
	PullRequest *struct {
		Number int  `json:"number"`
		Merged bool `json:"merged"`
	} `json:"pull_request"`
	WorkflowRun *struct {
		HeadSHA    string `json:"head_sha"`
		HeadBranch string `json:"head_branch"`
		HeadCommit *struct {
			Message string `json:"message"`
		} `json:"head_commit"`
	} `json:"workflow_run"`
	Repository *struct {
		DefaultBranch string `json:"default_branch"`
	} `json:"repository"`
}

// readbackTargets says which merges a delivery asks to read back: a pull
// request closed as merged, or the merge a workflow run completed on the
// default branch belongs to (the commit message's pull request number is
// a guess, checked against GitHub). Other deliveries, and payloads it
// cannot read, ask for none.
func readbackTargets(event string, raw []byte) []target {
	var p readbackPayload
	if json.Unmarshal(raw, &p) != nil {
		return nil
	}
	switch {
	case event == "pull_request" && p.Action == "closed" && p.PullRequest != nil && p.PullRequest.Merged && p.PullRequest.Number > 0:
		return []target{{Readback: &readbackTarget{PR: p.PullRequest.Number}}}
	case event == "workflow_run" && p.Action == "completed" && p.WorkflowRun != nil && p.Repository != nil:
		w := p.WorkflowRun
		if w.HeadSHA == "" || p.Repository.DefaultBranch == "" || w.HeadBranch != p.Repository.DefaultBranch {
			return nil
		}
		t := &readbackTarget{SHA: w.HeadSHA}
		if w.HeadCommit != nil {
			t.Guesses = mergeGuesses(w.HeadCommit.Message)
		}
		return []target{{Readback: t}}
	}
	return nil
}

var (
	mergeMessage  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^Merge pull request #([0-9]{1,9}) from `) })
	squashMessage = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\(#([0-9]{1,9})\)$`) })
)

// mergeGuesses is the pull request a merge commit's first line names:
// GitHub's "Merge pull request #N from …" or a squash's "Title (#N)".
func mergeGuesses(message string) []int {
	first, _, _ := strings.Cut(message, "\n")
	first = strings.TrimSpace(first)
	for _, re := range []*regexp.Regexp{mergeMessage(), squashMessage()} {
		if m := re.FindStringSubmatch(first); m != nil {
			n, err := strconv.Atoi(m[1])
			if err == nil && n > 0 {
				return []int{n}
			}
		}
	}
	return nil
}
