package app

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"sync"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/merge"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// mergeGroup is a merge queue's group commit and the pull request it
// queues: GitHub names the group's branch
// gh-readonly-queue/<base>/pr-<number>-<queued head SHA>.
type mergeGroup struct {
	GroupSHA, PRHead string
	PR               int
}

var groupRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^refs/heads/gh-readonly-queue/.+/pr-([0-9]+)-([0-9a-f]{40})$`)
})

// groupOf reads a merge_group payload's group.
func groupOf(p mergeGroupView) (mergeGroup, bool) {
	if p.MergeGroup == nil || len(p.MergeGroup.HeadSHA) != 40 {
		return mergeGroup{}, false
	}
	m := groupRef().FindStringSubmatch(p.MergeGroup.HeadRef)
	if m == nil {
		return mergeGroup{}, false
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n <= 0 {
		return mergeGroup{}, false
	}
	return mergeGroup{GroupSHA: p.MergeGroup.HeadSHA, PRHead: m[2], PR: n}, true
}

// groupReader reads the workflow runs at a commit (gh.Installation).
type groupReader interface {
	WorkflowRunsAt(ctx context.Context, owner, repo, sha string) ([]snapshot.WorkflowRun, string, error)
}

// judgeGroup posts aepgate/merge on a merge queue's group commit: the
// queued pull request judged as on its head (report, work unit, gates,
// audit), with the required workflows' runs at the group commit. A pull
// request whose head moved since it was queued is not ready.
func (e *evaluator) judgeGroup(ctx context.Context, in evalInput, g mergeGroup) error {
	unlock, err := e.locks.Lock(ctx, fmt.Sprintf("%s/%s#%d", in.owner, in.repo, g.PR))
	if err != nil {
		return err
	}
	defer unlock()
	needs, reads := e.needs()
	snap, err := e.snap.Snapshot(ctx, gh.SnapshotRequest{Owner: in.owner, Repo: in.repo, PR: g.PR, Needs: needs, Marks: e.marks(in)})
	if err != nil || snap.Pull == nil {
		return err
	}
	ev, err := e.prepare(ctx, in, snap, verdict.UnitOf(snap), reads)
	if err != nil {
		return err
	}
	runs, unreadable, err := e.groups.WorkflowRunsAt(ctx, in.owner, in.repo, g.GroupSHA)
	if err != nil {
		return err
	}
	d := ev.MergeDecision(g.GroupSHA, runs, unreadable)
	if snap.Pull.HeadSHA != g.PRHead {
		d.Ready = false
		d.Conditions = append(d.Conditions, merge.Condition{Name: "queued head",
			Missing: []string{fmt.Sprintf("the queue holds %s, but the head of #%d is now %s", gitsha.Short(g.PRHead), g.PR, gitsha.Short(snap.Pull.HeadSHA))}})
	}
	out := ev.Published(verdict.Outcome{Run: checks.Merge(g.GroupSHA, g.PR, d), Facts: map[string]any{"ready": d.Ready, "run_ids": d.RunIDs, "unit": ev.Unit, "merge_group": g.GroupSHA}})
	in.pr = g.PR
	if err := e.w.Record(ctx, verdict.Entry(in.origin(), ev, checks.NameMerge, out, true)); err != nil {
		return err
	}
	return e.publish(ctx, in, out.Run, true, false)
}
