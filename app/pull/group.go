package pull

import (
	"context"
	"fmt"

	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/checks"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/gitsha"
	"github.com/aepgate/aepgate/protocol/merge"
)

// Group is a merge queue's group commit and the pull request it queues, at
// the head it was queued with.
type Group struct {
	GroupSHA, PRHead string
	PR               int
}

// Queued posts aepgate/merge on a merge queue's group commit: the queued
// pull request judged as on its head (report, work unit, gates, audit),
// with the required workflows' runs at the group commit. A pull request
// whose head moved since it was queued is not ready.
func (j *Judge) Queued(ctx context.Context, in Input, g Group) error {
	unlock, err := j.DB.Locks.Lock(ctx, fmt.Sprintf("%s/%s#%d", in.Owner, in.Repo, g.PR))
	if err != nil {
		return err
	}
	defer unlock()
	needs, reads := j.needs()
	snap, err := j.Reads.Snap.Snapshot(ctx, gh.SnapshotRequest{Owner: in.Owner, Repo: in.Repo, PR: g.PR, Needs: needs, Marks: j.marks(in)})
	if err != nil || snap.Pull == nil {
		return err
	}
	ev, err := j.prepare(ctx, in, snap, verdict.UnitOf(snap), reads)
	if err != nil {
		return err
	}
	runs, unreadable, err := j.Groups.WorkflowRunsAt(ctx, in.Owner, in.Repo, g.GroupSHA)
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
	in.PR = g.PR
	if err := j.W.Record(ctx, verdict.Entry(in.Origin(), ev, checks.NameMerge, out, true)); err != nil {
		return err
	}
	_, err = j.publish(ctx, in, out.Run, true, false)
	return err
}
