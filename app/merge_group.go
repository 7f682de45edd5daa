package app

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/app/pull"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/merge"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// groupReader reads the workflow runs at a commit (gh.Installation).
type groupReader interface {
	WorkflowRunsAt(ctx context.Context, owner, repo, sha string) ([]snapshot.WorkflowRun, string, error)
}

// judgeGroup posts aepgate/merge on a merge queue's group commit: the
// queued pull request judged as on its head (report, work unit, gates,
// audit), with the required workflows' runs at the group commit. A pull
// request whose head moved since it was queued is not ready.
func (e *evaluator) judgeGroup(ctx context.Context, in evalInput, g pull.MergeGroup) error {
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
