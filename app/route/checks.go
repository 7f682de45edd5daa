package route

import (
	"regexp"
	"slices"
	"strconv"
	"sync"

	"github.com/aepgate/aepgate/app/readback"
	"github.com/aepgate/aepgate/app/release"
	"github.com/aepgate/aepgate/app/webhook"
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
func checksFamily() Family {
	return Family{
		Name: "workflow and check",
		Events: map[string][]string{
			"check_run": {"rerequested"}, "check_suite": {"rerequested"}, "workflow_run": {"completed"},
		},
		View: func() any { return new(checksView) },
		Derive: func(event string, env webhook.Envelope, raw []byte, appID int64) ([]Work, error) {
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
func workflowReadback(env webhook.Envelope, v checksView) []Work {
	w := v.WorkflowRun
	if w.HeadSHA == "" || env.Repository.DefaultBranch == "" || w.HeadBranch != env.Repository.DefaultBranch {
		return nil
	}
	t := ReadBack{SHA: w.HeadSHA}
	if w.HeadCommit != nil {
		t.Guesses = readback.Guesses(w.HeadCommit.Message)
	}
	return []Work{t, JudgeIncrements{Open: true, AtMerge: w.HeadSHA}} // the readback may complete an increment
}

func ours(a *appInfo, appID int64) bool { return a == nil || a.ID == appID }

// prWork judges each named pull request.
func prWork(prs []prRef) []Work {
	var out []Work
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

// mergeGroupFamily: a merge queue's group commit is judged for the pull
// request it queues (aepgate/merge on the group's head).
func mergeGroupFamily() Family {
	return Family{
		Name:   "merge group",
		Events: map[string][]string{"merge_group": {"checks_requested"}},
		View:   func() any { return new(mergeGroupView) },
		Derive: func(_ string, _ webhook.Envelope, raw []byte, _ int64) ([]Work, error) {
			v, err := decode[mergeGroupView](raw)
			if err != nil {
				return nil, err
			}
			if g, ok := groupOf(v); ok {
				return []Work{JudgeQueued(g)}, nil
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
func releaseFamily() Family {
	return Family{
		Name:   "release",
		Events: map[string][]string{"release": slices.Clone(release.Actions)},
		View:   func() any { return new(releaseView) },
		Derive: func(_ string, _ webhook.Envelope, raw []byte, _ int64) ([]Work, error) {
			v, err := decode[releaseView](raw)
			if err != nil || v.Release == nil || v.Release.TagName == "" {
				return nil, err
			}
			return []Work{JudgeRelease{Tag: v.Release.TagName}}, nil
		},
	}
}

// MergeGroup is a merge queue's group commit and the pull request it
// queues: GitHub names the group's branch
// gh-readonly-queue/<base>/pr-<number>-<queued head SHA>.
type MergeGroup struct {
	GroupSHA, PRHead string
	PR               int
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
