package app

import (
	"slices"

	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/release"
)

// checksView is what the checks family reads: the pull requests a check
// run, check suite or workflow run was for, the App that wrote it, and a
// workflow run's commit.
type checksView struct {
	CheckRun *struct {
		PullRequests []prRef  `json:"pull_requests"`
		App          *appInfo `json:"app"`
	} `json:"check_run"`
	CheckSuite *struct {
		PullRequests []prRef  `json:"pull_requests"`
		App          *appInfo `json:"app"`
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

// checksFamily: a re-run asked of one of the App's check runs or suites
// judges its pull requests again; a completed workflow run may be what
// aepgate/merge waits for at a head, and on the default branch what a
// merge's readback waits for.
func checksFamily() family {
	return family{
		name: "workflow and check",
		events: map[string][]string{
			"check_run": {"rerequested"}, "check_suite": {"rerequested"}, "workflow_run": {"completed"},
		},
		view: func() any { return new(checksView) },
		work: func(event string, env envelope, raw []byte, appID int64) ([]work, error) {
			v, err := decode[checksView](raw)
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
func workflowReadback(env envelope, v checksView) []work {
	w := v.WorkflowRun
	if w.HeadSHA == "" || env.Repository.DefaultBranch == "" || w.HeadBranch != env.Repository.DefaultBranch {
		return nil
	}
	t := readBack{SHA: w.HeadSHA}
	if w.HeadCommit != nil {
		t.Guesses = readback.Guesses(w.HeadCommit.Message)
	}
	return []work{t, judgeIncrements{open: true, atMerge: w.HeadSHA}} // the readback may complete an increment
}

func ours(a *appInfo, appID int64) bool { return a == nil || a.ID == appID }

// prWork judges each named pull request.
func prWork(prs []prRef) []work {
	var out []work
	for _, p := range prs {
		if p.Number > 0 {
			out = append(out, judgePR{pr: p.Number})
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

// mergeGroupFamily: a merge queue's group commit is judged for the pull
// request it queues (aepgate/merge on the group's head).
func mergeGroupFamily() family {
	return family{
		name:   "merge group",
		events: map[string][]string{"merge_group": {"checks_requested"}},
		view:   func() any { return new(mergeGroupView) },
		work: func(_ string, _ envelope, raw []byte, _ int64) ([]work, error) {
			v, err := decode[mergeGroupView](raw)
			if err != nil {
				return nil, err
			}
			if g, ok := groupOf(v); ok {
				return []work{judgeQueued(g)}, nil
			}
			return nil, nil
		},
	}
}

// releaseView is what the release family reads.
type releaseView struct {
	Release *struct {
		TagName string `json:"tag_name"`
	} `json:"release"`
}

// releaseFamily: a release published, edited or withdrawn has its closure
// verified again.
func releaseFamily() family {
	return family{
		name:   "release",
		events: map[string][]string{"release": slices.Clone(release.Actions)},
		view:   func() any { return new(releaseView) },
		work: func(_ string, _ envelope, raw []byte, _ int64) ([]work, error) {
			v, err := decode[releaseView](raw)
			if err != nil || v.Release == nil || v.Release.TagName == "" {
				return nil, err
			}
			return []work{judgeRelease{tag: v.Release.TagName}}, nil
		},
	}
}
