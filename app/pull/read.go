package pull

import (
	"context"

	"github.com/aepgate/aepgate/app/closure"
	"github.com/aepgate/aepgate/app/instructed"
	"github.com/aepgate/aepgate/app/verdict"
	"github.com/aepgate/aepgate/internal/gh"
	"github.com/aepgate/aepgate/protocol/gatelog"
	"github.com/aepgate/aepgate/protocol/snapshot"
)

// evaluation reads the open pull request's snapshot with what the checks
// need and prepares its evaluation; nil when the pull request is not open
// (a closed one is left alone).
func (j *Judge) evaluation(ctx context.Context, in Input) (*verdict.Evaluation, error) {
	needs, reads := j.needs()
	snap, err := j.Reads.Snap.Snapshot(ctx, gh.SnapshotRequest{Owner: in.Owner, Repo: in.Repo, PR: in.PR, Guesses: in.Guesses, Needs: needs, Marks: j.marks(in), Attempts: j.attempts(in)})
	if err != nil {
		return nil, err
	}
	if snap.Pull == nil || snap.Pull.State != "OPEN" {
		j.Log.Debug("pull request not open; nothing to judge", "pr", in.PR)
		return nil, nil
	}
	return j.prepare(ctx, in, snap, verdict.UnitOf(snap), reads)
}

// Thread reads the conversation of issue number (a unit's issue, its
// gates replayed with the control issue's and its attempts'; or, when
// control is set, the control issue: project gates only) with what the
// gates read, and prepares its evaluation. The caller holds the issue's
// lock (ThreadLock).
func (j *Judge) Thread(ctx context.Context, in Input, number int, control bool) (*verdict.Evaluation, error) {
	req := gh.SnapshotRequest{Owner: in.Owner, Repo: in.Repo, Needs: verdict.GatesNeeds, Marks: j.marks(in), Attempts: j.attempts(in)}
	unit := 0
	if !control {
		req.Guesses, unit = []int{number}, number
	}
	snap, err := j.Reads.Snap.Snapshot(ctx, req)
	if err != nil {
		return nil, err
	}
	return j.prepare(ctx, in, snap, unit, verdict.GatesReads)
}

// ControlIssue reads the repository's control issue afresh (nil: none).
func (j *Judge) ControlIssue(ctx context.Context, owner, repo string) (*snapshot.ControlIssue, error) {
	again, err := j.Reads.Snap.Snapshot(ctx, gh.SnapshotRequest{Owner: owner, Repo: repo, Needs: verdict.GatesNeeds})
	if err != nil {
		return nil, err
	}
	return again.Control, nil
}

// prepare parses the config and, with the conversation, reads what the
// checks declared (verdict.Reads): for the audit, reviewers' live roles,
// pushers and evidence bundles (audit.go); for the gate log,
// readDecisions; for both, who instructed the agents that made the pull
// request (app/instructed). A failed look-up fails the evaluation, to be
// retried.
func (j *Judge) prepare(ctx context.Context, in Input, snap *snapshot.PR, unit int, reads verdict.Reads) (*verdict.Evaluation, error) {
	ev := verdict.NewWith(snap, j.Rules.Merge)
	ev.Unit, ev.Rules, ev.GateRules = unit, verdict.AuditRules(j.Rules.Audit), verdict.GateRules(j.Rules.Gate)
	ev.Witness, ev.Distinct = in.Witness, j.Rules.Approvals
	if err := closure.Load(ctx, j.Reads.Units, in.FullName(), ev, j.Rules.Closure); err != nil {
		return nil, err
	}
	if !snap.Has.Conversation || ev.Cfg == nil {
		return ev, j.Reads.Contracts.Evaluation(ctx, in.Delivery, in.FullName(), ev)
	}
	if err := j.readPeople(ctx, in, ev); err != nil || ev.Cfg == nil {
		return ev, err
	}
	if err := j.Reads.Contracts.Evaluation(ctx, in.Delivery, in.FullName(), ev); err != nil {
		return nil, err
	}
	if reads.Instructors {
		if err := instructed.Read(ctx, j.Reads.Timelines, j.Reads.Pushers, in.Owner, in.Repo, ev); err != nil {
			return nil, err
		}
	}
	ev.Roles = map[string]string{}
	if reads.Audits {
		if err := j.readAudits(ctx, in, ev); err != nil {
			return nil, err
		}
	}
	if reads.Decisions {
		if err := j.readDecisions(ctx, in, ev); err != nil {
			return nil, err
		}
	}
	ev.Perms = gatelog.Permissions(ev.Roles)
	return ev, nil
}

// roleOf is login's live role on the repository (gh.Installation.Role:
// admin, maintain, write, triage, read or none), read once per evaluation
// whoever asks (the gates for owners and coordinators, the audit for
// reviewers), and once per job when in.Roles keeps them (Open). A failed
// look-up fails the evaluation, to be retried: it never counts as a role.
func (j *Judge) roleOf(ctx context.Context, in Input, ev *verdict.Evaluation, login string) (string, error) {
	if r, ok := ev.Roles[login]; ok {
		return r, nil
	}
	r, err := in.Roles.Role(ctx, j.Reads.Roles, in.Owner, in.Repo, login)
	if err != nil {
		return "", err
	}
	ev.Roles[login] = r
	return r, nil
}
